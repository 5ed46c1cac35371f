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
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/wasm"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// writeAssets writes the theme's static files, minified, the highlight
// stylesheet and the calculators' modules.
func (r *run) writeAssets() error {
	b := r.b
	for _, f := range r.static {
		r.putFile(f.Path, b.minify.Minify(f.Path, f.Data))
	}
	for _, f := range r.st.Files {
		data, err := afero.ReadFile(b.in, f.Source.Path)
		if err != nil {
			return diag.List{diag.File(f.Source.Path, "%v", err)}
		}
		r.putFile(f.OutPath(), data)
	}
	r.putFile("css/chroma.css", b.minify.Minify("chroma.css", b.hl.CSS()))
	if m := b.wasm.Compiled(); m != nil && m.Calc != nil && b.cfg.Calculators {
		r.putFile(shortcodes.CalcWasmPath, m.Calc)
		r.putFile(shortcodes.CalcX509WasmPath, m.CalcX509)
		r.putFile(shortcodes.WasmExecPath, b.minify.Minify(shortcodes.WasmExecPath, m.ExecJS))
		if b.opts.ExplicitIndex {
			// file:// refuses fetch; a script carrying the bytes works.
			r.putFile(shortcodes.CalcWasmPath+".js", wasm.ScriptModule(wasm.CalcName, m.Calc))
			r.putFile(shortcodes.CalcX509WasmPath+".js", wasm.ScriptModule(wasm.CalcX509Name, m.CalcX509))
		}
	}
	return nil
}

// writeAliases writes a redirect page at each alias of a page, to that
// page (render.Alias); pages are the template data in the site's order.
func (r *run) writeAliases(pages []*render.Page) {
	index := make(map[*site.Page]int, len(r.st.Pages))
	for i, p := range r.st.Pages {
		index[p] = i
	}
	for _, a := range r.st.Aliases {
		r.putFile(a.OutPath(), render.Alias(r.asm.Site(), a.URL, pages[index[a.Page]]))
	}
}

// writeFeeds writes the sitemap, robots.txt and a feed per language, made
// again only when what they show changed (page.FeedFingerprint).
func (r *run) writeFeeds(pages []*render.Page) {
	data := r.asm.Site()
	fp := page.FeedFingerprint(data, pages)
	feeds, ok := r.b.feeds.Get("", fp)
	if !ok {
		feeds = render.Feeds(data, pages)
		r.b.feeds.Put("", fp, feeds)
	}
	for p, f := range feeds {
		r.putMade(p, fp, f)
	}
}

// writeSearch writes each language's search index of its articles, home
// and series pages, reusing the previous index when nothing it holds
// changed. It returns the size of each index (none when lazy).
func (r *run) writeSearch(pages []*render.Page, mds []*mdEntry) map[string]int {
	langs := r.asm.Site().Langs
	if ls, ok := r.sink.(output.LazySink); ok && r.b.opts.LazySearch {
		for _, lang := range langs {
			fp := searchFingerprint(lang, pages, mds)
			l, ok := r.b.lazySearch.Get(lang, fp)
			if !ok {
				l = output.NewLazy(fp, func() []byte { return r.searchIndex(lang, pages, mds) })
				r.b.lazySearch.Put(lang, fp, l)
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
		fps[i] = searchFingerprint(lang, pages, mds)
		if idx, ok := r.b.search.Get(lang, fps[i]); ok {
			indexes[i] = idx
			continue
		}
		if r.cache.Reuse(r.sink, search.IndexPath(lang), fps[i]) {
			reused[i] = true
			continue
		}
		// The languages at once: tokenizing spreads over the cores, but
		// writing an index out is one goroutine's work.
		wg.Go(func() { indexes[i] = r.searchIndex(lang, pages, mds) })
	}
	wg.Wait()
	sizes := map[string]int{}
	for i, lang := range langs {
		p := search.IndexPath(lang)
		if reused[i] {
			sizes[lang] = int(r.cache.PrevSize(p))
			continue
		}
		r.b.search.Put(lang, fps[i], indexes[i])
		r.put(p, indexes[i])
		r.cache.Made(p, fps[i], len(indexes[i]))
		sizes[lang] = len(indexes[i])
	}
	return sizes
}

// searchIndex builds lang's index, from the pages the feed tokenized
// while they rendered, if there was one.
func (r *run) searchIndex(lang string, pages []*render.Page, mds []*mdEntry) []byte {
	ix := r.feed.Done()
	if ix == nil {
		var docs []search.Doc
		for i, p := range pages {
			if indexed(lang, p, mds[i]) {
				docs = append(docs, page.SearchDoc(p, mds[i].res.Text, mds[i].res.CodeText))
			}
		}
		ix = &search.Indexer{}
		ix.AddAll(docs)
	}
	idx, _ := ix.Build(lang, search.Options{ExplicitIndex: r.b.opts.ExplicitIndex})
	return idx
}

// indexed reports whether a page belongs in lang's search index.
func indexed(lang string, p *render.Page, md *mdEntry) bool {
	return p.Lang == lang && md != nil && page.Searchable(p)
}

// searchFingerprint covers what lang's search index holds: its pages and
// their markdown renderings.
func searchFingerprint(lang string, pages []*render.Page, mds []*mdEntry) uint64 {
	h := cache.NewHasher()
	for i, p := range pages {
		if indexed(lang, p, mds[i]) {
			h.Str(p.URL)
			h.Str(p.Title)
			h.Num(int64(p.Part))
			h.Num(int64(mds[i].gen))
		}
	}
	return h.Sum()
}
