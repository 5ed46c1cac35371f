package build

import (
	"runtime"
	"strings"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/output"

	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// writeSearch builds each language's search index from its articles, home
// and series pages, reusing the previous index when nothing it holds
// changed. It returns the size of each index.
func (r *run) writeSearch(pages []*render.Page, mds []*mdEntry) map[string]int {
	langs := r.siteData.Langs
	if r.b.opts.LazySearch && r.stage == nil {
		for _, lang := range langs {
			fp := r.searchFingerprint(lang, pages, mds)
			l := r.b.lazySearch[lang]
			if l == nil || l.Key() != fp {
				l = output.NewLazy(fp, func() []byte {
					return r.searchIndex(lang, pages, mds, searchEntry{}, false).index
				})
				r.b.lazySearch[lang] = l
			}
			r.out.PutLazy(search.IndexPath(lang), l)
		}
		return nil
	}
	entries := make([]searchEntry, len(langs))
	reused := make([]bool, len(langs))
	var wg sync.WaitGroup
	for i, lang := range langs {
		e, ok := r.b.search[lang]
		fp := r.searchFingerprint(lang, pages, mds)
		if ok && e.fp == fp {
			entries[i] = e
			continue
		}
		if r.cache.reuse(r.stage, search.IndexPath(lang), fp) {
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
			sizes[lang] = int(r.cache.prev.Out[strings.TrimPrefix(p, "/")].Size)
			continue
		}
		r.b.search[lang] = entries[i]
		r.put(p, entries[i].index)
		r.cache.made(p, entries[i].fp, len(entries[i].index))
		sizes[lang] = len(entries[i].index)
	}
	return sizes
}

// searchIndex builds one language's index, or returns prev when nothing
// it holds changed.
func (r *run) searchIndex(lang string, pages []*render.Page, mds []*mdEntry, prev searchEntry, havePrev bool) searchEntry {
	fp := r.searchFingerprint(lang, pages, mds)
	if havePrev && prev.fp == fp {
		return prev
	}
	ix := r.eager.done()
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

// eagerSearch tokenizes pages for the search indexes while the build is
// still rendering others, on goroutines of its own that take up the time
// the render workers spend waiting for the disk. A cold build, which will
// surely write both indexes, uses one; a build that may reuse them does
// not.
type eagerSearch struct {
	ix   search.Indexer
	docs chan search.Doc
	wg   sync.WaitGroup
	once sync.Once
}

func startEagerSearch() *eagerSearch {
	e := &eagerSearch{docs: make(chan search.Doc, 64)}
	for range runtime.GOMAXPROCS(0) {
		e.wg.Go(func() {
			for d := range e.docs {
				e.ix.Add(d)
			}
		})
	}
	return e
}

// add queues a rendered page; nil e does nothing.
func (e *eagerSearch) add(p *render.Page, md *mdEntry) {
	if e != nil && searchable(p, md) {
		e.docs <- searchDoc(p, md)
	}
}

// done waits for every queued page and returns the indexer holding them,
// or nil for a nil e. It may be called more than once, from any goroutine.
func (e *eagerSearch) done() *search.Indexer {
	if e == nil {
		return nil
	}
	e.once.Do(func() {
		close(e.docs)
		e.wg.Wait()
	})
	return &e.ix
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
func (r *run) searchFingerprint(lang string, pages []*render.Page, mds []*mdEntry) uint64 {
	h := newHasher()
	for i, p := range pages {
		if indexed(lang, pages, mds, i) {
			h.str(p.URL)
			h.str(p.Title)
			h.num(int64(p.Part))
			h.num(int64(mds[i].gen))
		}
	}
	return h.sum()
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
