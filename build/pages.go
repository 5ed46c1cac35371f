package build

import (
	"bytes"
	"sync"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/timing"
)

// renderAll runs markdown, assembling, the templates and the writing of
// every page, in parallel, and returns their data and markdown in the
// site's page order; their errors and warnings go to r.diags. A page in
// error is not written.
func (r *run) renderAll() ([]*render.Page, []*page.Rendering, error) {
	pages := r.st.Pages
	data := make([]*render.Page, len(pages))
	mds := make([]*page.Rendering, len(pages))
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
	r.diags = append(r.diags, diags...)
	return data, mds, nil
}

// renderGroup takes a page and its translations (indexes into pages)
// through markdown and assembling (page.Renderer.AssembleGroup), and
// finishes each (renderPage).
func (r *run) renderGroup(pages []*site.Page, group []int, buf *bytes.Buffer) ([]*render.Page, []*page.Rendering, []diag.List) {
	tm := r.b.opts.Timings
	t0 := tm.Clock()
	ps, ms, dss := r.mdr.AssembleGroup(r.ctx, pages, group)
	share := tm.Since(t0) / time.Duration(len(group))
	for j, i := range group {
		t := &timing.Page{URL: pages[i].URL, Markdown: share}
		if src := pages[i].Source; src != nil {
			t.Source = src.Path
		}
		ps[j], ms[j], dss[j] = r.renderPage(pages[i], ps[j], ms[j], dss[j], buf, t)
		tm.Page(*t)
	}
	tm.Work("markdown and assemble", share*time.Duration(len(group)))
	return ps, ms, dss
}

// renderPage takes one assembled page through its template and the sink,
// and queues it for the search indexes.
func (r *run) renderPage(sp *site.Page, p *render.Page, md *page.Rendering, ds diag.List, buf *bytes.Buffer, t *timing.Page) (*render.Page, *page.Rendering, diag.List) {
	if len(ds.Errors()) == 0 {
		p, md, ds = r.writePage(sp, p, md, ds, buf, t)
	}
	r.mdr.Save(md)
	if !r.retain {
		// Streaming keeps no page HTML; the search index needs only the
		// text.
		p.Content = ""
		md = md.WithoutHTML()
	}
	if len(ds.Errors()) == 0 && md != nil && page.Searchable(p) {
		if r.feed != nil { // without one, no document to make
			r.feed.Add(page.SearchDoc(p, md.Result.Text, md.Result.CodeText))
		}
		if r.early.Write(r.w, p, md) {
			md = md.WithoutText() // in its fragment now
		}
	}
	return p, md, ds
}

// writePage writes a page's HTML: the copy of the last build or of the
// previous output when its data did not change, else its template's. It
// adds the time of its steps to t.
func (r *run) writePage(sp *site.Page, p *render.Page, md *page.Rendering, ds diag.List, buf *bytes.Buffer, t *timing.Page) (*render.Page, *page.Rendering, diag.List) {
	tm := r.b.opts.Timings
	t0 := tm.Clock()
	var other time.Duration // markdown and template, within the time here
	defer func() { t.Write += tm.Since(t0) - other }()
	out := sp.OutPath()
	fp := r.pageFP(r.asm.Fingerprint(p, md.GenOrZero()))
	if html, ok := r.b.memo.Pages.Get(p.URL, fp); ok {
		r.w.Put(out, html)
		r.built.Add(out, html)
		return p, md, ds
	}
	if r.cache.Reuse(r.sink, out, fp) {
		r.built.Keep(out)
		return p, md, ds
	}
	if md != nil && md.FromDisk {
		t1 := tm.Clock()
		p, md, ds = r.mdr.Reassemble(r.ctx, sp, p)
		d := tm.Since(t1)
		t.Markdown += d
		other += d
		if len(ds.Errors()) > 0 {
			return p, md, ds
		}
	}
	buf.Reset()
	t1 := tm.Clock()
	err := r.theme.Render(buf, p)
	d := tm.Since(t1)
	t.Template += d
	other += d
	tm.Template(r.theme.LayoutFile(p.Kind), d)
	if err != nil {
		return p, md, append(ds, diag.FromError(err)...)
	}
	// The sink keeps the bytes it is given (a staging folder until its
	// writer writes them, a site in memory for good); buf is this
	// worker's again for the next page.
	data := bytes.Clone(buf.Bytes())
	r.w.Put(out, data)
	r.built.Add(out, data)
	r.cache.Made(out, fp, len(data))
	r.rendered.Add(1)
	if r.retain {
		r.b.memo.Pages.Put(p.URL, fp, data)
	}
	return p, md, ds
}
