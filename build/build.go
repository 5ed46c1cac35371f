// Package build wires kakehashi's pipeline, and does nothing else. A build
// runs, in this order:
//
//  1. load: the configuration and the site's languages (config), the UI
//     strings (i18n), the theme's layouts (render) and shortcode
//     templates (shortcodes), then the content (source);
//  2. resolve: the pages the site publishes, their URLs, translations and
//     parts (site);
//  3. markdown: each page's body to HTML (markdown, highlight,
//     shortcodes), with its links and "#N" links resolved, a rendering
//     of the same input reused (page.Renderer);
//  4. assemble: each page's template data (page);
//  5. template: each page through the theme (render);
//  6. write: the pages, the theme's assets (render.PrepareAssets), the
//     calculators (wasm), the static and page folders' files as they are
//     (output.CopyFile), the sitemap and feeds (render) and the search
//     indexes (search), into an output.Sink: a site in memory (Build) or
//     a staging folder on disk (BuildTo), through cache.Writer, which
//     takes from the previous output what is unchanged.
//
// A Builder keeps what may be reused between builds (markdown renderings,
// finished pages, search indexes, feeds, highlighted code), so that the
// authoring server rebuilds fast; with Options.CacheDir, a persistent cache
// (package cache) does the same between processes.
package build

import (
	"bytes"
	"context"
	"errors"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/check"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/glossary"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/build/look"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/timing"
	"github.com/kakehashi-dev/kakehashi/build/translation"
	"github.com/kakehashi-dev/kakehashi/build/wasm"
)

// Version is kakehashi's version, printed by the CLI and written into
// <meta name="generator">.
const Version = "0.1.0"

// Options configure a build. The Layout's paths are relative to the site
// root on the input filesystem.
type Options struct {
	// Layout names the site's folders; empty fields are the defaults
	// (DefaultLayout).
	Layout Layout
	// BaseURL is the absolute URL the site is published under; it
	// overrides the configuration's baseURL. Without either, "/", and a
	// build to disk (BuildTo) warns that the site needs one.
	BaseURL string
	Drafts  bool // publish pages marked draft
	Workers int  // pages rendered in parallel; default GOMAXPROCS
	// Progress, when set, is called as pages finish rendering.
	Progress func(done, total int)
	// ExplicitIndex makes the URLs stored in the search index end in
	// index.html, for copies opened from file:// (kakehashi export).
	ExplicitIndex bool
	// WasmRoot is the site folder on the operating system's disk: when
	// set, the calculators' WebAssembly is published with the site, as
	// wasm.Builder.Provide finds it (compiled from the kakehashi sources,
	// cached in WasmCache, or embedded in the binary); without any, a
	// warning says how to get a binary that carries them. Without
	// WasmRoot the widgets keep their build-time results.
	WasmRoot  string
	WasmCache string
	// CacheDir, when set, keeps a persistent cache there between
	// processes (BuildTo only): unchanged pages are taken from the
	// previous output instead of being made again. CacheFs is the
	// filesystem it is on (default: the operating system's).
	CacheDir string
	CacheFs  afero.Fs
	// SkipUnchanged, with CacheDir, makes BuildTo do nothing when no
	// file of the site's inputs and none of the destination changed
	// since the last build with the same options and program
	// (cache.Manifest): it reports that build's summary, Unchanged.
	SkipUnchanged bool
	// LazySearch makes the search indexes of an in-memory build only
	// when first read, so an edit reaches the authoring server's readers
	// without waiting for the index; the summary then has no index sizes.
	LazySearch bool
	// Timings, when set, records the time of each stage, page and
	// template (kakehashi build --timings).
	Timings *timing.Recorder
	// PairView is the path of the authoring server's side-by-side view
	// of translations ("/_pair"), which the pages' translation notices
	// then link to (render.Site.PairView); "" for a site to publish.
	PairView string
}

