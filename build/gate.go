package build

import (
	"context"
	"errors"

	"github.com/kakehashi-dev/kakehashi/build/check"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/glossary"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/site"
)

// Check is the content gate (kakehashi check): it runs the whole pipeline
// in memory, writing nothing, then checks the site as a reader meets it:
// links and their sections in every language, the translations (missing,
// stale, unmarked, twins that differ), and the UI strings no one uses.
// The list holds every error and warning, sorted, each with its kind
// (check.Code); a failed build gives its errors only. The error is for
// what is no fault of the content (an interrupted build).
func (b *Builder) Check(ctx context.Context) (diag.List, error) {
	var out diag.List
	res, err := b.Build(ctx)
	if err != nil {
		var ds diag.List
		var d diag.Diagnostic
		if !errors.As(err, &ds) && !errors.As(err, &d) {
			return nil, err
		}
		out = diag.FromError(err)
	} else {
		b.mu.Lock()
		st := b.site // the site of the build that just succeeded
		b.mu.Unlock()
		out = append(append(out, res.Summary.Warnings...), b.ContentChecks()...)
		out = append(append(out, b.UnusedKeys()...), check.Translations(st)...)
	}
	for i := range out {
		out[i].Code = check.Code(out[i])
	}
	out.Sort()
	return out, nil
}

// ContentChecks runs the checks of the whole site over the last
// successful in-memory Build: links to the sections of other pages
// (check.Fragments), and translations whose code blocks or headings
// differ from their originals' (check.Twins). It reads the pages'
// markdown renderings as the Builder keeps them (made again only for a
// page whose input changed since, or that had errors), and each page's
// ids from its built HTML, so that the theme's ids count. Without such a
// Build (or after BuildTo, which keeps no HTML) it reports nothing.
func (b *Builder) ContentChecks() diag.List {
	b.mu.Lock()
	defer b.mu.Unlock()
	prev, st := b.prev, b.site
	if prev == nil || st == nil || b.theme == nil || b.cfg == nil {
		return nil
	}
	out := output.New()
	r := b.newRun(context.Background(), st, target{sink: out, mem: out}, nil)
	if err := r.loadStatic(); err != nil {
		return nil
	}
	pages := check.Pages(st, prev.Get, func(sp *site.Page) markdown.Result { return r.mdr.Markdown(r.ctx, sp, false).Result })
	ds := append(check.Fragments(pages), check.Twins(pages)...)
	ds = append(ds, glossary.CheckSite(r.ctx, b.in, b.opts.Layout.Content, st)...)
	ds.Sort()
	return ds
}
