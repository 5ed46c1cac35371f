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
	"io/fs"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/afero"
	"github.com/yuin/goldmark"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/wasm"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
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
	// ExplicitIndex makes the URLs stored in the search index end in
	// index.html, for copies opened from file:// (kakehashi export).
	ExplicitIndex bool
	// WasmRoot is the site folder on the operating system's disk, inside
	// kakehashi's Go module: when set, the calculators' WebAssembly is
	// compiled there (with the go command, cached in WasmCache) and
	// published with the site. Without it, or without Go, the widgets keep
	// their build-time results.
	WasmRoot  string
	WasmCache string
	// CacheDir, when set, keeps a persistent cache there between
	// processes (BuildTo only): unchanged pages are taken from the
	// previous output instead of being made again. CacheFs is the
	// filesystem it is on (default: the operating system's).
	CacheDir string
	CacheFs  afero.Fs
	// LazySearch makes the search indexes of an in-memory build only
	// when first read, so an edit reaches the authoring server's readers
	// without waiting for the index; the summary then has no index sizes.
	LazySearch bool
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

// Builder builds a site from an input filesystem. Build may be called again
// after the input changed: it re-reads only the files that changed (by size
// and time, or named by Invalidate), re-renders the markdown of those pages
// only, and executes templates only for pages whose data changed. The
// result is always byte-identical to a fresh build of the same input.
type Builder struct {
	in   afero.Fs
	opts Options
	hl   *highlight.Highlighter

	mu        sync.Mutex
	loader    *source.Loader
	full      bool // theme or UI strings changed: reload them, re-render all
	bundle    *i18n.Bundle
	theme     *render.Theme
	themeWarn diag.List
	overrides []string // built-in shortcodes the theme overrides
	md        *markdown.Renderer
	mdCache   map[string]*mdEntry   // by source path
	pageCache map[string]*pageEntry // by page URL
	prev      *output.Site
	mdKey     uint64                 // what markdown rendering depends on beyond the page: UI strings, shortcode templates
	search    map[string]searchEntry // by language
	// lazySearch holds each language's lazy index (LazySearch), reused
	// while its fingerprint stays the same.
	lazySearch map[string]*output.Lazy
	// feeds holds the sitemap, robots.txt and the Atom feeds, valid while
	// every page's fingerprint stays the same (feedsFP).
	feeds   map[string][]byte
	feedsFP uint64
	assets  *assetMinifier
	// wasm holds the calculators' modules, compiled once per Builder.
	wasm     *wasm.Modules
	wasmWarn diag.List
}

// searchEntry is a language's search index, valid while its fingerprint
// (the indexed pages and their markdown renderings) stays the same.
type searchEntry struct {
	fp    uint64
	index []byte
}

// mdEntry is a page's rendered markdown, valid while its source (the same
// parsed page) and the series links it resolved stay the same.
type mdEntry struct {
	page    *source.Page
	partsFP uint64
	res     markdown.Result
	gen     uint64
	html    template.HTML // res.HTML as a string, converted once
	minutes int           // reading time
	scripts []string      // scripts the content needs
	// fromDisk: taken from the persistent cache, without HTML; a page
	// that must be rendered renders its markdown again.
	fromDisk bool
}

// pageEntry is a page's final HTML, valid while its template data has the
// same fingerprint.
type pageEntry struct {
	fp  uint64
	out []byte
}

// New returns a Builder reading the site from in.
func New(in afero.Fs, opts Options) (*Builder, error) {
	opts.defaults()
	hl, err := highlight.New(highlight.DefaultLight, highlight.DefaultDark)
	if err != nil {
		return nil, err
	}
	return &Builder{in: in, opts: opts, hl: hl, loader: source.NewLoader(), full: true, assets: newAssetMinifier(),
		mdCache: map[string]*mdEntry{}, pageCache: map[string]*pageEntry{}, search: map[string]searchEntry{}, lazySearch: map[string]*output.Lazy{}}, nil
}

