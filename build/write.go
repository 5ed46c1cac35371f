package build

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// prepareAssets names the theme's files and the calculators' modules by
// their hashes (render.PrepareAssets) before the pages that link them are
// rendered.
func (r *run) prepareAssets() {
	b := r.b
	mods := b.wasm.Compiled()
	if mods == nil || mods.Calc == nil || !b.cfg.Calculators {
		mods = nil
	}
	// The static files published as they are are streamed by
	// writeAssets; the others are minified and named here.
	var made []render.StaticFile
	for _, f := range r.static {
		if !f.Copied() {
			made = append(made, f)
		}
	}
	r.published = render.PrepareAssets(b.minify, made, b.hl.CSS(), mods, b.opts.ExplicitIndex)
	r.asm.Site().Assets = r.published.Assets
	r.assetsFP = r.published.Assets.Digest()
}

// pageFP is a page's fingerprint with the names of the assets its
// layout links.
func (r *run) pageFP(fp uint64) uint64 {
	h := cache.NewHasher()
	h.Num(int64(fp))
	h.Num(int64(r.assetsFP))
	return h.Sum()
}

// writeAssets writes the files prepareAssets made; the calculators'
// modules only when a page holds a calculator. The static files published
// as they are and the files of the page folders are streamed from the
// site (copyFile), never held in memory.
func (r *run) writeAssets(pages []*render.Page) error {
	b := r.b
	files := r.published.Files
	if !usesCalc(pages) || !b.cfg.Calculators {
		files = files[r.published.Calc:]
	}
	for _, f := range files {
		r.w.PutFile(f.Path, f.Data)
	}
	for _, f := range r.static {
		if f.Copied() {
			if err := r.copyFile(f.Path, f.Source, f.Size, f.ModTime, f.Open); err != nil {
				return err
			}
		}
	}
	for _, f := range r.st.Files {
		open := func() (io.ReadCloser, error) { return b.in.Open(f.Source.Path) }
		if err := r.copyFile(f.OutPath(), f.Source.Path, f.Source.Size, f.Source.ModTime, open); err != nil {
			return err
		}
	}
	return nil
}

// copyFile publishes the site's file src (its path in diagnostics) at
// output path p, read from open a piece at a time. Its fingerprint is
// its path, size and time, as the loader tells a changed page: the
// previous output's copy is reused while they stay the same. A file that
// cannot be opened is an error at src, and so is one that cannot be read
// on disk; an interrupt stops the copy. A site in memory (the authoring
// server, check, export) takes the file as read from the site whenever
// it is written or served (output.NewSource, keyed by the fingerprint):
// a build reads none of the files it is not asked for, a rebuild none
// that did not change, and none is held in memory.
func (r *run) copyFile(p, src string, size int64, mod time.Time, open func() (io.ReadCloser, error)) error {
	h := cache.NewHasher()
	h.Str(src)
	h.Num(size)
	h.Num(mod.UnixNano())
	fp := h.Sum()
	if r.cache.Reuse(r.sink, p, fp) {
		return nil
	}
	rc, err := open()
	if err != nil {
		return diag.List{diag.File(src, "%v", err)}
	}
	defer rc.Close()
	if ls, ok := r.sink.(output.LazySink); ok {
		ls.PutLazy(p, output.NewSource(fp, size, open))
		return nil
	}
	in := &reader{r: rc}
	n, err := r.sink.WriteFrom(r.ctx, p, in, size)
	switch {
	case r.ctx.Err() != nil:
		return &InterruptedError{Err: r.ctx.Err()}
	case in.err != nil:
		return diag.List{diag.File(src, "%v", in.err)}
	case err != nil:
		return fmt.Errorf("writing %s: %w", strings.TrimPrefix(p, "/"), err)
	}
	r.cache.Made(p, fp, int(n))
	return nil
}

// reader keeps the error of a read, so that a copy that fails tells a
// fault of the site's file from one of the output.
type reader struct {
	r   io.Reader
	err error
}

func (r *reader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// writeAliases writes a redirect page at each alias of a page, to that
// page; pages are the template data in the site's order.
func (r *run) writeAliases(pages []*render.Page) {
	for _, f := range render.Aliases(r.asm.Site(), r.st, pages) {
		r.w.PutFile(f.Path, f.Data)
	}
}

// writeFeeds writes the sitemap, robots.txt and a feed per language, made
// again only when what they show changed (page.FeedFingerprint).
func (r *run) writeFeeds(pages []*render.Page) {
	data := r.asm.Site()
	fp := page.FeedFingerprint(data, pages)
	feeds, ok := r.b.memo.Feeds.Get("", fp)
	if !ok {
		feeds = render.Feeds(data, pages)
		r.b.memo.Feeds.Put("", fp, feeds)
	}
	for p, f := range feeds {
		r.w.PutMade(p, fp, f)
	}
}

// writeSearch writes each language's search index of its articles, home
// and series pages, reusing the previous index when nothing it holds
// changed. It returns the size of each index (none when lazy).
func (r *run) writeSearch(pages []*render.Page, mds []*mdEntry) map[string]int {
	langs := r.asm.Site().Langs
	rs := make([]*page.Rendered, len(mds))
	for i, md := range mds {
		if md != nil {
			rs[i] = &page.Rendered{Text: md.res.Text, Code: md.res.CodeText, Gen: md.gen}
		}
	}
	if ls, ok := r.sink.(output.LazySink); ok && r.b.opts.LazySearch {
		for _, lang := range langs {
			fp := page.SearchFingerprint(lang, pages, rs)
			l, ok := r.b.memo.LazySearch.Get(lang, fp)
			if !ok {
				l = output.NewLazy(fp, func() []byte { return r.searchIndex(lang, pages, rs) })
				r.b.memo.LazySearch.Put(lang, fp, l)
			}
			ls.PutLazy(search.IndexPath(lang), l)
		}
		return nil
	}
	indexes := make([][]byte, len(langs))
	fps := make([]uint64, len(langs))
	reused := make([]bool, len(langs))
	var wg sync.WaitGroup
	for i, lang := range langs {
		fps[i] = page.SearchFingerprint(lang, pages, rs)
		if idx, ok := r.b.memo.Search.Get(lang, fps[i]); ok {
			indexes[i] = idx
			continue
		}
		if r.cache.Reuse(r.sink, search.IndexPath(lang), fps[i]) {
			reused[i] = true
			continue
		}
		// The languages at once: tokenizing spreads over the cores, but
		// writing an index out is one goroutine's work.
		wg.Go(func() { indexes[i] = r.searchIndex(lang, pages, rs) })
	}
	wg.Wait()
	sizes := map[string]int{}
	for i, lang := range langs {
		p := search.IndexPath(lang)
		if reused[i] {
			sizes[lang] = int(r.cache.PrevSize(p))
			continue
		}
		r.b.memo.Search.Put(lang, fps[i], indexes[i])
		r.w.Put(p, indexes[i])
		r.cache.Made(p, fps[i], len(indexes[i]))
		sizes[lang] = len(indexes[i])
	}
	return sizes
}

// searchIndex builds lang's index, from the pages the feed tokenized
// while they rendered, if there was one.
func (r *run) searchIndex(lang string, pages []*render.Page, rs []*page.Rendered) []byte {
	ix := r.feed.Done()
	if ix == nil {
		ix = &search.Indexer{}
		ix.AddAll(page.SearchDocs(lang, pages, rs))
	}
	idx, _ := ix.Build(lang, search.Options{ExplicitIndex: r.b.opts.ExplicitIndex})
	return idx
}
