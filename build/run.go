package build

import (
	"context"
	"path"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/asset"
	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/check"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/glossary"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/wasm"
)

// target is where a build writes: its sink, and which of the two it is,
// for the result.
type target struct {
	sink  output.Sink
	mem   *output.Site    // Build: the site in memory
	stage *output.Staging // BuildTo: the staging folder
}

// run is the state of one build.
type run struct {
	b     *Builder
	ctx   context.Context
	st    *site.Site
	theme *render.Theme
	asm   *page.Assembler
	mdr   *page.Renderer // the markdown stage, and the assembling of its pages
	// made and copied are the site's and the theme's static files,
	// minified and named, and published as they are (render.SplitStatic).
	made, copied []render.StaticFile
	assets       *asset.Resolver // the files pages show
	mods         *wasm.Modules   // the calculators' modules; nil without
	to           target
	sink         output.Sink
	retain       bool                 // keep pages and renderings in memory for the next build (Build)
	cache        *cache.Cache         // the persistent cache, when streaming with one
	feed         *search.Feed         // tokenizes pages for search as they are rendered; may be nil
	early        *page.EarlyFragments // writes their search fragments as they are rendered; may be nil
	diags        diag.List            // the build's errors and warnings so far
	built        *check.Built         // the ids of the pages written, when the HTML is not kept (BuildTo)
	htmlIDs      func(outPath string) []string
	gl           *glossary.Glossary // the site's glossary; nil without
	w            *cache.Writer      // writes through sink, reusing through cache
	rendered     atomic.Int64
	// stamps are the site's inputs as they stood when the build began
	// (Builder.unchanged), for the next build to compare.
	stamps cache.Stamps
	// published are the static files and modules to write, under their
	// published names.
	published render.AssetBundle
	assetsFP  uint64 // the digest of their names, in every page's fingerprint
}

// newRun starts a build of st into to, which found ds so far.
func (b *Builder) newRun(ctx context.Context, st *site.Site, to target, ds diag.List) *run {
	o := b.opts
	r := &run{b: b, ctx: ctx, st: st, theme: b.look.Theme, to: to, sink: to.sink,
		retain: to.mem != nil, diags: ds}
	r.htmlIDs = func(p string) []string { h, _ := to.mem.Get(p); return markdown.HTMLIDs(h) }
	if st := to.stage; st != nil {
		// A page reused from the previous output is read there.
		r.built = &check.Built{Read: func(p string) ([]byte, bool) {
			h, err := afero.ReadFile(st.Fs(), path.Join(st.Dest(), p))
			return h, err == nil
		}}
		r.htmlIDs = r.built.IDs
	}
	r.asm = page.New(st, page.Options{Langs: b.langs, BaseURL: b.baseURL(), Generator: "kakehashi " + Version, T: b.look.Bundle.T, ExplicitIndex: o.ExplicitIndex})
	page.Configure(r.asm.Site(), r.b.cfg)
	r.asm.Site().PairView = o.PairView
	// A one-shot streaming build keeps few highlighted blocks: the
	// translations of a page render together (see renderAll).
	if r.retain {
		b.hl.SetLimit(0)
	} else {
		b.hl.SetLimit(1024)
	}
	if to.stage != nil && b.disk != nil {
		r.cache = cache.Open(b.disk.FS, b.disk.Path, b.cacheKey())
	}
	r.w = cache.NewWriter(r.sink, r.cache)
	r.mdr = &page.Renderer{Assembler: r.asm, Config: b.cfg, MD: b.look.MD, T: b.look.Bundle.T, Key: b.look.MDKey, Memo: &b.memo.Markdown, Keep: r.retain, Disk: r.cache}
	if r.retain {
		r.mdr.Assembled = &b.assembled
	}
	// A cold streaming build surely writes every search index.
	if !r.retain && !o.LazySearch && b.memo.Search.Len() == 0 && !r.cache.Warm() && b.cfg.Search {
		r.feed = search.NewFeed()
		r.early = page.NewEarlyFragments(st, r.asm.Site().Langs, search.Options{ExplicitIndex: o.ExplicitIndex})
	}
	return r
}