// Invalidate tells the Builder that these input paths (slash-separated,
// relative to the site root) changed, appeared or disappeared. A path in
// the theme's layouts or shortcodes or in the UI strings makes the next
// Build re-render everything; the theme's static files are read afresh by
// every Build anyway.
func (b *Builder) Invalidate(paths ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range paths {
		p = strings.TrimPrefix(path.Clean("/"+p), "/")
		switch {
		case within(p, path.Join(b.opts.ThemeDir, "static")):
			// Static files are read afresh by every build.
		case within(p, b.opts.ThemeDir), within(p, b.opts.I18nDir):
			b.full = true
		case within(p, b.opts.ContentDir):
			b.loader.Invalidate(p)
		}
	}
}

func within(p, dir string) bool {
	dir = strings.Trim(path.Clean(dir), "/")
	return p == dir || strings.HasPrefix(p, dir+"/")
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
	SearchBytes    map[string]int // search index size per language
	Wasm           *wasm.Modules  // the calculators' modules, when compiled
	Overrides      []string       // built-in shortcodes replaced by the theme's templates
	Warnings       diag.List
	Elapsed        time.Duration
}

// Result is a built site, in memory, ready to publish or serve.
type Result struct {
	Site    *output.Site
	Summary Summary
	// Changed and Removed list the output paths whose bytes changed or
	// that disappeared since the previous successful Build of this
	// Builder; both are nil after the first.
	Changed, Removed []string
	// Rendered counts the pages whose template ran in this build (the
	// others were unchanged and reused).
	Rendered int
	// Reused counts the output files taken unchanged from the previous
	// output folder through the persistent cache.
	Reused int
	// Unchanged: every output file is the previous output's, and no file
	// appeared or went: the output folder is already this build's result
	// (BuildTo with a cache only; the caller may drop the staging).
	Unchanged bool
	// Pages is every page's template data, in URL order (for exports
	// that assemble pages differently, such as the single-file course).
	// After BuildTo their Content is empty.
	Pages []*render.Page
}

// InterruptedError is the error of a build stopped by its context (Ctrl-C,
// or the authoring server starting a newer build): not a fault of the
// input, so it names no file.
type InterruptedError struct{ Err error }

func (e *InterruptedError) Error() string { return "build interrupted: " + e.Err.Error() }

func (e *InterruptedError) Unwrap() error { return e.Err }

// Build runs the whole pipeline into memory. On failure the error is a
// diag.List holding every error of the stage that failed, and the Builder
// keeps what the last good build had.
func (b *Builder) Build(ctx context.Context) (*Result, error) {
	return b.build(ctx, nil)
}

// BuildTo runs the whole pipeline and writes each file into stage as soon
// as it is made, keeping none of the output in memory: the way to build a
// large site with little memory. Result.Site is nil; the caller commits or
// aborts stage.
func (b *Builder) BuildTo(ctx context.Context, stage *output.Staging) (*Result, error) {
	return b.build(ctx, stage)
}

