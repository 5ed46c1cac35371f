package build

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// Check is the content gate (kakehashi check): it runs the whole pipeline
// in memory, writing nothing, then checks the site as a reader meets it:
// links and their sections in both languages, the translations (missing,
// stale, unmarked, twins that differ), and the UI strings no one uses.
// The list holds every error and warning, sorted; a failed build gives
// its errors only. The error is for what is no fault of the content (an
// interrupted build).
func (b *Builder) Check(ctx context.Context) (diag.List, error) {
	res, err := b.Build(ctx)
	if err != nil {
		var ds diag.List
		var d diag.Diagnostic
		switch {
		case errors.As(err, &ds):
		case errors.As(err, &d):
			ds = diag.List{d}
		default:
			return nil, err
		}
		for i, d := range ds {
			ds[i].Code = code(d)
		}
		return ds, nil
	}
	out := append(diag.List(nil), res.Summary.Warnings...)
	for i, d := range out {
		out[i].Code = code(d)
	}
	out = append(out, b.ContentChecks()...)
	out = append(out, b.UnusedKeys()...)
	out = append(out, b.translationChecks()...)
	out.Sort()
	return out, nil
}

// code names the kind of a build's diagnostic for kakehashi check's
// machine-readable output: its own when the stage gave one, else by what
// found it.
func code(d diag.Diagnostic) string {
	switch {
	case d.Code != "":
		return d.Code
	case strings.HasPrefix(d.Msg, "link to "):
		return "link"
	case strings.HasPrefix(d.Msg, "image ") || strings.Contains(d.Msg, "image file"):
		return "image"
	case strings.HasPrefix(d.Msg, "#") || strings.Contains(d.Msg, "is not in this series") || strings.Contains(d.Msg, "has no part"):
		return "part"
	case strings.Contains(d.Msg, "is published but has no"):
		return "missing-translation"
	case strings.Contains(d.Msg, "front matter"):
		return "front-matter"
	}
	return "build"
}

// translationChecks reports, for each translation of the last build's
// site, whether it is behind its original or was never marked. Missing
// translations of series parts are the build's warnings already
// (site.Resolve); a missing translation of any other page is reported
// here.
func (b *Builder) translationChecks() diag.List {
	b.mu.Lock()
	st := b.site
	b.mu.Unlock()
	if st == nil {
		return nil
	}
	var out diag.List
	for _, p := range st.Pages {
		if p.Source == nil || p.Kind == site.KindUntranslated {
			continue
		}
		o := st.Original(p)
		if o == p {
			for _, l := range st.Langs {
				if q := p.Translations[l]; p.Series == nil && (q == nil || q.Kind == site.KindUntranslated) {
					out = append(out, diag.File(p.Source.Path, "no %s translation: the page is published in %s only", l, p.Lang).AsWarning().WithCode("missing-translation"))
				}
			}
			continue
		}
		if o.Source == nil {
			continue
		}
		s := translation.Status(o.Source, p.Source)
		src := p.Source
		switch s.State {
		case translation.Stale:
			d := diag.At(src.Path, src.Src, src.Meta.Pos["translated"].Key,
				"stale translation: %s changed since this was marked on %s; update the translation, then run kakehashi translations mark %s",
				o.Source.Path, s.Marked.Date.Format(time.DateOnly), src.Path)
			out = append(out, d.AsWarning().WithCode("stale-translation"))
		case translation.Unmarked:
			out = append(out, diag.File(src.Path,
				"translation of %s is not marked: once it is up to date, run kakehashi translations mark %s", o.Source.Path, src.Path).AsWarning().WithCode("unmarked-translation"))
		}
	}
	return out
}