// loadStatic reads the static files, which the pages' images may name,
// and makes the resolver of the files pages show (for the markdown).
func (r *run) loadStatic() error {
	static, err := r.b.staticFiles(r.theme)
	if err != nil {
		return err
	}
	first := ""
	if len(r.b.langs) > 0 {
		first = r.b.langs[0]
	}
	r.made, r.copied = render.SplitStatic(static)
	r.assets = asset.New(r.b.in, r.st, first, static)
	r.mdr.Files = r.assets
	return nil
}

// cacheKey names the persistent cache for the current program, theme,
// strings and options (cache.Key): made once per build (the theme's
// layouts are read for it), when first asked. The caller holds b.mu.
func (b *Builder) cacheKey() uint64 {
	if b.key.build == b.builds && b.key.sum != 0 {
		return b.key.sum
	}
	o := b.opts
	sum := cache.Key(Version, b.look.MDKey, render.ThemeFs(b.in, o.Layout.Theme),
		b.baseURL(), string(b.cfg.Src), strconv.FormatBool(o.Drafts), strconv.FormatBool(o.ExplicitIndex))
	b.key.build, b.key.sum = b.builds, sum
	return sum
}

// compileWasm compiles the calculators, once per Builder, before the
// pages are rendered: they link the modules by names made from their
// bytes. The warning of a failed compilation is the build's only when a
// page holds a calculator (calcWarnings).
func (r *run) compileWasm() {
	if r.b.cfg.Calculators {
		if m, _ := r.b.wasm.Modules(r.ctx); m != nil && m.Available() {
			r.mods = m
		}
	}
}

// calcWarnings adds the warning of a failed compilation when a page holds
// a calculator.
func (r *run) calcWarnings(pages []*render.Page) {
	if r.b.cfg.Calculators && render.UsesCalc(pages) {
		_, warn := r.b.wasm.Modules(r.ctx)
		r.diags = append(r.diags, warn...)
	}
}

// finish sums up the build and hands over its result.
func (r *run) finish(start time.Time, pages []*render.Page, searchBytes map[string]int) (*Result, error) {
	b := r.b
	stats := r.st.Stats()
	sum := Summary{Pages: stats.Pages, Articles: stats.Articles, PartsPublished: stats.PartsPublished, PartsPlanned: stats.PartsPlanned,
		Warnings: r.diags, Overrides: b.look.Overrides, SearchBytes: searchBytes, Wasm: r.mods}
	sum.Warnings.Sort()
	sum.HighlightHits, sum.HighlightRuns = b.hl.Stats()
	if err := r.w.Err(); err != nil {
		return nil, err
	}
	if st := r.to.stage; st != nil {
		// The files queued for the staging's writer are on disk.
		if err := st.Flush(); err != nil {
			return nil, err
		}
	}
	sum.Elapsed = time.Since(start)
	sum.Files, sum.Bytes = r.sink.Size()
	res := &Result{Summary: sum, Langs: r.asm.Site().Langs, Rendered: int(r.rendered.Load()), Pages: pages, Assets: r.asm.Site().Assets}
	if st := r.to.stage; st != nil {
		b.prev = nil
		if b.disk != nil {
			b.disk.SaveContent(b.loader.Save())
		}
		if c := r.cache; c != nil {
			res.Reused = c.Reused()
			res.Unchanged = st.Written() == 0 && c.SameFiles()
			b.disk.KeepAfterCommit(c, st)
			if b.opts.SkipUnchanged {
				r.keepManifest(res)
			}
		}
		if b.disk != nil {
			st.AfterCommit(b.disk.Wait) // last: a commit returned has saved the content
		}
		return res, nil
	}
	out := r.to.mem
	if err := out.Err(); err != nil {
		return nil, err
	}
	res.Site = out
	if b.prev != nil {
		res.Changed, res.Removed = output.Diff(b.prev, out)
	}
	b.prev = out
	return res, nil
}