func (b *Builder) build(ctx context.Context, stage *output.Staging) (*Result, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := time.Now()
	o := b.opts
	if err := b.loadTheme(ctx); err != nil {
		return nil, err
	}
	warnings := append(diag.List(nil), b.themeWarn...)
	langs := b.bundle.Langs()
	content, ldiags := b.loader.Load(ctx, b.in, o.ContentDir, langs)
	if err := ctx.Err(); err != nil {
		return nil, &InterruptedError{Err: err}
	}
	if err := ldiags.Err(); err != nil {
		return nil, err
	}
	warnings = append(warnings, ldiags.Warnings()...)
	st, rdiags := site.Resolve(content, site.Options{Langs: langs, Drafts: o.Drafts})
	if err := rdiags.Err(); err != nil {
		return nil, err
	}
	warnings = append(warnings, rdiags.Warnings()...)

	// A one-shot streaming build keeps few highlighted blocks: the
	// translations of a page render together (see renderAll).
	if stage != nil {
		b.hl.SetLimit(1024)
	} else {
		b.hl.SetLimit(0)
	}
	var cache *cacheState
	if stage != nil && o.CacheDir != "" {
		cache = newCacheState(b.loadDisk())
	}
	r := &run{b: b, ctx: ctx, st: st, bundle: b.bundle, theme: b.theme, out: output.New(), stage: stage, md: b.md, cache: cache,
		siteData: &render.Site{
			Title: map[string]string{}, BaseURL: o.BaseURL, Langs: langs,
			Generator: "kakehashi " + Version,
		},
		partsFP: map[string]uint64{},
	}
	if stage != nil && !o.LazySearch && len(b.search) == 0 && (cache == nil || cache.prev == nil) {
		r.eager = startEagerSearch()
		defer r.eager.done()
	}
	for _, l := range langs {
		r.siteData.Title[l] = l
		if home := st.ByURL("/" + l + "/"); home != nil && home.Source != nil && home.Source.Meta.Title != "" {
			r.siteData.Title[l] = home.Source.Meta.Title
		}
		for _, sr := range st.Series {
			r.partsFP[l+"/"+sr.ID] = seriesFingerprint(st, sr, l)
		}
	}
	pages, mds, pdiags := r.renderAll()
	if err := ctx.Err(); err != nil {
		return nil, &InterruptedError{Err: err}
	}
	warnings = append(warnings, pdiags.Warnings()...)
	if err := pdiags.Err(); err != nil {
		return nil, err
	}
	if usesCalc(pages) {
		b.compileWasm(ctx)
		warnings = append(warnings, b.wasmWarn...)
	}
	if err := r.writeExtras(pages); err != nil {
		return nil, err
	}
	sum := Summary{Pages: map[string]int{}, Articles: map[string]int{}, Warnings: warnings, Overrides: b.overrides}
	if b.wasm != nil && b.wasm.Calc != nil {
		sum.Wasm = b.wasm
	}
	sum.SearchBytes = r.writeSearch(pages, mds)
	b.forgetRemoved(st)
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
	if err := r.putErr(); err != nil {
		return nil, err
	}
	sum.Elapsed = time.Since(start)
	res := &Result{Summary: sum, Rendered: int(r.rendered.Load()), Pages: pages}
	if stage != nil {
		sum.Files, sum.Bytes = stage.Size()
		res.Summary = sum
		b.prev = nil
		if cache != nil {
			res.Reused = cache.reused
			res.Unchanged = stage.Written() == 0 && cache.sameFiles()
			stage.AfterCommit(func() { b.saveDisk(cache.next, stage.Fs(), stage.Dest()) })
		}
		return res, nil
	}
	res.Summary.Files, res.Summary.Bytes = r.out.Size()
	if err := r.out.Err(); err != nil {
		return nil, err
	}
	res.Site = r.out
	if b.prev != nil {
		res.Changed, res.Removed = diffSites(b.prev, r.out)
	}
	b.prev = r.out
	return res, nil
}

// hashFiles fingerprints every file under the given folders (missing
// folders count as empty).
func hashFiles(fsys afero.Fs, dirs ...string) uint64 {
	h := newHasher()
	for _, dir := range dirs {
		afero.Walk(fsys, dir, func(p string, info fs.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			b, err := afero.ReadFile(fsys, p)
			if err == nil {
				h.str(p)
				h.bytes(b)
			}
			return nil
		})
	}
	return h.sum()
}

