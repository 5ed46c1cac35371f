package build

import (
	"bytes"
	"html/template"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// mdEntry is a page's rendered markdown, valid while its source (the same
// parsed page) and the series links it resolved stay the same.
type mdEntry struct {
	page    *source.Page
	res     markdown.Result // without its HTML, which is in content
	gen     uint64          // names the rendering by what it is made of
	content page.Content
	// fromDisk: taken from the persistent cache, without HTML; a page
	// that must be rendered renders its markdown again.
	fromDisk bool
}

// genOrZero is the rendering's gen; 0 for a page without markdown.
func (e *mdEntry) genOrZero() uint64 {
	if e == nil {
		return 0
	}
	return e.gen
}

// renderAll runs markdown, assembling, the templates and the writing of
// every page, in parallel, and returns their data and markdown in the
// site's page order.
func (r *run) renderAll() ([]*render.Page, []*mdEntry, error) {
	pages := r.st.Pages
	data := make([]*render.Page, len(pages))
	mds := make([]*mdEntry, len(pages))
	var (
		mu    sync.Mutex
		diags diag.List
		wg    sync.WaitGroup
		done  int
	)
	work := make(chan []int)
	for range r.b.opts.Workers {
		wg.Go(func() {
			var buf bytes.Buffer
			for group := range work {
				ps, ms, dss := r.renderGroup(pages, group, &buf)
				mu.Lock()
				for j, i := range group {
					data[i], mds[i] = ps[j], ms[j]
					diags = append(diags, dss[j]...)
				}
				done += len(group)
				if r.b.opts.Progress != nil {
					r.b.opts.Progress(done, len(pages))
				}
				mu.Unlock()
			}
		})
	}
	// A page and its translations together: each one's language switcher
	// needs the others' sections, and they share their code blocks, which
	// the highlighter then needs to keep only briefly.
	for _, group := range r.st.TranslationGroups() {
		if r.ctx.Err() != nil {
			break
		}
		work <- group
	}
	close(work)
	wg.Wait()
	if err := r.ctx.Err(); err != nil {
		return nil, nil, &InterruptedError{Err: err}
	}
	diags.Sort()
	r.warnings = append(r.warnings, diags.Warnings()...)
	return data, mds, diags.Err()
}

// renderGroup takes a page and its translations (indexes into pages)
// through markdown and assembling, tells each one's language switcher the
// sections of the others, and finishes each (renderPage).
func (r *run) renderGroup(pages []*site.Page, group []int, buf *bytes.Buffer) ([]*render.Page, []*mdEntry, []diag.List) {
	ps := make([]*render.Page, len(group))
	ms := make([]*mdEntry, len(group))
	dss := make([]diag.List, len(group))
	toc := map[string][]markdown.Heading{}
	for j, i := range group {
		ps[j], ms[j], dss[j] = r.assemble(pages[i], false)
		if ms[j] != nil {
			toc[pages[i].Lang] = ms[j].content.TOC
		}
	}
	for j, i := range group {
		page.Anchors(ps[j], toc)
		ps[j], ms[j], dss[j] = r.renderPage(pages[i], ps[j], ms[j], dss[j], buf)
	}
	return ps, ms, dss
}

// renderPage takes one assembled page through its template and the sink,
// and queues it for the search indexes.
func (r *run) renderPage(sp *site.Page, p *render.Page, md *mdEntry, ds diag.List, buf *bytes.Buffer) (*render.Page, *mdEntry, diag.List) {
	if len(ds.Errors()) == 0 {
		p, md, ds = r.writePage(sp, p, md, ds, buf)
	}
	if r.cache != nil && md != nil && sp.Source != nil {
		r.cache.KeepMarkdown(sp.Source.Path, cache.Markdown{Gen: md.gen, Text: md.res.Text, CodeText: md.res.CodeText,
			TOC: md.res.TOC, Diags: md.res.Diags, Minutes: md.content.Minutes, Styles: md.content.Styles, Scripts: md.content.Scripts})
	}
	if !r.retain {
		// Streaming keeps no page HTML; the search index needs only the
		// text.
		p.Content = ""
		if md != nil {
			c := *md
			c.content.HTML = ""
			md = &c
		}
	}
	if len(ds.Errors()) == 0 && md != nil && page.Searchable(p) {
		r.feed.Add(page.SearchDoc(p, md.res.Text, md.res.CodeText))
	}
	return p, md, ds
}

// writePage writes a page's HTML: the copy of the last build or of the
// previous output when its data did not change, else its template's.
func (r *run) writePage(sp *site.Page, p *render.Page, md *mdEntry, ds diag.List, buf *bytes.Buffer) (*render.Page, *mdEntry, diag.List) {
	out := sp.OutPath()
	fp := r.pageFP(r.asm.Fingerprint(p, md.genOrZero()))
	if html, ok := r.b.memo.Pages.Get(p.URL, fp); ok {
		r.w.Put(out, html)
		return p, md, ds
	}
	if r.cache.Reuse(r.sink, out, fp) {
		return p, md, ds
	}
	if md != nil && md.fromDisk {
		tr := p.Translations // with the sections of the others (renderGroup)
		if p, md, ds = r.assemble(sp, true); len(ds.Errors()) > 0 {
			return p, md, ds
		}
		p.Translations = tr
	}
	buf.Reset()
	if err := r.theme.Render(buf, p); err != nil {
		return p, md, append(ds, diag.FromError(err)...)
	}
	data := buf.Bytes()
	if r.retain {
		data = bytes.Clone(data) // kept: in the site and the page cache
	}
	r.w.Put(out, data) // a staging folder writes it before returning
	r.cache.Made(out, fp, len(data))
	r.rendered.Add(1)
	if r.retain {
		r.b.memo.Pages.Put(p.URL, fp, data)
	}
	return p, md, ds
}

// assemble renders one page's markdown (or takes it from a cache) and
// gathers its template data; the markdown entry is nil for pages without
// a source file. Unless needHTML, the rendering may come from the
// persistent cache without its HTML (the page is then likely reused whole).
func (r *run) assemble(sp *site.Page, needHTML bool) (*render.Page, *mdEntry, diag.List) {
	if sp.Source == nil {
		return page.ConfigurePage(sp, r.asm.Page(sp, nil), r.b.cfg), nil, nil
	}
	e := r.markdown(sp, needHTML)
	return page.ConfigurePage(sp, r.asm.Page(sp, &e.content), r.b.cfg), e, e.res.Diags
}

// markdown renders a page's body, or returns the cached rendering when
// neither the file nor the series links it can resolve (those of every
// series: a part shortcode may name any) changed.
func (r *run) markdown(sp *site.Page, needHTML bool) *mdEntry {
	// The page may name a part of any series, and show any file its
	// references can reach.
	fh := cache.NewHasher()
	fh.Num(int64(r.asm.LinksFP(sp.Lang)))
	fh.Num(int64(r.assets.Fingerprint(sp)))
	fp := fh.Sum()
	src := sp.Source
	if e, ok := r.b.memo.Markdown.Get(src.Path, fp); ok && e.page == src {
		return e
	}
	// gen names this rendering by what it is made of, so that the same
	// input gives the same gen in every build (fingerprints of pages and
	// of the search index build on it).
	h := cache.NewHasher()
	h.Num(int64(r.b.mdKey))
	h.Str(src.Path)
	h.Bytes(src.Src)
	h.Num(int64(fp))
	gen := h.Sum()
	if d, ok := r.cache.Markdown(src.Path, gen); ok && !needHTML {
		return &mdEntry{page: src, gen: gen, fromDisk: true,
			res:     markdown.Result{Text: d.Text, CodeText: d.CodeText, TOC: d.TOC, Diags: d.Diags},
			content: page.Content{TOC: d.TOC, Minutes: d.Minutes, Styles: d.Styles, Scripts: d.Scripts}}
	}
	env := markdown.Env{Lang: sp.Lang, T: func(k string) string { return r.bundle.T(sp.Lang, k) }, Assets: r.assets.For(sp)}
	r.asm.Links(&env, sp)
	res := r.md.Render(r.ctx, markdown.Doc{Path: src.Path, Src: src.Src, BodyStart: src.BodyStart}, env)
	e := &mdEntry{page: src, res: res, gen: gen, content: page.Content{
		HTML: template.HTML(res.HTML), // generated by our renderer, escaped there
		TOC:  res.TOC, Minutes: markdown.ReadingMinutes(sp.Lang, res.Text), Styles: res.Styles, Scripts: res.Scripts}}
	e.res.HTML = nil // kept once, as content.HTML
	if len(res.Diags.Errors()) == 0 && r.retain {
		r.b.memo.Markdown.Put(src.Path, fp, e)
	}
	return e
}
