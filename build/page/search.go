package page

import (
	"runtime"
	"strings"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
	"github.com/kakehashi-dev/kakehashi/build/site"
)

// Searchable reports whether p belongs in its language's search index:
// every page of a language but its 404 page (the root page has none).
func Searchable(p *render.Page) bool {
	return p.Lang != "" && p.Kind != render.KindNotFound && p.Kind != render.KindRoot
}

// SearchDoc is what the search index takes of a page: its title, part and
// headings, and the text and code of its markdown.
func SearchDoc(p *render.Page, text, code string) search.Doc {
	return searchDoc(p, headingText(p.TOC), headingIDs(p.TOC), text, code)
}

// searchDoc is SearchDoc with p's headings (headingText) and their ids
// (headingIDs) given.
func searchDoc(p *render.Page, headings, ids, text, code string) search.Doc {
	return search.Doc{Lang: p.Lang, URL: p.URL, Part: p.Part, Title: p.Title, Headings: headings, Text: text, Code: code, HeadingIDs: ids}
}

// headingIDs is the id of every heading of toc, one a line, as
// headingText has their text.
func headingIDs(toc []render.TOCEntry) string {
	var b strings.Builder
	writeIDs(&b, toc)
	return b.String()
}

func writeIDs(b *strings.Builder, toc []render.TOCEntry) {
	for i := range toc {
		b.WriteString(toc[i].ID)
		b.WriteByte('\n')
		writeIDs(b, toc[i].Children)
	}
}

// headingText is every heading of toc, one a line.
func headingText(toc []render.TOCEntry) string {
	var b strings.Builder
	b.Grow(headingLen(toc)) // one allocation
	writeHeadings(&b, toc)
	return b.String()
}

// headingLen is the length of headingText(toc).
func headingLen(toc []render.TOCEntry) int {
	n := 0
	for i := range toc {
		n += len(toc[i].Text) + 1 + headingLen(toc[i].Children)
	}
	return n
}

func writeHeadings(b *strings.Builder, toc []render.TOCEntry) {
	for i := range toc {
		b.WriteString(toc[i].Text)
		b.WriteByte('\n')
		writeHeadings(b, toc[i].Children)
	}
}

// Rendered is what a page's search entry takes of its markdown: its
// plain text, its code, and the rendering's gen; nil for a page without
// markdown.
type Rendered struct {
	Text, Code string
	Gen        uint64
	// Unknown: the rendering holds no text (it came from the persistent
	// cache, which keeps none, or its text was dropped once its fragment
	// was written): a fragment or terms made of it need the markdown
	// rendered again.
	Unknown bool
}

// Indexed reports whether p, rendered as r, belongs in lang's index.
func Indexed(lang string, p *render.Page, r *Rendered) bool {
	return p.Lang == lang && r != nil && Searchable(p)
}

// SearchFingerprint covers what lang's search index holds: its pages and
// their markdown renderings.
func SearchFingerprint(lang string, pages []*render.Page, rs []*Rendered) uint64 {
	h := cache.NewHasher()
	for i, p := range pages {
		if Indexed(lang, p, rs[i]) {
			h.Str(p.URL)
			h.Str(p.Title)
			h.Num(int64(p.Part))
			h.Num(int64(rs[i].Gen))
		}
	}
	return h.Sum()
}

// SearchEntry is one page of a language's search index as the write
// stage takes it: the page's document, and the fingerprint of what its
// terms and its fragment are made of (its URL, title, part and
// rendering), by which both are reused.
type SearchEntry struct {
	Doc search.Doc
	FP  uint64
	// Unknown: Doc has no text (Rendered.Unknown).
	Unknown bool
}