// loadTheme (re)loads the UI strings, the theme and its shortcodes when
// they changed or were never loaded, and makes the markdown renderer with
// them. The caller holds b.mu.
func (b *Builder) loadTheme(ctx context.Context) error {
	if !b.full && b.theme != nil {
		return nil
	}
	o := b.opts
	bundle, diags := i18n.Load(ctx, b.in, o.I18nDir)
	if err := ctx.Err(); err != nil {
		return &InterruptedError{Err: err}
	}
	if err := diags.Err(); err != nil {
		return err
	}
	theme, tdiags := render.Load(ctx, b.in, o.ThemeDir, bundle)
	if err := tdiags.Err(); err != nil {
		return err
	}
	reg := shortcodes.NewRegistry()
	overrides, sdiags := reg.LoadTemplates(ctx, b.in, path.Join(o.ThemeDir, "shortcodes"))
	if err := ctx.Err(); err != nil {
		return &InterruptedError{Err: err}
	}
	if err := sdiags.Err(); err != nil {
		return err
	}
	b.bundle, b.theme, b.overrides = bundle, theme, overrides
	b.mdKey = hashFiles(b.in, o.I18nDir, path.Join(o.ThemeDir, "shortcodes"))
	b.themeWarn = append(append(diags.Warnings(), tdiags.Warnings()...), sdiags.Warnings()...)
	b.md = markdown.New(markdown.Options{Highlighter: b.hl, Extenders: []goldmark.Extender{shortcodes.Extension(reg)}})
	clear(b.mdCache)
	clear(b.pageCache)
	clear(b.search)
	clear(b.lazySearch)
	b.feeds = nil
	b.full = false
	return nil
}

// usesCalc reports whether a page holds a calculator widget.
func usesCalc(pages []*render.Page) bool {
	for _, p := range pages {
		if slices.Contains(p.Scripts, shortcodes.CalcScriptPath) {
			return true
		}
	}
	return false
}

// compileWasm compiles the calculators once per Builder, when the options
// say where; a failure is a warning (the widgets keep their build-time
// results).
func (b *Builder) compileWasm(ctx context.Context) {
	if b.wasm != nil || b.opts.WasmRoot == "" {
		return
	}
	m, err := wasm.Build(ctx, b.opts.WasmRoot, b.opts.WasmCache)
	if err != nil {
		b.wasm = &wasm.Modules{}
		b.wasmWarn = diag.List{diag.File("cmd/calc-wasm", "the calculators keep their build-time results: %v", err).AsWarning()}
		return
	}
	b.wasm = &m
}

// forgetRemoved drops cache entries of pages that no longer exist.
func (b *Builder) forgetRemoved(st *site.Site) {
	paths := map[string]bool{}
	for _, p := range st.Pages {
		if p.Source != nil {
			paths[p.Source.Path] = true
		}
	}
	for k := range b.mdCache {
		if !paths[k] {
			delete(b.mdCache, k)
		}
	}
	for k := range b.pageCache {
		if st.ByURL(k) == nil {
			delete(b.pageCache, k)
		}
	}
}

// diffSites lists the paths of next that differ from prev, and the paths
// of prev missing from next.
func diffSites(prev, next *output.Site) (changed, removed []string) {
	for _, p := range next.Paths() {
		if nl, ok := next.Lazy(p); ok {
			// A lazy file is compared by its key, without making it.
			if pl, ok := prev.Lazy(p); !ok || pl.Key() != nl.Key() {
				changed = append(changed, p)
			}
			continue
		}
		if _, wasLazy := prev.Lazy(p); wasLazy {
			changed = append(changed, p)
			continue
		}
		a, ok := prev.Get(p)
		b, _ := next.Get(p)
		if !ok || !bytes.Equal(a, b) {
			changed = append(changed, p)
		}
	}
	now := map[string]bool{}
	for _, p := range next.Paths() {
		now[p] = true
	}
	for _, p := range prev.Paths() {
		if !now[p] {
			removed = append(removed, p)
		}
	}
	return changed, removed
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
	stage    *output.Staging // when set, files go here and out stays empty
	cache    *cacheState     // the persistent cache, when streaming with one
	putMu    sync.Mutex
	putError error
	siteData *render.Site
	partsFP  map[string]uint64 // lang/series → fingerprint of its part links
	rendered atomic.Int64
	cacheMu  sync.Mutex
	eager    *eagerSearch // tokenizes pages for search as they are rendered; may be nil
}