func (o *Options) defaults() {
	o.Layout = o.Layout.WithDefaults()
	if o.BaseURL != "" && o.BaseURL[len(o.BaseURL)-1] != '/' {
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
	in     afero.Fs
	opts   Options
	hl     *highlight.Highlighter
	minify *render.Minifier

	mu        sync.Mutex
	cfg       *config.Config // the configuration of the current build
	cfgDiags  diag.List      // its errors and warnings
	theme0    string         // the theme folder of Options.Layout, for a configuration naming none
	langs     []string       // the site's languages, in order, as config.Config.Langs works them out
	loader    *source.Loader
	full      bool       // theme or UI strings changed: reload them, re-render all
	look      *look.Look // the UI strings, theme and shortcode templates last loaded
	prev      *output.Site
	memo      cache.Memo[*page.Rendering] // what the last builds made, reused while it stays valid
	assembled cache.Tier[page.Assembled]  // the pages' template data, by URL (page.Renderer.AssembleGroup)
	wasm      *wasm.Once                  // the calculators' modules, compiled once per Builder
	between   between                     // what the whole-site stages keep for the next build (gate.go)
	// disk is the persistent cache (Options.CacheDir), nil without one;
	// it keeps the content as it was parsed between processes
	// (source.Loader.Persist).
	disk *cache.Dir
	// walked is the input filesystem as the current build walks it: the
	// stamps of its inputs, then the content's load, list each folder
	// once (source.Remembering).
	walked afero.Fs
	// builds counts the builds begun; key is the persistent cache's key
	// as the build it counts made it (cacheKey).
	builds int
	key    struct {
		build int
		sum   uint64
	}
	// static is what the theme's and the site's static folders held at
	// the last build, taken again while the paths given to Invalidate are
	// every change (Complete) and all were content.
	static struct {
		theme                  *render.Theme // read for this theme
		files                  []render.StaticFile
		fresh, complete, named bool // no static path changed since; Complete was called since the last build began; so it was for this one
	}
}

// New returns a Builder reading the site from in.
func New(in afero.Fs, opts Options) (*Builder, error) {
	opts.defaults()
	b := &Builder{in: in, opts: opts, theme0: opts.Layout.Theme, hl: highlight.Default(), loader: source.NewLoader(), full: true,
		minify: render.NewMinifier(), wasm: &wasm.Once{Root: opts.WasmRoot, Cache: opts.WasmCache}}
	if opts.CacheDir != "" {
		b.disk = &cache.Dir{FS: opts.CacheFs, Path: opts.CacheDir, Version: Version}
		if b.disk.FS == nil {
			b.disk.FS = afero.NewOsFs()
		}
	}
	return b, nil
}

// Invalidate tells the Builder that these input paths (slash-separated,
// relative to the site root) changed, appeared or disappeared. A path in
// the theme (but its static files), the site's layouts or the UI
// strings, or the configuration file, makes the next Build re-render
// everything; a content file is read again; the static files, the
// theme's and the site's, are read afresh by the next Build (every Build
// reads them, unless Complete says no other path changed).
func (b *Builder) Invalidate(paths ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range paths {
		p = strings.TrimPrefix(path.Clean("/"+p), "/")
		switch b.opts.Layout.PartOf(p) {
		case config.Look:
			b.full = true
			b.static.fresh = false
		case config.Content:
			b.loader.Invalidate(p)
		default: // a static file, or one the build does not read
			b.static.fresh = false
		}
	}
}

// Complete tells the Builder that the paths given to Invalidate since the
// last Build are every input that changed, appeared or disappeared (an
// authoring server's watcher names them all): the next Build then reads
// only those of the content again, without walking the content folder
// (source.Loader.Complete), and, when none was a static file, takes the
// static files as the last Build read them.
func (b *Builder) Complete() {
	b.mu.Lock()
	b.loader.Complete()
	b.static.complete = true
	b.mu.Unlock()
}

// staticFiles returns th's static files (render.Theme.Static), as the last
// build read them when nothing says they changed. The caller holds b.mu.
func (b *Builder) staticFiles(th *render.Theme) ([]render.StaticFile, error) {
	if b.static.fresh && b.static.named && b.static.theme == th {
		return b.static.files, nil
	}
	files, err := th.Static()
	b.static.theme, b.static.files, b.static.fresh = th, files, err == nil
	return files, err
}

// Time makes the next builds record where their time goes into r (nil:
// nowhere), as Options.Timings does.
func (b *Builder) Time(r *timing.Recorder) {
	b.mu.Lock()
	b.opts.Timings = r
	b.mu.Unlock()
}

// Summary describes a finished build; the CLI prints it.
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

// Result is a finished build: the site in memory, ready to publish or
// serve (Build; none after BuildTo), and what the build made.
type Result struct {
	Site    *output.Site
	Summary Summary
	// Langs lists the site's languages, in order.
	Langs []string
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
	// Assets maps each fingerprinted file's plain path ("/css/main.css")
	// to the hashed name it is published at ("/css/main.3f2a1c9e.css").
	Assets render.Assets
}

// InterruptedError is the error of a build stopped by its context (Ctrl-C,
// or the authoring server starting a newer build): not a fault of the
// input, so it names no file.
type InterruptedError struct{ Err error }

// Error says the build was interrupted, and why.
func (e *InterruptedError) Error() string { return "build interrupted: " + e.Err.Error() }

// Unwrap is the context's error.
func (e *InterruptedError) Unwrap() error { return e.Err }

// Build runs the whole pipeline into memory. Each stage goes on with what
// is valid after an error (a page in error is left out of the later
// stages, a missing UI string shows its key), so that one build finds
// every problem, the whole-site checks (build/check) included. On failure
// the error is a *check.Failure holding them, and the Builder keeps what
// the last good build had.
func (b *Builder) Build(ctx context.Context) (*Result, error) {
	out := output.New()
	return b.build(ctx, target{sink: out, mem: out})
}

// BuildTo runs the whole pipeline and writes each file into stage as soon
// as it is made, keeping none of the output in memory: the way to build a
// large site with little memory. Result.Site is nil; the caller commits or
// aborts stage.
func (b *Builder) BuildTo(ctx context.Context, stage *output.Staging) (*Result, error) {
	return b.build(ctx, target{sink: stage, stage: stage})
}

// build is the pipeline: load → resolve → markdown → assemble → template →
// write. Markdown, assembling, templates and writing the pages run per
// page, in parallel (renderAll); the whole-site checks, once every page
// is made; the site's other files only when nothing failed.
func (b *Builder) build(ctx context.Context, to target) (*Result, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.disk != nil {
		b.disk.Wait() // the loader is this build's again
	}
	start := time.Now()
	if to.stage != nil {
		// What the destination holds is listed while the build loads
		// (output.Staging.Listing): files reused are compared with it.
		// The last build's listing, kept with the persistent cache,
		// spares it the folders that did not change.
		if b.disk != nil {
			to.stage.Hint(b.disk.Hint(to.stage.Dest()))
		}
		go to.stage.Listing()
	}
	source.Refresh(b.in)
	b.walked = source.Remembering(b.in)
	b.builds++
	b.static.named, b.static.complete = b.static.complete, false
	tm := b.opts.Timings
	end := tm.Stage("configuration")
	if err := b.loadConfig(ctx); err != nil {
		return nil, err
	}
	end()
	if b.cfg.Calculators {
		// The calculators' modules (read from the binary, or compiled)
		// are needed only once the pages are; meanwhile the content
		// loads.
		go b.wasm.Modules(ctx)
	}
	end = tm.Stage("theme, UI strings, shortcodes")
	if err := b.loadTheme(ctx); err != nil {
		return nil, err
	}
	end()
	var stamps cache.Stamps
	if to.stage != nil && b.disk != nil && b.opts.SkipUnchanged {
		end = tm.Stage("inputs and output stamped")
		var res *Result
		if stamps, res = b.unchanged(ctx, to.stage, start); res != nil {
			end()
			return res, nil
		}
		end()
	}
	if to.stage != nil && b.disk != nil {
		if s, opened := b.disk.Content(); opened {
			b.loader.Persist(s)
		}
	}
	st, gl, ds, err := b.resolve(ctx)
	if err != nil {
		return nil, err
	}
	if to.stage != nil && b.baseURL() == "/" {
		ds = append(ds, diag.File(b.opts.Layout.Config,
			"no baseURL: canonical links, hreflang, the sitemap and robots.txt need an absolute URL; set baseURL in %s (or pass --base-url)", b.opts.Layout.Config).AsWarning())
	}
	end = tm.Stage("static files, calculators, assets")
	r := b.newRun(ctx, st, to, ds)
	r.gl, r.stamps = gl, stamps
	defer r.feed.Done()
	if err := r.loadStatic(); err != nil {
		return nil, err
	}
	r.compileWasm()
	r.prepareAssets()
	end()
	end = tm.Stage("pages: markdown, assemble, template, write")
	pages, mds, err := r.renderAll()
	if err != nil {
		return nil, err
	}
	end()
	end = tm.Stage("site checks")
	r.calcWarnings(pages)
	r.diags = append(r.diags, r.siteChecks(mds)...)
	if err := failed(ctx, r.diags); err != nil {
		return nil, err
	}
	end()
	end = tm.Stage("theme and page files")
	if err := r.writeAssets(pages); err != nil {
		return nil, err
	}
	end()
	end = tm.Stage("aliases, sitemap, feeds")
	r.writeAliases(pages)
	r.writeFeeds(pages)
	end()
	var searchBytes map[string]int
	if b.cfg.Search {
		end = tm.Stage("search indexes")
		searchBytes = r.writeSearch(pages, mds)
		end()
	}
	srcs := st.SourcePaths()
	b.memo.Forget(func(p string) bool { return srcs[p] }, func(u string) bool { return st.ByURL(u) != nil })
	b.assembled.Keep(func(u string) bool { return st.ByURL(u) != nil })
	return r.finish(start, pages, searchBytes)
}

// resolve loads the content and the glossary and resolves the site's
// pages, returning the errors and warnings of the configuration, the
// theme and both stages. A page whose file has errors is not loaded; the
// others go on.
func (b *Builder) resolve(ctx context.Context) (*site.Site, *glossary.Glossary, diag.List, error) {
	langs := b.langs
	end := b.opts.Timings.Stage("content")
	content, ldiags := b.loader.Load(ctx, b.walked, b.opts.Layout.Content, langs)
	gl, gdiags := glossary.Load(ctx, b.in, glossary.Path(b.opts.Layout.Content), langs)
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, &InterruptedError{Err: err}
	}
	end()
	defer b.opts.Timings.Stage("resolve: pages, URLs, translations")()
	// translationOf must name another language of the site, the same for
	// every page of a name.
	tdiags := translation.Check(content, langs)
	st, rdiags := b.between.sites.Resolve(content, site.Options{Langs: langs, Drafts: b.opts.Drafts, Glossary: gl.SiteEntries(), Failed: site.FailedFiles(ldiags)})
	return st, gl, slices.Concat(b.cfgDiags, b.look.Diags, ldiags, gdiags, tdiags.Errors(), rdiags), nil
}

