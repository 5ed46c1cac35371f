package build

import (
	"bytes"
	"html/template"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// memo is what a Builder keeps in memory between builds, each entry valid
// while what it was made of has the same fingerprint.
type memo struct {
	markdown   cache.Tier[*mdEntry]          // renderings by source path; by the series links' fingerprint
	pages      cache.Tier[[]byte]            // finished HTML by page URL; by page.Fingerprint
	search     cache.Tier[[]byte]            // by language; by searchFingerprint
	lazySearch cache.Tier[*output.Lazy]      // the same, made when first read (LazySearch)
	feeds      cache.Tier[map[string][]byte] // the sitemap, robots.txt and feeds; by page.FeedFingerprint
}

// clear forgets everything: the theme or the UI strings changed.
func (m *memo) clear() {
	m.markdown.Clear()
	m.pages.Clear()
	m.search.Clear()
	m.lazySearch.Clear()
	m.feeds.Clear()
}

// forget drops the entries of pages that no longer exist.
func (m *memo) forget(st *site.Site) {
	paths := map[string]bool{}
	for _, p := range st.Pages {
		if p.Source != nil {
			paths[p.Source.Path] = true
		}
	}
	m.markdown.Keep(func(p string) bool { return paths[p] })
	m.pages.Keep(func(u string) bool { return st.ByURL(u) != nil })
}

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
	work := make(chan int)
	for range r.b.opts.Workers {
		wg.Go(func() {
			var buf bytes.Buffer
			for i := range work {
				p, md, ds := r.renderPage(pages[i], &buf)
				mu.Lock()
				data[i], mds[i] = p, md
				diags = append(diags, ds...)
				done++
				if r.b.opts.Progress != nil {
					r.b.opts.Progress(done, len(pages))
				}
				mu.Unlock()
			}
		})
	}
	// A page and its translations one after the other: they share their
	// code blocks, which the highlighter then needs to keep only briefly.
	for _, i := range r.st.TranslationOrder() {
		if r.ctx.Err() != nil {
			break
		}
		work <- i
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

// renderPage takes one page through markdown, assembling, its template
// and the sink, and queues it for the search indexes.
func (r *run) renderPage(sp *site.Page, buf *bytes.Buffer) (*render.Page, *mdEntry, diag.List) {
	p, md, ds := r.assemble(sp, false)
	if len(ds.Errors()) == 0 {
		p, md, ds = r.writePage(sp, p, md, ds, buf)
	}
	if r.cache != nil && md != nil && sp.Source != nil {
		r.cache.KeepMarkdown(sp.Source.Path, cache.Markdown{Gen: md.gen, Text: md.res.Text, CodeText: md.res.CodeText,
			TOC: md.res.TOC, Diags: md.res.Diags, Minutes: md.content.Minutes, Scripts: md.content.Scripts})
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
	fp := r.asm.Fingerprint(p, md.genOrZero())
	if html, ok := r.b.pages.Get(p.URL, fp); ok {
		r.w.Put(out, html)
		return p, md, ds
	}
	if r.cache.Reuse(r.sink, out, fp) {
		return p, md, ds
	}
	if md != nil && md.fromDisk {
		if p, md, ds = r.assemble(sp, true); len(ds.Errors()) > 0 {
			return p, md, ds
		}
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
		r.b.pages.Put(p.URL, fp, data)
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
	if e, ok := r.b.memo.markdown.Get(src.Path, fp); ok && e.page == src {
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
			content: page.Content{TOC: d.TOC, Minutes: d.Minutes, Scripts: d.Scripts}}
	}
	env := markdown.Env{Lang: sp.Lang, T: func(k string) string { return r.bundle.T(sp.Lang, k) }, Assets: r.assets.For(sp)}
	if sp.Series != nil {
		env.Parts = r.asm.PartLinks(sp)
	}
	if len(r.st.Series) > 0 {
		env.SeriesParts, env.SeriesIDs = r.asm.SeriesParts(sp), r.asm.SeriesIDs()
	}
	res := r.md.Render(r.ctx, markdown.Doc{Path: src.Path, Src: src.Src, BodyStart: src.BodyStart}, env)
	e := &mdEntry{page: src, res: res, gen: gen, content: page.Content{
		HTML: template.HTML(res.HTML), // generated by our renderer, escaped there
		TOC:  res.TOC, Minutes: markdown.ReadingMinutes(sp.Lang, res.Text), Scripts: page.Scripts(res.HTML)}}
	e.res.HTML = nil // kept once, as content.HTML
	if len(res.Diags.Errors()) == 0 && r.retain {
		r.b.memo.markdown.Put(src.Path, fp, e)
	}
	return e
}
