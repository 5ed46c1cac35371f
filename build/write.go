package build

import (
	"io"
	"strings"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
	"github.com/kakehashi-dev/kakehashi/build/site"
)

// prepareAssets names the theme's files and the calculators' modules by
// their hashes (render.PrepareAssets) before the pages that link them are
// rendered.
func (r *run) prepareAssets() {
	// The static files published as they are are streamed by
	// writeAssets; the others are minified and named here.
	r.published = render.PrepareAssets(r.b.minify, r.made, r.b.hl.CSS(), r.mods, r.b.opts.ExplicitIndex)
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
// site (cache.Writer.Copy), never held in memory.
func (r *run) writeAssets(pages []*render.Page) error {
	for _, f := range r.published.Written(r.b.cfg.Calculators && render.UsesCalc(pages)) {
		r.w.PutFile(f.Path, f.Data)
	}
	for _, f := range r.copied {
		if err := r.w.Copy(r.ctx, f.Path, f.Source, f.Size, f.ModTime, f.Open); err != nil {
			return interrupted(r.ctx, err)
		}
	}
	for _, f := range r.st.Files {
		open := func() (io.ReadCloser, error) { return r.b.in.Open(f.Source.Path) }
		if err := r.w.Copy(r.ctx, f.OutPath(), f.Source.Path, f.Source.Size, f.Source.ModTime, open); err != nil {
			return interrupted(r.ctx, err)
		}
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
	fp := page.FeedFingerprint(r.asm.Site(), pages)
	feeds := r.b.memo.Feeds.GetOrMake("", fp, func() map[string][]byte { return render.Feeds(r.asm.Site(), pages) })
	for p, f := range feeds {
		r.w.PutMade(p, fp, f)
	}
}

// writeSearch writes each language's search index of its articles, home
// and series pages, the languages at once: its manifest and shards,
// taken as they were when nothing the index holds changed
// (page.SearchFingerprint), else made again from each page's terms (a
// shard made the same is reused all the same), and each page's fragment,
// made again only when its page changed (page.SearchEntry). A page's
// terms come from the feed, else from the last build (in memory or
// through the persistent cache), else it is tokenized now; both caches
// keep them for the next build. Lazy, a language's whole index is one
// script made when first read. It returns the bytes of each index (none
// when lazy).
func (r *run) writeSearch(pages []*render.Page, mds []*page.Rendering) map[string]int {
	rs := make([]*page.Rendered, len(mds))
	for i, md := range mds {
		rs[i] = md.ForSearch()
	}
	memo := &r.b.memo
	opts := search.Options{ExplicitIndex: r.b.opts.ExplicitIndex}
	fromMemo := func(e page.SearchEntry) (search.Terms, bool) {
		if s, ok := memo.SearchTerms.Get(e.Doc.URL, e.FP); ok {
			return search.DecodeTerms(s)
		}
		return search.Terms{}, false
	}
	known := func(e page.SearchEntry) (search.Terms, bool) {
		if t, ok := r.feed.Terms(e.Doc.Lang, e.Doc.URL); ok {
			return t, true
		}
		if t, ok := fromMemo(e); ok {
			return t, true
		}
		if s, ok := r.cache.SearchTerms(e.Doc.URL, e.FP); ok {
			return search.DecodeTerms(s)
		}
		return search.Terms{}, false
	}
	ls, lazy := r.sink.(output.LazySink)
	lazy = lazy && r.b.opts.LazySearch
	var mu sync.Mutex
	sizes := map[string]int{}
	live, liveURLs := map[string]bool{}, map[string]bool{} // what memo keeps
	keepLive := func(k string) {
		mu.Lock()
		live[k] = true
		mu.Unlock()
	}
	index := func(lang string) {
		es := page.SearchEntries(lang, pages, rs)
		fp := page.SearchFingerprint(lang, pages, rs)
		// A page without its text (from the persistent cache) whose terms
		// no cache holds is rendered again to be tokenized.
		for i, e := range es {
			if e.Unknown && !r.hasTerms(e) {
				es[i].Doc = r.withText(e)
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
				b, ps := page.SearchIndex(lang, es, fromMemo, opts)
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
		if files == nil {
			if n, ok := r.w.ReuseSet(search.IndexPath(lang), fp, search.ShardPrefix(lang)); ok {
				size = n
			} else {
				var b *search.Built
				b, ps = page.SearchIndex(lang, es, known, opts)
				files = b.Files()
			}
		}
		paths := make([]string, len(files))
		for i, f := range files {
			paths[i] = f.Path
			if i == 0 {
				r.w.PutMade(f.Path, fp, f.Data) // the manifest
			} else {
				r.w.PutFile(f.Path, f.Data)
			}
			size += len(f.Data)
			if r.retain {
				memo.Search.Put(f.Path, fp, f.Data)
				keepLive(f.Path)
			}
		}
		if r.retain && len(files) > 0 {
			memo.Search.Put(listKey, fp, []byte(strings.Join(paths, "\n")))
			keepLive(listKey)
		}
		// Each page's terms, for the next build.
		keep := make([]cache.SearchTerms, 0, len(es))
		for i, e := range es {
			t, ok := search.Terms{}, true
			if ps != nil {
				t = ps[i].Terms
			} else if t, ok = known(e); !ok {
				continue
			}
			keep = append(keep, cache.SearchTerms{URL: e.Doc.URL, FP: e.FP, Terms: t.String()})
			if r.retain {
				memo.SearchTerms.Put(e.Doc.URL, e.FP, t.String())
			}
		}
		r.cache.KeepSearchTerms(keep)
		// The fragments.
		page.SearchFragments(lang, es, opts, r.withText, func(p string, fp uint64, mk func() []byte) {
			n := 0
			if f, ok := r.early.written(p, fp); ok {
				n = f // written as its page was rendered
			} else if data, ok := memo.Search.Get(p, fp); ok && r.retain {
				r.w.PutMade(p, fp, data)
				n = len(data)
			} else {
				n = r.w.PutMadeFunc(p, fp, func() []byte {
					data := mk()
					if r.retain {
						memo.Search.Put(p, fp, data)
					}
					return data
				})
			}
			if r.retain {
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
	for _, lang := range r.asm.Site().Langs {
		wg.Go(func() { index(lang) })
	}
	wg.Wait()
	memo.SearchTerms.Keep(func(u string) bool { return liveURLs[u] })
	if r.retain || lazy {
		memo.Search.Keep(func(k string) bool { return live[k] })
	}
	if lazy {
		return nil
	}
	return sizes
}

// hasTerms reports whether the terms of the page of e are known: from the
// feed, or kept by the memory or the persistent cache.
func (r *run) hasTerms(e page.SearchEntry) bool {
	if _, ok := r.feed.Terms(e.Doc.Lang, e.Doc.URL); ok {
		return true
	}
	if _, ok := r.b.memo.SearchTerms.Get(e.Doc.URL, e.FP); ok {
		return true
	}
	_, ok := r.cache.SearchTerms(e.Doc.URL, e.FP)
	return ok
}

// withText is the document of e with its text: its own, or, for a page
// whose rendering came without it (page.SearchEntry.Unknown), that of its
// markdown rendered again.
func (r *run) withText(e page.SearchEntry) search.Doc {
	d := e.Doc
	if !e.Unknown {
		return d
	}
	if sp := r.st.ByURL(d.URL); sp != nil && sp.Source != nil {
		md := r.mdr.Markdown(r.ctx, sp, true)
		d.Text, d.Code = md.Result.Text, md.Result.CodeText
	}
	return d
}

// earlyFragments writes the search fragments of a cold build's pages as
// they are rendered, so that the build need not keep every page's text
// until the indexes are made (writeSearch then skips them). A nil
// *earlyFragments writes none.
type earlyFragments struct {
	names map[string]*search.Fragments // by language
	mu    sync.Mutex
	done  map[string]earlyFragment // by path
}

type earlyFragment struct {
	fp   uint64
	size int
}

// newEarlyFragments names the fragments of every language's pages as
// writeSearch will (page.SearchURLs).
func newEarlyFragments(st *site.Site, langs []string, opts search.Options) *earlyFragments {
	e := &earlyFragments{names: map[string]*search.Fragments{}, done: map[string]earlyFragment{}}
	for _, l := range langs {
		e.names[l] = search.NewFragments(l, page.SearchURLs(st, l), opts)
	}
	return e
}

// write writes the fragment of p, rendered as md, and reports whether it
// did (p is in a language's index).
func (e *earlyFragments) write(w *cache.Writer, p *render.Page, md *page.Rendering) bool {
	if e == nil || e.names[p.Lang] == nil {
		return false
	}
	fr := e.names[p.Lang]
	en := page.SearchEntryOf(p, md.ForSearch())
	path, ok := fr.Path(en.Doc.URL)
	if !ok {
		return false
	}
	n := w.PutMadeFunc(path, en.FP, func() []byte { f, _ := fr.Make(en.Doc); return f.Data })
	e.mu.Lock()
	e.done[path] = earlyFragment{en.FP, n}
	e.mu.Unlock()
	return true
}

// written reports the size of the fragment at path written early from
// the fingerprint fp.
func (e *earlyFragments) written(path string, fp uint64) (int, bool) {
	if e == nil {
		return 0, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	f, ok := e.done[path]
	return f.size, ok && f.fp == fp
}
