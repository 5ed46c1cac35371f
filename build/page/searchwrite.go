package page

import (
	"context"
	"strings"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
	"github.com/kakehashi-dev/kakehashi/build/site"
)

// SearchWriter writes a build's search indexes (Write), taking from its
// caches what did not change.
type SearchWriter struct {
	Ctx      context.Context
	W        *cache.Writer // through the sink, reusing through the persistent cache
	Sink     output.Sink
	Memo     *cache.Memo[*Rendering] // what a Builder keeps between builds
	Feed     *search.Feed            // the pages tokenized as they were rendered; may be nil
	Disk     *cache.Cache            // the persistent cache; may be nil
	Renderer *Renderer               // renders a page again whose text is not at hand
	Langs    []string
	Options  search.Options
	Lazy     bool            // each language's index one script, made when first read (output.LazySink)
	Keep     bool            // keep what is made in Memo (a build in memory)
	Early    *EarlyFragments // the fragments written as the pages were rendered; may be nil
	Headings *Headings       // the pages' heading texts kept from build to build; may be nil
}

// Write writes each language's search index of its articles, home
// and series pages, the languages at once: its manifest and shards,
// taken as they were when nothing the index holds changed
// (SearchFingerprint), else made again from each page's terms (a
// shard made the same is reused all the same), and each page's fragment,
// made again only when its page changed (SearchEntry). A page's
// terms come from the feed, else from the last build (in memory or
// through the persistent cache), else it is tokenized now; both caches
// keep them for the next build. Lazy, a language's whole index is one
// script made when first read. It returns the bytes of each index (none
// when lazy).
func (w *SearchWriter) Write(pages []*render.Page, mds []*Rendering) map[string]int {
	rs := make([]*Rendered, len(mds))
	for i, md := range mds {
		rs[i] = md.ForSearch()
	}
	memo := w.Memo
	opts := w.Options
	fromMemo := func(e SearchEntry) (search.Terms, bool) {
		if s, ok := memo.SearchTerms.Get(e.Doc.URL, e.FP); ok {
			return search.DecodeTerms(s)
		}
		return search.Terms{}, false
	}
	known := func(e SearchEntry) (search.Terms, bool) {
		if t, ok := w.Feed.Terms(e.Doc.Lang, e.Doc.URL); ok {
			return t, true
		}
		if t, ok := fromMemo(e); ok {
			return t, true
		}
		if s, ok := w.Disk.SearchTerms(e.Doc.URL, e.FP); ok {
			return search.DecodeTerms(s)
		}
		return search.Terms{}, false
	}
	ls, lazy := w.Sink.(output.LazySink)
	lazy = lazy && w.Lazy
	var mu sync.Mutex
	sizes := map[string]int{}
	live, liveURLs := map[string]bool{}, map[string]bool{} // what memo keeps
	keepLive := func(k string) {
		mu.Lock()
		live[k] = true
		mu.Unlock()
	}
	index := func(lang string) {
		es := w.Headings.Entries(lang, pages, rs)
		fp := SearchFingerprint(lang, pages, rs)
		// A page without its text (from the persistent cache) whose terms
		// no cache holds is rendered again to be tokenized.
		for i, e := range es {
			if e.Unknown && !w.hasTerms(e) {
				es[i].Doc = w.withText(e)
			}
		}
		mu.Lock()
		for _, e := range es {
			liveURLs[e.Doc.URL] = true
		}
		mu.Unlock()
		if lazy {
			// The fragments made for the last bundle are kept for the next.
			urls := make([]string, len(es))
			for i, e := range es {
				urls[i] = e.Doc.URL
			}
			fr := search.NewFragments(lang, urls, opts)
			for _, u := range urls {
				p, _ := fr.Path(u)
				keepLive(p)
			}
			cache.PutLazy(ls, &memo.LazySearch, []cache.MadeFile{{Key: lang, Path: search.IndexPath(lang), FP: fp, Make: func() []byte {
				b, ps := SearchIndex(lang, es, fromMemo, opts)
				frags := make([]search.File, 0, len(es))
				for i, e := range es {
					memo.SearchTerms.Put(e.Doc.URL, e.FP, ps[i].Terms.String())
					p, _ := b.Path(e.Doc.URL)
					if data, ok := memo.Search.Get(p, e.FP); ok {
						frags = append(frags, search.File{Path: p, Data: data})
					} else if f, ok := b.Make(e.Doc); ok {
						memo.Search.Put(p, e.FP, f.Data)
						frags = append(frags, f)
					}
				}
				return search.Bundle(b, frags)
			}}})
			return
		}
		// The manifest and the shards.
		size := 0
		listKey := search.IndexPath(lang) + "\x00shards"
		var files []search.File
		if list, ok := memo.Search.Get(listKey, fp); ok {
			for _, p := range strings.Split(string(list), "\n") {
				data, ok := memo.Search.Get(p, fp)
				if !ok {
					files = nil
					break
				}
				files = append(files, search.File{Path: p, Data: data})
			}
		}
		var ps []search.Page
		var b *search.Built
		var made map[int]search.Terms // the terms Update made, by entry
		if files == nil {
			if n, ok := w.W.ReuseSet(search.IndexPath(lang), fp, search.ShardPrefix(lang)); ok {
				size = n
				w.keepState(lang)
			} else {
				var ok bool
				if b, made, ok = w.update(lang, es, known); !ok {
					b, ps = SearchIndex(lang, es, known, opts)
				}
				files = b.Files()
				w.saveState(lang, b)
			}
		}
		paths := make([]string, len(files))
		for i, f := range files {
			paths[i] = f.Path
			switch {
			case i == 0:
				w.W.PutMade(f.Path, fp, f.Data) // the manifest
				size += len(f.Data)
			case b != nil && f.Sum != 0:
				// A shard, named by its sum; one Update took as the
				// last build made it has no bytes here.
				size += w.W.PutMadeFunc(f.Path, f.Sum, func() []byte { return b.Made(i - 1) })
			default:
				w.W.PutFile(f.Path, f.Data)
				size += len(f.Data)
			}
			if w.Keep {
				memo.Search.Put(f.Path, fp, f.Data)
				keepLive(f.Path)
			}
		}
		if w.Keep && len(files) > 0 {
			memo.Search.Put(listKey, fp, []byte(strings.Join(paths, "\n")))
			keepLive(listKey)
		}
		// Each page's terms, for the next build.
		keep := make([]cache.SearchTerms, 0, len(es))
		for i, e := range es {
			t, ok := search.Terms{}, true
			if ps == nil && !w.Keep && w.Disk.KeepSearchTermsOf(e.Doc.URL, e.FP) {
				continue // as the last build kept them
			}
			if ps != nil {
				t = ps[i].Terms
			} else if t, ok = made[i]; !ok {
				if t, ok = known(e); !ok {
					continue
				}
			}
			keep = append(keep, cache.SearchTerms{URL: e.Doc.URL, FP: e.FP, Terms: t.String()})
			if w.Keep {
				memo.SearchTerms.Put(e.Doc.URL, e.FP, t.String())
			}
		}
		w.Disk.KeepSearchTerms(keep)
		// The fragments.
		SearchFragments(lang, es, opts, w.withText, func(p string, fp uint64, mk func() []byte) {
			n := 0
			if f, ok := w.Early.Written(p, fp); ok {
				n = f // written as its page was rendered
			} else if data, ok := memo.Search.Get(p, fp); ok && w.Keep {
				w.W.PutMade(p, fp, data)
				n = len(data)
			} else {
				n = w.W.PutMadeFunc(p, fp, func() []byte {
					data := mk()
					if w.Keep {
						memo.Search.Put(p, fp, data)
					}
					return data
				})
			}
			if w.Keep {
				keepLive(p)
			}
			mu.Lock()
			size += n
			mu.Unlock()
		})
		mu.Lock()
		sizes[lang] = size
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for _, lang := range w.Langs {
		wg.Go(func() { index(lang) })
	}
	wg.Wait()
	memo.SearchTerms.Keep(func(u string) bool { return liveURLs[u] })
	if w.Keep || lazy {
		memo.Search.Keep(func(k string) bool { return live[k] })
	}
	if lazy {
		return nil
	}
	return sizes
}

// stateKey is where the persistent cache keeps the state of lang's index
// (search.State): its head, and each shard's block.
func stateKey(lang string) string { return "search\x00" + lang }

func blockKey(lang, name string) string { return "search\x00" + lang + "\x00" + name }

// update makes lang's index of es again from the state the last build
// left in the persistent cache (search.Update): only the pages whose
// entries changed are taken out and put in, their terms then from the
// cache, now known's or tokenized. It returns the index and the terms it
// tokenized, by entry; false when the index must be built afresh.
func (w *SearchWriter) update(lang string, es []SearchEntry, known func(SearchEntry) (search.Terms, bool)) (*search.Built, map[int]search.Terms, bool) {
	if w.Disk == nil || w.Keep {
		return nil, nil, false
	}
	_, prev, ok := w.Disk.Record(stateKey(lang))
	if !ok {
		return nil, nil, false
	}
	urls, fps := make([]string, len(es)), make([]uint64, len(es))
	for i, e := range es {
		urls[i], fps[i] = e.Doc.URL, e.FP
	}
	var an search.Analyzer
	made := map[int]search.Terms{}
	now := func(i int) (search.Terms, bool) {
		if t, ok := known(es[i]); ok {
			return t, true
		}
		d := es[i].Doc
		if es[i].Unknown {
			d = w.withText(es[i])
		}
		t := an.Analyze(d)
		made[i] = t
		return t, true
	}
	old := func(url string, fp uint64) (search.Terms, bool) {
		if s, ok := w.Disk.SearchTerms(url, fp); ok {
			return search.DecodeTerms(s)
		}
		return search.Terms{}, false
	}
	block := func(name string, sum uint64) ([]byte, bool) {
		fp, b, ok := w.Disk.Record(blockKey(lang, name))
		return b, ok && fp == sum
	}
	b, ok := search.Update(lang, urls, fps, now, old, prev, block, w.Options)
	return b, made, ok
}

// saveState keeps the state of b, lang's index, in the persistent cache
// for the next build to update it (update).
func (w *SearchWriter) saveState(lang string, b *search.Built) {
	if w.Disk == nil || w.Keep {
		return
	}
	st := b.State()
	if st == nil {
		return
	}
	h := cache.NewHasher()
	h.Bytes(st.Head)
	w.Disk.KeepRecord(stateKey(lang), h.Sum(), func() []byte { return st.Head })
	for _, bl := range st.Blocks {
		w.Disk.KeepRecord(blockKey(lang, bl.Name), bl.Sum, func() []byte { return bl.Data })
	}
}

// keepState keeps in the persistent cache the state of lang's index as
// the last build left it, for an index taken as it was.
func (w *SearchWriter) keepState(lang string) {
	if w.Disk == nil || w.Keep {
		return
	}
	fp, head, ok := w.Disk.Record(stateKey(lang))
	if !ok {
		return
	}
	bs, ok := search.Blocks(head)
	if !ok {
		return
	}
	w.Disk.KeepRecord(stateKey(lang), fp, nil)
	for _, bl := range bs {
		w.Disk.KeepRecord(blockKey(lang, bl.Name), bl.Sum, nil)
	}
}

// hasTerms reports whether the terms of the page of e are known: from the
// feed, or kept by the memory or the persistent cache.
func (w *SearchWriter) hasTerms(e SearchEntry) bool {
	if _, ok := w.Feed.Terms(e.Doc.Lang, e.Doc.URL); ok {
		return true
	}
	if _, ok := w.Memo.SearchTerms.Get(e.Doc.URL, e.FP); ok {
		return true
	}
	_, ok := w.Disk.SearchTerms(e.Doc.URL, e.FP)
	return ok
}

// withText is the document of e with its text: its own, or, for a page
// whose rendering came without it (SearchEntry.Unknown), that of its
// markdown rendered again.
func (w *SearchWriter) withText(e SearchEntry) search.Doc {
	d := e.Doc
	if !e.Unknown {
		return d
	}
	if sp := w.Renderer.Assembler.st.ByURL(d.URL); sp != nil && sp.Source != nil {
		md := w.Renderer.Markdown(w.Ctx, sp, true)
		d.Text, d.Code = md.Result.Text, md.Result.CodeText
	}
	return d
}

// EarlyFragments writes the search fragments of a cold build's pages as
// they are rendered, so that the build need not keep every page's text
// until the indexes are made (SearchWriter.Write then skips them). A nil
// *EarlyFragments writes none.
type EarlyFragments struct {
	names map[string]*search.Fragments // by language
	mu    sync.Mutex
	done  map[string]earlyFragment // by path
}

type earlyFragment struct {
	fp   uint64
	size int
}

// NewEarlyFragments names the fragments of every language's pages as
// SearchWriter.Write will (SearchURLs).
func NewEarlyFragments(st *site.Site, langs []string, opts search.Options) *EarlyFragments {
	e := &EarlyFragments{names: map[string]*search.Fragments{}, done: map[string]earlyFragment{}}
	for _, l := range langs {
		e.names[l] = search.NewFragments(l, SearchURLs(st, l), opts)
	}
	return e
}

// Write writes the fragment of p, rendered as md, and reports whether it
// did (p is in a language's index).
func (e *EarlyFragments) Write(cw *cache.Writer, p *render.Page, md *Rendering) bool {
	if e == nil || e.names[p.Lang] == nil {
		return false
	}
	fr := e.names[p.Lang]
	en := SearchEntryOf(p, md.ForSearch())
	path, ok := fr.Path(en.Doc.URL)
	if !ok {
		return false
	}
	n := cw.PutMadeFunc(path, en.FP, func() []byte { f, _ := fr.Make(en.Doc); return f.Data })
	e.mu.Lock()
	e.done[path] = earlyFragment{en.FP, n}
	e.mu.Unlock()
	return true
}

// Written reports the size of the fragment at path written early from
// the fingerprint fp.
func (e *EarlyFragments) Written(path string, fp uint64) (int, bool) {
	if e == nil {
		return 0, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	f, ok := e.done[path]
	return f.size, ok && f.fp == fp
}