// loadTheme (re)loads the site's look (look.Load) when it changed or was
// never loaded. Its errors (Look.Diags) stop the build only when a
// language has no UI strings or there is no theme to render with; else it
// goes on, and the look is loaded again by the next. The caller holds
// b.mu.
func (b *Builder) loadTheme(ctx context.Context) error {
	if !b.full && b.look != nil {
		return nil
	}
	lk, diags := look.Load(ctx, b.in, b.opts.Layout, b.cfg, b.langs, b.hl, b.opts.ExplicitIndex)
	if lk == nil {
		return failed(ctx, slices.Concat(b.cfgDiags, diags))
	}
	if err := ctx.Err(); err != nil {
		return &InterruptedError{Err: err}
	}
	b.look = lk
	b.memo.Clear()
	b.assembled.Clear()
	b.full = len(diags.Errors()) > 0
	return nil
}

// loadConfig reads the configuration file afresh (it is small): when it
// changed, everything is made again, with the theme it names. A field in
// error keeps its default, a theme not found is the default theme: its
// errors (b.cfgDiags) stop the build only when it has no languages. The
// caller holds b.mu.
func (b *Builder) loadConfig(ctx context.Context) error {
	s, ok := config.LoadSite(ctx, b.in, b.opts.Layout, b.theme0)
	if !ok {
		return failed(ctx, s.Diags)
	}
	// A changed file, or a language folder that came or went (every
	// page's translations, and the UI strings the site needs, changed).
	if b.cfg == nil || !bytes.Equal(s.Config.Src, b.cfg.Src) || !slices.Equal(s.Langs, b.langs) {
		b.full = true
	}
	b.cfg, b.cfgDiags, b.langs = s.Config, s.Diags, s.Langs
	b.opts.Layout.Theme = s.Theme
	return nil
}

// baseURL is the URL the site is published under: the option's, else the
// configuration's, else "/". The caller holds b.mu.
func (b *Builder) baseURL() string {
	switch {
	case b.opts.BaseURL != "":
		return b.opts.BaseURL
	case b.cfg != nil && b.cfg.BaseURL != "":
		return b.cfg.BaseURL
	}
	return "/"
}

// T returns a UI string as the site's strings last loaded hold it (the key
// itself before any), for callers that assemble pages themselves (the
// single-file export).
func (b *Builder) T(lang, key string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.look == nil {
		return key
	}
	return b.look.Bundle.T(lang, key)
}

// failed is the error of a build that found ds: an InterruptedError when
// ctx is done, else a *check.Failure when ds holds errors.
func failed(ctx context.Context, ds diag.List) error {
	if err := ctx.Err(); err != nil {
		return &InterruptedError{Err: err}
	}
	if f := check.Failed(ds); f != nil {
		return f
	}
	return nil
}

// interrupted is err, as an InterruptedError when ctx is done and err is
// ctx's.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return &InterruptedError{Err: err}
	}
	return err
}