// put stores one output file: in the staging folder when streaming, in
// memory otherwise.
func (r *run) put(p string, data []byte) {
	if r.stage == nil {
		r.out.Put(p, data)
		return
	}
	if err := r.stage.Put(p, data); err != nil {
		r.putMu.Lock()
		if r.putError == nil {
			r.putError = fmt.Errorf("writing %s: %w", p, err)
		}
		r.putMu.Unlock()
	}
}

// putFile stores a file whose fingerprint is its own bytes, reusing the
// previous output's copy when they are the same.
func (r *run) putFile(p string, data []byte) {
	if r.cache == nil {
		r.put(p, data)
		return
	}
	h := newHasher()
	h.bytes(data)
	if !r.cache.reuse(r.stage, p, h.sum()) {
		r.put(p, data)
		r.cache.made(p, h.sum(), len(data))
	}
}

func (r *run) putErr() error {
	r.putMu.Lock()
	defer r.putMu.Unlock()
	return r.putError
}

// renderAll renders every page in parallel and returns their data and
// markdown in the site's page order.
func (r *run) renderAll() ([]*render.Page, []*mdEntry, diag.List) {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			for i := range work {
				p, md, ds := r.page(pages[i], false)
				if len(ds.Errors()) == 0 {
					out := pages[i].OutPath()
					fp := fingerprint(p, md.genOrZero(), r.seriesFP(p))
					r.cacheMu.Lock()
					e := r.b.pageCache[p.URL]
					r.cacheMu.Unlock()
					switch {
					case e != nil && e.fp == fp:
						r.put(out, e.out)
					case r.cache.reuse(r.stage, out, fp):
					default:
						if md != nil && md.fromDisk {
							p, md, ds = r.page(pages[i], true)
						}
						if len(ds.Errors()) > 0 {
							break
						}
						buf.Reset()
						if err := r.theme.Render(&buf, p); err != nil {
							ds = append(ds, diag.FromError(err)...)
							break
						}
						data := buf.Bytes()
						if r.stage == nil {
							data = bytes.Clone(data) // kept: in the site and the page cache
						}
						r.put(out, data) // a staging folder writes it before returning
						r.cache.made(out, fp, len(data))
						r.rendered.Add(1)
						if r.stage == nil {
							r.cacheMu.Lock()
							r.b.pageCache[p.URL] = &pageEntry{fp: fp, out: data}
							r.cacheMu.Unlock()
						}
					}
				}
				if md != nil && pages[i].Source != nil {
					r.cache.keepMarkdown(pages[i].Source.Path, md)
				}
				if r.stage != nil {
					// Streaming keeps no page HTML; the search index
					// needs only the text.
					p.Content = ""
					if md != nil {
						c := *md
						c.html = ""
						md = &c
					}
				}
				if len(ds.Errors()) == 0 {
					r.eager.add(p, md)
				}
				mu.Lock()
				data[i] = p
				mds[i] = md
				diags = append(diags, ds...)
				done++
				if r.b.opts.Progress != nil {
					r.b.opts.Progress(done, len(pages))
				}
				mu.Unlock()
			}
		}()
	}
	// A page and its translations one after the other: they share their
	// code blocks, which the highlighter then needs to keep only briefly.
	order := make([]int, len(pages))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := pages[order[a]], pages[order[b]]
		if x.Key != y.Key {
			return x.Key < y.Key
		}
		return x.Lang < y.Lang
	})
	for _, i := range order {
		if r.ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	diags.Sort()
	return data, mds, diags
}

