package check

import (
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// Code names the kind of a build's diagnostic for kakehashi check's
// machine-readable output: its own when the stage gave one, else by what
// found it.
func Code(d diag.Diagnostic) string {
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

// Translations reports, for each translation of the site st, whether it
// is behind its original or was never marked. Missing translations of
// series parts are the build's warnings already (site.Resolve); a missing
// translation of any other page is reported here.
func Translations(st *site.Site) diag.List {
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

// Pages gathers the pages of the site st as the checks read them: each
// page's ids from its built HTML (html, by output path; the template's ids
// count) and from its markdown (md, for a page with a source file), its
// links and outline, and the original it translates.
func Pages(st *site.Site, html func(outPath string) ([]byte, bool), md func(*site.Page) markdown.Result) []*Page {
	pages := make([]*Page, 0, len(st.Pages))
	for _, sp := range st.Pages {
		p := &Page{URL: sp.URL, Lang: sp.Lang}
		if h, ok := html(sp.OutPath()); ok {
			p.IDs = markdown.HTMLIDs(h)
		}
		if src := sp.Source; src != nil {
			res := md(sp)
			p.Source = src.Path
			p.IDs = append(p.IDs, res.IDs...)
			p.Links, p.Outline = res.Links, res.Outline
			if o := st.Original(sp); o != nil && o != sp && o.Source != nil {
				p.Original = o.URL
			}
		}
		pages = append(pages, p)
	}
	return pages
}
