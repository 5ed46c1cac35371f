package build

import (
	"sync"

	"github.com/spf13/afero"

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
	r.published = render.PrepareAssets(b.minify, r.static, b.hl.CSS(), mods, b.opts.ExplicitIndex)
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
// modules only when a page holds a calculator.
func (r *run) writeAssets(pages []*render.Page) error {
	b := r.b
	files := r.published.Files
	if !usesCalc(pages) || !b.cfg.Calculators {
		files = files[r.published.Calc:]
	}
	for _, f := range files {
		r.w.PutFile(f.Path, f.Data)
	}
	for _, f := range r.st.Files {
		data, err := afero.ReadFile(b.in, f.Source.Path)
		if err != nil {
			return diag.List{diag.File(f.Source.Path, "%v", err)}
		}
		r.w.PutFile(f.OutPath(), data)
	}
	return nil
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