// SearchEntries are lang's entries: each indexed page of pages, whose
// markdown is rs[i], in the order of pages.
func SearchEntries(lang string, pages []*render.Page, rs []*Rendered) []SearchEntry {
	n := 0
	for i, p := range pages {
		if Indexed(lang, p, rs[i]) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	es := make([]SearchEntry, 0, n)
	for i, p := range pages {
		if Indexed(lang, p, rs[i]) {
			es = append(es, SearchEntryOf(p, rs[i]))
		}
	}
	return es
}

// SearchEntryOf is the entry of p, rendered as r.
func SearchEntryOf(p *render.Page, r *Rendered) SearchEntry {
	return searchEntry(p, r, headingText(p.TOC), headingIDs(p.TOC))
}

// searchEntry is the entry of p, rendered as r, whose headings are
// headings (headingText) with the ids ids (headingIDs).
func searchEntry(p *render.Page, r *Rendered, headings, ids string) SearchEntry {
	h := cache.NewHasher()
	h.Str(p.URL)
	h.Str(p.Title)
	h.Num(int64(p.Part))
	h.Num(int64(r.Gen))
	return SearchEntry{Doc: searchDoc(p, headings, ids, r.Text, r.Code), FP: h.Sum(), Unknown: r.Unknown}
}

// Headings makes the search entries of one build after another
// (Entries), keeping each page's heading text by its table of contents:
// a page whose data the build took whole from the last one has the very
// same (Renderer.AssembleGroup), and its headings are not gathered
// again. Tables of contents are told apart by identity, and none
// changes once made. Its zero value is ready; a nil *Headings keeps
// nothing. It is safe for concurrent use by calls for different
// languages.
type Headings struct {
	mu    sync.Mutex
	langs map[string]*headingsOf
}

// headingsOf is the heading text of each table of contents of one
// language's pages, of the last call (last) and of this one (next).
type headingsOf struct {
	last, next map[*render.TOCEntry]tocText
}

// tocText is a table of contents, its heading text and their ids; the
// table is kept, so that no other is made at its address while it is
// known.
type tocText struct {
	toc       []render.TOCEntry
	text, ids string
}

// Entries is SearchEntries(lang, pages, rs), each page's headings taken
// from the last call for lang when its table of contents is the same.
func (hs *Headings) Entries(lang string, pages []*render.Page, rs []*Rendered) []SearchEntry {
	if hs == nil {
		return SearchEntries(lang, pages, rs)
	}
	hs.mu.Lock()
	if hs.langs == nil {
		hs.langs = map[string]*headingsOf{}
	}
	m := hs.langs[lang]
	if m == nil {
		m = &headingsOf{last: map[*render.TOCEntry]tocText{}, next: map[*render.TOCEntry]tocText{}}
		hs.langs[lang] = m
	}
	hs.mu.Unlock()
	n := 0
	for i, p := range pages {
		if Indexed(lang, p, rs[i]) {
			n++
		}
	}
	var es []SearchEntry
	if n > 0 {
		es = make([]SearchEntry, 0, n)
	}
	for i, p := range pages {
		if !Indexed(lang, p, rs[i]) {
			continue
		}
		var t tocText
		if toc := p.TOC; len(toc) > 0 {
			var ok bool
			t, ok = m.last[&toc[0]]
			if !ok || len(t.toc) != len(toc) {
				t = tocText{toc: toc, text: headingText(toc), ids: headingIDs(toc)}
			}
			m.next[&toc[0]] = t
		}
		es = append(es, searchEntry(p, rs[i], t.text, t.ids))
	}
	m.last, m.next = m.next, m.last
	clear(m.next)
	return es
}

// SearchURLs are the URLs of the pages of st that lang's search index
// holds, as SearchEntries finds them once the pages are rendered: every
// page of lang with a source file but its 404 page, so that the names of
// their fragments are known before (search.NewFragments).
func SearchURLs(st *site.Site, lang string) []string {
	var urls []string
	for _, sp := range st.Pages {
		if sp.Lang == lang && sp.Source != nil && sp.Kind != site.KindNotFound && sp.Kind != site.KindRoot {
			urls = append(urls, sp.URL)
		}
	}
	return urls
}

// SearchIndex builds lang's index of es: each page's terms are known's
// when it has them for the entry's fingerprint, else the page is
// tokenized now, those on every core. It returns the index and the pages
// with their terms, for the caches to keep.
func SearchIndex(lang string, es []SearchEntry, known func(SearchEntry) (search.Terms, bool), opts search.Options) (*search.Built, []search.Page) {
	ps := make([]search.Page, len(es))
	var todo []int
	for i, e := range es {
		ps[i].URL, ps[i].FP = e.Doc.URL, e.FP
		if t, ok := known(e); ok {
			ps[i].Terms = t
		} else {
			todo = append(todo, i)
		}
	}
	var an search.Analyzer
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(len(todo), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				ps[i].Terms = an.Analyze(es[i].Doc)
			}
		})
	}
	for _, i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	return search.Build(lang, ps, opts), ps
}

// SearchFragments calls put with the path and the fingerprint of each
// entry's fragment (that of its entry) and a function that makes it of
// doc(entry), on every core; each call is one entry's.
func SearchFragments(lang string, es []SearchEntry, opts search.Options, doc func(SearchEntry) search.Doc, put func(p string, fp uint64, make func() []byte)) {
	urls := make([]string, len(es))
	for i, e := range es {
		urls[i] = e.Doc.URL
	}
	fr := search.NewFragments(lang, urls, opts)
	var wg sync.WaitGroup
	next := make(chan SearchEntry)
	for range min(len(es), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for e := range next {
				if p, ok := fr.Path(e.Doc.URL); ok {
					put(p, e.FP, func() []byte { f, _ := fr.Make(doc(e)); return f.Data })
				}
			}
		})
	}
	for _, e := range es {
		next <- e
	}
	close(next)
	wg.Wait()
}