// page renders one page's markdown (or takes it from a cache) and gathers
// its template data; the markdown entry is nil for pages without a source
// file. Unless needHTML, the rendering may come from the persistent cache
// without its HTML (the page is then likely reused whole).
func (r *run) page(sp *site.Page, needHTML bool) (*render.Page, *mdEntry, diag.List) {
	p := &render.Page{
		Site: r.siteData, Kind: sp.Kind, Lang: sp.Lang, URL: sp.URL, Part: sp.Part,
	}
	var diags diag.List
	var e *mdEntry
	if src := sp.Source; src != nil {
		p.Title, p.Description = src.Meta.Title, src.Meta.Description
		p.Date, p.Tags = src.Meta.Date, src.Meta.Tags
		e = r.markdown(sp, needHTML)
		diags = e.res.Diags
		p.Content = e.html
		p.TOC = toc(e.res.TOC)
		p.ReadingMinutes = e.minutes
		p.Scripts = e.scripts
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
	return p, e, diags
}

// markdown renders a page's body, or returns the cached rendering when
// neither the file nor the series links it can resolve changed.
func (r *run) markdown(sp *site.Page, needHTML bool) *mdEntry {
	var fp uint64
	if sp.Series != nil {
		fp = r.partsFP[sp.Lang+"/"+sp.Series.ID]
	}
	r.cacheMu.Lock()
	e := r.b.mdCache[sp.Source.Path]
	r.cacheMu.Unlock()
	if e != nil && e.page == sp.Source && e.partsFP == fp {
		return e
	}
	src := sp.Source
	// gen names this rendering by what it is made of, so that the same
	// input gives the same gen in every build (fingerprints of pages and
	// of the search index build on it).
	h := newHasher()
	h.num(int64(r.b.mdKey))
	h.str(src.Path)
	h.bytes(src.Src)
	h.num(int64(fp))
	gen := h.sum()
	if d, ok := r.cache.diskMarkdown(src.Path, gen); ok && !needHTML {
		return &mdEntry{page: src, partsFP: fp, gen: gen, fromDisk: true,
			res:     markdown.Result{Text: d.Text, CodeText: d.CodeText, TOC: d.TOC, Diags: d.Diags},
			minutes: d.Minutes, scripts: d.Scripts}
	}
	env := markdown.Env{Lang: sp.Lang, T: func(k string) string { return r.bundle.T(sp.Lang, k) }}
	if sp.Series != nil {
		env.Parts = r.partLinks(sp)
	}
	res := r.md.Render(r.ctx, markdown.Doc{Path: src.Path, Src: src.Src, BodyStart: src.BodyStart}, env)
	r.cacheMu.Lock()
	defer r.cacheMu.Unlock()
	e = &mdEntry{page: src, partsFP: fp, res: res, gen: gen,
		html:    template.HTML(res.HTML), // generated by our renderer, escaped there
		minutes: markdown.ReadingMinutes(sp.Lang, res.Text), scripts: pageScripts(res.HTML)}
	e.res.HTML = nil // kept once, as html
	if len(res.Diags.Errors()) == 0 && r.stage == nil {
		r.b.mdCache[src.Path] = e
	}
	return e
}

// seriesFP is the fingerprint of the series a page shows, if any.
func (r *run) seriesFP(p *render.Page) uint64 {
	if p.Series == nil {
		return 0
	}
	return r.partsFP[p.Lang+"/"+p.Series.ID]
}

// genOrZero is the rendering's gen; 0 for a page without markdown.
func (e *mdEntry) genOrZero() uint64 {
	if e == nil {
		return 0
	}
	return e.gen
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

// seriesWindow is how many parts an article's series list shows on each
// side of the current one when the series is long; the series index and
// the home page always list every part.
const seriesWindow = 7

func (r *run) series(sp *site.Page) *render.Series {
	sr := sp.Series
	out := &render.Series{ID: sr.ID, Title: sr.Title[sp.Lang], URL: "/" + sp.Lang + "/" + sr.ID + "/"}
	article := sp.Kind == site.KindArticle
	cur := -1
	for i, part := range sr.Parts {
		if part.Number == sp.Part {
			cur = i
		}
	}
	long := article && cur >= 0 && len(sr.Parts) > 4*seriesWindow
	gap := false
	for i, part := range sr.Parts {
		if long && i > 1 && i < len(sr.Parts)-2 && (i < cur-seriesWindow || i > cur+seriesWindow) {
			gap = true
			continue
		}
		ref := render.PartRef{Number: part.Number, Title: part.Title[sp.Lang], Current: article && i == cur, Gap: gap}
		gap = false
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

// pageScripts lists the scripts a page's content needs beyond the theme's
// own: the tabs behaviour only where there are tabs, the calculators only
// where there is a widget.
func pageScripts(html []byte) []string {
	var out []string
	if bytes.Contains(html, []byte(`class="tabs" data-tabs`)) {
		out = append(out, "/js/tabs.js")
	}
	if bytes.Contains(html, []byte(`data-calc=`)) {
		out = append(out, shortcodes.CalcScriptPath)
	}
	return out
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
		r.putFile(f.Path, r.b.assets.minify(f.Path, f.Data))
	}
	r.putFile("css/chroma.css", r.b.assets.minify("chroma.css", r.b.hl.CSS()))
	if m := r.b.wasm; m != nil && m.Calc != nil {
		r.putFile(shortcodes.CalcWasmPath, m.Calc)
		r.putFile(shortcodes.CalcX509WasmPath, m.CalcX509)
		r.putFile(shortcodes.WasmExecPath, r.b.assets.minify(shortcodes.WasmExecPath, m.ExecJS))
		if r.b.opts.ExplicitIndex {
			// file:// refuses fetch; a script carrying the bytes works.
			r.putFile(shortcodes.CalcWasmPath+".js", wasm.ScriptModule(wasm.CalcName, m.Calc))
			r.putFile(shortcodes.CalcX509WasmPath+".js", wasm.ScriptModule(wasm.CalcX509Name, m.CalcX509))
		}
	}
	// The sitemap and the feeds show only what feedFingerprint covers.
	fp := feedFingerprint(r.siteData, pages)
	if r.b.feeds == nil || r.b.feedsFP != fp {
		var listed []*render.Page
		for _, p := range pages {
			if p.Kind != render.KindRoot && p.Kind != render.KindNotFound {
				listed = append(listed, p)
			}
		}
		sort.SliceStable(listed, func(i, j int) bool { return listed[i].URL < listed[j].URL })
		feeds := map[string][]byte{"sitemap.xml": render.Sitemap(r.siteData, listed), "robots.txt": render.Robots(r.siteData)}
		for _, l := range r.siteData.Langs {
			feeds[path.Join(l, "index.xml")] = render.Atom(r.siteData, l, listed)
		}
		r.b.feeds, r.b.feedsFP = feeds, fp
	}
	for p, data := range r.b.feeds {
		if !r.cache.reuse(r.stage, p, fp) {
			r.put(p, data)
			r.cache.made(p, fp, len(data))
		}
	}
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
	for _, l := range langs {
		if n, ok := s.SearchBytes[l]; ok {
			fmt.Fprintf(&b, "  search index %s: %s\n", l, HumanBytes(int64(n)))
		}
	}
	if m := s.Wasm; m != nil {
		fmt.Fprintf(&b, "  calculators: calc.wasm %s; calc-x509.wasm %s (loaded only for a pasted certificate)\n", m.CalcSize, m.CalcX509Size)
	}
	for _, name := range s.Overrides {
		fmt.Fprintf(&b, "  shortcode %q: the theme's template overrides the built-in\n", name)
	}
	fmt.Fprintf(&b, "  files: %d (%s)\n", s.Files, HumanBytes(s.Bytes))
	fmt.Fprintf(&b, "  warnings: %d\n", len(s.Warnings))
	fmt.Fprintf(&b, "  time: %s", s.Elapsed.Round(time.Millisecond))
	return b.String()
}

// HumanBytes prints a size as B, KB or MB, for summaries.
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// T returns a UI string of the last successful build's theme, for callers
// that assemble pages themselves (the single-file export).
func (b *Builder) T(lang, key string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bundle == nil {
		return key
	}
	return b.bundle.T(lang, key)
}
