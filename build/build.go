// Package build wires kakehashi's pipeline: load (package source) → parse
// and render markdown (markdown, highlight, shortcodes) → resolve the site
// (site) → render pages with the theme (render) → write (output). A Builder
// keeps what may be reused between builds (the highlight cache), so the
// authoring server rebuilds fast.
package build

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"path"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// Version is kakehashi's version, printed by the CLI and written into
// <meta name="generator">.
const Version = "0.1.0"

// Options configure a build. Paths are relative to the site root on the
// input filesystem.
type Options struct {
	ContentDir string // default "content"
	ThemeDir   string // default "themes/default"
	I18nDir    string // default "i18n"
	BaseURL    string // absolute URL the site is published under; default "/"
	Drafts     bool   // publish pages marked draft
	Workers    int    // pages rendered in parallel; default GOMAXPROCS
	// Progress, when set, is called as pages finish rendering.
	Progress func(done, total int)
}

func (o *Options) defaults() {
	if o.ContentDir == "" {
		o.ContentDir = "content"
	}
	if o.ThemeDir == "" {
		o.ThemeDir = "themes/default"
	}
	if o.I18nDir == "" {
		o.I18nDir = "i18n"
	}
	if o.BaseURL == "" {
		o.BaseURL = "/"
	}
	if o.BaseURL[len(o.BaseURL)-1] != '/' {
		o.BaseURL += "/"
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
}

// Builder builds a site from an input filesystem. It is safe to call Build
// again after the input changed; the highlight cache carries over.
type Builder struct {
	in   afero.Fs
	opts Options
	hl   *highlight.Highlighter
}

// New returns a Builder reading the site from in.
func New(in afero.Fs, opts Options) (*Builder, error) {
	opts.defaults()
	hl, err := highlight.New(highlight.DefaultLight, highlight.DefaultDark)
	if err != nil {
		return nil, err
	}
	return &Builder{in: in, opts: opts, hl: hl}, nil
}

// Summary describes a finished build.
type Summary struct {
	Pages          map[string]int // pages per language ("" = root and 404)
	Articles       map[string]int
	PartsPublished int
	PartsPlanned   int
	Files          int
	Bytes          int64
	HighlightHits  int64
	HighlightRuns  int64
	Warnings       diag.List
	Elapsed        time.Duration
}

// Result is a built site, in memory, ready to publish or serve.
type Result struct {
	Site    *output.Site
	Summary Summary
}

// Build runs the whole pipeline into memory. On failure the error is a
// diag.List holding every error of the stage that failed.
func (b *Builder) Build(ctx context.Context) (*Result, error) {
	start := time.Now()
	o := b.opts
	bundle, diags := i18n.Load(b.in, o.I18nDir)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	theme, tdiags := render.Load(b.in, o.ThemeDir, bundle)
	if err := tdiags.Err(); err != nil {
		return nil, err
	}
	warnings := append(diags.Warnings(), tdiags.Warnings()...)
	langs := bundle.Langs()
	content, ldiags := source.Load(ctx, b.in, o.ContentDir, langs)
	if err := ldiags.Err(); err != nil {
		return nil, err
	}
	warnings = append(warnings, ldiags.Warnings()...)
	st, rdiags := site.Resolve(content, site.Options{Langs: langs, Drafts: o.Drafts})
	if err := rdiags.Err(); err != nil {
		return nil, err
	}
	warnings = append(warnings, rdiags.Warnings()...)

	r := &run{b: b, ctx: ctx, st: st, bundle: bundle, theme: theme, out: output.New(),
		md: markdown.New(markdown.Options{Highlighter: b.hl}),
		siteData: &render.Site{
			Title: map[string]string{}, BaseURL: o.BaseURL, Langs: langs,
			Generator: "kakehashi " + Version,
		},
	}
	for _, l := range langs {
		r.siteData.Title[l] = l
		if home := st.ByURL("/" + l + "/"); home != nil && home.Source != nil && home.Source.Meta.Title != "" {
			r.siteData.Title[l] = home.Source.Meta.Title
		}
	}
	pages, pdiags := r.renderAll()
	warnings = append(warnings, pdiags.Warnings()...)
	if err := pdiags.Err(); err != nil {
		return nil, err
	}
	if err := r.writeExtras(pages); err != nil {
		return nil, err
	}

	sum := Summary{Pages: map[string]int{}, Articles: map[string]int{}, Warnings: warnings}
	for _, p := range st.Pages {
		sum.Pages[p.Lang]++
		if p.Kind == site.KindArticle {
			sum.Articles[p.Lang]++
		}
	}
	for _, sr := range st.Series {
		for _, p := range sr.Parts {
			if p.State == source.Published {
				sum.PartsPublished++
			} else {
				sum.PartsPlanned++
			}
		}
	}
	sum.Warnings.Sort()
	sum.HighlightHits, sum.HighlightRuns = b.hl.Stats()
	sum.Files, sum.Bytes = r.out.Size()
	sum.Elapsed = time.Since(start)
	return &Result{Site: r.out, Summary: sum}, nil
}

// run is the state of one build.
type run struct {
	b        *Builder
	ctx      context.Context
	st       *site.Site
	bundle   *i18n.Bundle
	theme    *render.Theme
	md       *markdown.Renderer
	out      *output.Site
	siteData *render.Site
}

// renderAll renders every page in parallel and returns their data in the
// site's page order.
func (r *run) renderAll() ([]*render.Page, diag.List) {
	pages := r.st.Pages
	data := make([]*render.Page, len(pages))
	var (
		mu    sync.Mutex
		diags diag.List
		wg    sync.WaitGroup
		done  int
	)
	work := make(chan int)
	for range r.b.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			for i := range work {
				p, ds := r.page(pages[i])
				if len(ds.Errors()) == 0 {
					buf.Reset()
					if err := r.theme.Render(&buf, p); err != nil {
						ds = append(ds, diag.FromError(err)...)
					} else {
						r.out.Put(pages[i].OutPath(), bytes.Clone(buf.Bytes()))
					}
				}
				mu.Lock()
				data[i] = p
				diags = append(diags, ds...)
				done++
				if r.b.opts.Progress != nil {
					r.b.opts.Progress(done, len(pages))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range pages {
		if r.ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := r.ctx.Err(); err != nil {
		diags = append(diags, diag.Diagnostic{Msg: "build interrupted: " + err.Error()})
	}
	diags.Sort()
	return data, diags
}

// page renders one page's markdown and gathers its template data.
func (r *run) page(sp *site.Page) (*render.Page, diag.List) {
	p := &render.Page{
		Site: r.siteData, Kind: sp.Kind, Lang: sp.Lang, URL: sp.URL, Part: sp.Part,
	}
	var diags diag.List
	if src := sp.Source; src != nil {
		p.Title, p.Description = src.Meta.Title, src.Meta.Description
		p.Date, p.Tags = src.Meta.Date, src.Meta.Tags
		env := markdown.Env{Lang: sp.Lang, T: func(k string) string { return r.bundle.T(sp.Lang, k) }}
		if sp.Series != nil {
			env.Parts = r.partLinks(sp)
		}
		res := r.md.Render(r.ctx, markdown.Doc{Path: src.Path, Src: src.Src, BodyStart: src.BodyStart}, env)
		diags = res.Diags
		p.Content = template.HTML(res.HTML) // generated by our renderer, escaped there
		p.TOC = toc(res.TOC)
		p.ReadingMinutes = markdown.ReadingMinutes(sp.Lang, res.Text)
	}
	if sp.Series != nil {
		p.Series = r.series(sp)
		if p.Title == "" {
			p.Title = sp.Series.Title[sp.Lang]
		}
		if p.Description == "" && sp.Kind == site.KindSeries {
			p.Description = sp.Series.Description[sp.Lang]
		}
		prev, next := r.st.Neighbours(sp)
		p.Prev, p.Next = r.partRef(prev, sp.Lang), r.partRef(next, sp.Lang)
	} else if sp.Kind == site.KindHome && len(r.st.Series) > 0 {
		// A home page lists the site's (first) series.
		p.Series = r.series(&site.Page{Lang: sp.Lang, Series: r.st.Series[0]})
	}
	if p.Title == "" {
		switch sp.Kind {
		case site.KindHome:
			p.Title = r.siteData.Title[sp.Lang]
		case site.KindNotFound:
			p.Lang = r.siteData.Langs[0]
			p.Title = r.bundle.T(p.Lang, "not_found_title")
		case site.KindRoot:
			p.Title = r.siteData.Title[r.siteData.Langs[0]]
		}
	}
	for _, l := range r.siteData.Langs {
		t := render.Translation{Lang: l, URL: "/" + l + "/"}
		if q := sp.Translations[l]; q != nil {
			t.URL, t.Exists = q.URL, true
			if q.Source != nil {
				t.Title = q.Source.Meta.Title
			}
		}
		if sp.Kind == site.KindRoot || sp.Kind == site.KindNotFound {
			t.Exists = true
		}
		p.Translations = append(p.Translations, t)
	}
	return p, diags
}

// partLinks resolves "#N" in the page's prose.
func (r *run) partLinks(sp *site.Page) func(int) (markdown.PartLink, bool) {
	return func(n int) (markdown.PartLink, bool) {
		part, ok := sp.Series.Part(n)
		if !ok {
			return markdown.PartLink{}, false
		}
		l := markdown.PartLink{Title: part.Title[sp.Lang]}
		if q := r.st.PartPage(sp.Lang, sp.Series.ID, n); q != nil {
			l.Href, l.Published = render.Rel(sp.URL, q.URL), true
		}
		return l, true
	}
}

func (r *run) series(sp *site.Page) *render.Series {
	sr := sp.Series
	out := &render.Series{ID: sr.ID, Title: sr.Title[sp.Lang], URL: "/" + sp.Lang + "/" + sr.ID + "/"}
	for _, part := range sr.Parts {
		ref := render.PartRef{Number: part.Number, Title: part.Title[sp.Lang], Current: part.Number == sp.Part && sp.Kind == site.KindArticle}
		if q := r.st.PartPage(sp.Lang, sr.ID, part.Number); q != nil {
			ref.URL, ref.Published = q.URL, true
		}
		out.Parts = append(out.Parts, ref)
	}
	return out
}

func (r *run) partRef(q *site.Page, lang string) *render.PartRef {
	if q == nil {
		return nil
	}
	title := q.Source.Meta.Title
	if part, ok := q.Series.Part(q.Part); ok && part.Title[lang] != "" {
		title = part.Title[lang]
	}
	return &render.PartRef{Number: q.Part, Title: title, URL: q.URL, Published: true}
}

func toc(hs []markdown.Heading) []render.TOCEntry {
	if len(hs) == 0 {
		return nil
	}
	out := make([]render.TOCEntry, len(hs))
	for i, h := range hs {
		out[i] = render.TOCEntry{Level: h.Level, ID: h.ID, Text: h.Text, Children: toc(h.Children)}
	}
	return out
}

// writeExtras writes the theme's static files, the highlight stylesheet,
// the sitemap, a feed per language and robots.txt.
func (r *run) writeExtras(pages []*render.Page) error {
	static, err := r.theme.Static()
	if err != nil {
		return err
	}
	for _, f := range static {
		r.out.Put(f.Path, f.Data)
	}
	r.out.Put("css/chroma.css", r.b.hl.CSS())
	var listed []*render.Page
	for _, p := range pages {
		if p.Kind != render.KindRoot && p.Kind != render.KindNotFound {
			listed = append(listed, p)
		}
	}
	sort.SliceStable(listed, func(i, j int) bool { return listed[i].URL < listed[j].URL })
	r.out.Put("sitemap.xml", render.Sitemap(r.siteData, listed))
	for _, l := range r.siteData.Langs {
		r.out.Put(path.Join(l, "index.xml"), render.Atom(r.siteData, l, listed))
	}
	r.out.Put("robots.txt", render.Robots(r.siteData))
	return nil
}

// String prints the summary the CLI shows after a build.
func (s Summary) String() string {
	var b bytes.Buffer
	langs := make([]string, 0, len(s.Pages))
	for l := range s.Pages {
		if l != "" {
			langs = append(langs, l)
		}
	}
	sort.Strings(langs)
	for _, l := range langs {
		fmt.Fprintf(&b, "  %-3s %4d pages (%d articles)\n", l, s.Pages[l], s.Articles[l])
	}
	fmt.Fprintf(&b, "  parts: %d published, %d planned\n", s.PartsPublished, s.PartsPlanned)
	fmt.Fprintf(&b, "  code blocks: %d highlighted, %d reused from cache\n", s.HighlightRuns, s.HighlightHits)
	fmt.Fprintf(&b, "  files: %d (%s)\n", s.Files, humanBytes(s.Bytes))
	fmt.Fprintf(&b, "  warnings: %d\n", len(s.Warnings))
	fmt.Fprintf(&b, "  time: %s", s.Elapsed.Round(time.Millisecond))
	return b.String()
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
