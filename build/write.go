package build

import (
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
	"github.com/kakehashi-dev/kakehashi/build/wasm"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// writeAssets writes the theme's static files, minified, the highlight
// stylesheet and the calculators' modules.
func (r *run) writeAssets() error {
	b := r.b
	static, err := r.theme.Static()
	if err != nil {
		return err
	}
	for _, f := range static {
		r.putFile(f.Path, b.minify.Minify(f.Path, f.Data))
	}
	r.putFile("css/chroma.css", b.minify.Minify("chroma.css", b.hl.CSS()))
	if m := b.wasm; m != nil && m.Calc != nil {
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

// writeFeeds writes the sitemap, robots.txt and a feed per language, made
// again only when what they show changed (page.FeedFingerprint).
func (r *run) writeFeeds(pages []*render.Page) {
	b, data := r.b, r.asm.Site()
	fp := page.FeedFingerprint(data, pages)
	if b.feeds == nil || b.feedsFP != fp {
		var listed []*render.Page
		for _, p := range pages {
			if p.Kind != render.KindRoot && p.Kind != render.KindNotFound {
				listed = append(listed, p)
			}
		}
		sort.SliceStable(listed, func(i, j int) bool { return listed[i].URL < listed[j].URL })
		feeds := map[string][]byte{"sitemap.xml": render.Sitemap(data, listed), "robots.txt": render.Robots(data)}
		for _, l := range data.Langs {
			feeds[path.Join(l, "index.xml")] = render.Atom(data, l, listed)
		}
		b.feeds, b.feedsFP = feeds, fp
	}
	for p, f := range b.feeds {
		r.putMade(p, fp, f)
	}
}

// searchEntry is a language's search index, valid while its fingerprint
// (the indexed pages and their markdown renderings) stays the same.
type searchEntry struct {
	fp    uint64
	index []byte
}

// lazySink is a sink that can hold a file made when first read.
type lazySink interface {
	PutLazy(p string, l *output.Lazy)
}

// writeSearch builds each language's search index from its articles, home
// and series pages, reusing the previous index when nothing it holds
// changed. It returns the size of each index.
func (r *run) writeSearch(pages []*render.Page, mds []*mdEntry) map[string]int {
	langs := r.asm.Site().Langs
	if ls, ok := r.sink.(lazySink); ok && r.b.opts.LazySearch {
		for _, lang := range langs {
			fp := searchFingerprint(lang, pages, mds)
			l := r.b.lazySearch[lang]
			if l == nil || l.Key() != fp {
				l = output.NewLazy(fp, func() []byte { return r.searchIndex(lang, pages, mds, searchEntry{}, false).index })
				r.b.lazySearch[lang] = l
			}
			ls.PutLazy(search.IndexPath(lang), l)
		}
		return nil
	}
	entries := make([]searchEntry, len(langs))
	reused := make([]bool, len(langs))
	var wg sync.WaitGroup
	for i, lang := range langs {
		e, ok := r.b.search[lang]
		fp := searchFingerprint(lang, pages, mds)
		if ok && e.fp == fp {
			entries[i] = e
			continue
		}
		if r.cache.Reuse(r.sink, search.IndexPath(lang), fp) {
			reused[i] = true
			continue
		}
		// The languages at once: tokenizing spreads over the cores, but
		// writing an index out is one goroutine's work.
		wg.Go(func() { entries[i] = r.searchIndex(lang, pages, mds, e, ok) })
	}
	wg.Wait()
	sizes := map[string]int{}
	for i, lang := range langs {
		p := search.IndexPath(lang)
		if reused[i] {
			sizes[lang] = int(r.cache.PrevSize(p))
			continue
		}
		r.b.search[lang] = entries[i]
		r.put(p, entries[i].index)
		r.cache.Made(p, entries[i].fp, len(entries[i].index))
		sizes[lang] = len(entries[i].index)
	}
	return sizes
}

// searchIndex builds one language's index, or returns prev when nothing
// it holds changed.
func (r *run) searchIndex(lang string, pages []*render.Page, mds []*mdEntry, prev searchEntry, havePrev bool) searchEntry {
	fp := searchFingerprint(lang, pages, mds)
	if havePrev && prev.fp == fp {
		return prev
	}
	ix := r.feed.Done()
	if ix == nil {
		var docs []search.Doc
		for i, p := range pages {
			if indexed(lang, pages, mds, i) {
				docs = append(docs, searchDoc(p, mds[i]))
			}
		}
		ix = &search.Indexer{}
		ix.AddAll(docs)
	}
	idx, _ := ix.Build(lang, search.Options{ExplicitIndex: r.b.opts.ExplicitIndex})
	return searchEntry{fp: fp, index: idx}
}

// searchDoc is what the search index takes of a page.
func searchDoc(p *render.Page, md *mdEntry) search.Doc {
	return search.Doc{
		Lang: p.Lang, URL: p.URL, Part: p.Part, Title: p.Title,
		Headings: headingText(p.TOC), Text: md.res.Text, Code: md.res.CodeText,
	}
}

// indexed reports whether page i belongs in lang's search index.
func indexed(lang string, pages []*render.Page, mds []*mdEntry, i int) bool {
	return pages[i].Lang == lang && searchable(pages[i], mds[i])
}

// searchable reports whether a page belongs in its language's index.
func searchable(p *render.Page, md *mdEntry) bool {
	return p.Lang != "" && md != nil && p.Kind != render.KindNotFound && p.Kind != render.KindRoot
}

// searchFingerprint covers what lang's search index holds: its pages and
// their markdown renderings.
func searchFingerprint(lang string, pages []*render.Page, mds []*mdEntry) uint64 {
	h := cache.NewHasher()
	for i, p := range pages {
		if indexed(lang, pages, mds, i) {
			h.Str(p.URL)
			h.Str(p.Title)
			h.Num(int64(p.Part))
			h.Num(int64(mds[i].gen))
		}
	}
	return h.Sum()
}

func headingText(toc []render.TOCEntry) string {
	var b strings.Builder
	var walk func([]render.TOCEntry)
	walk = func(es []render.TOCEntry) {
		for _, e := range es {
			b.WriteString(e.Text)
			b.WriteByte('\n')
			walk(e.Children)
		}
	}
	walk(toc)
	return b.String()
}
