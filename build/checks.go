package build

import (
	"context"

	"github.com/kakehashi-dev/kakehashi/build/check"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// ContentChecks runs the checks of the whole site (package check) over
// the last successful Build: links to the sections of other pages
// (check.Fragments), and translations whose code blocks or headings
// differ from their originals' (check.Twins). It reads the pages'
// markdown renderings as the Builder keeps them (made again only for a
// page whose input changed since, or that had errors), and each page's
// ids from its HTML in the built site, so that the theme's ids count.
// Without a successful Build (or after BuildTo, which keeps no HTML) it
// reports nothing.
func (b *Builder) ContentChecks() diag.List {
	pages := b.checkPages(context.Background())
	if pages == nil {
		return nil
	}
	out := append(check.Fragments(pages), check.Twins(pages)...)
	out.Sort()
	return out
}

// checkPages gathers the pages of the last in-memory build as the checks
// read them; nil when there is none.
func (b *Builder) checkPages(ctx context.Context) []*check.Page {
	b.mu.Lock()
	defer b.mu.Unlock()
	prev, st := b.prev, b.site
	if prev == nil || st == nil || b.theme == nil || b.cfg == nil {
		return nil
	}
	out := output.New()
	r := b.newRun(ctx, st, target{sink: out, mem: out}, nil)
	if err := r.loadStatic(); err != nil {
		return nil
	}
	pages := make([]*check.Page, 0, len(st.Pages))
	for _, sp := range st.Pages {
		p := &check.Page{URL: sp.URL, Lang: sp.Lang}
		if html, ok := prev.Get(sp.OutPath()); ok {
			p.IDs = markdown.HTMLIDs(html)
		}
		if src := sp.Source; src != nil {
			p.Source = src.Path
			e := r.markdown(sp, false)
			p.IDs = append(p.IDs, e.res.IDs...)
			p.Links, p.Outline = e.res.Links, e.res.Outline
			if o := st.Original(sp); o != nil && o != sp && o.Source != nil {
				p.Original = o.URL
			}
		}
		pages = append(pages, p)
	}
	return pages
}
