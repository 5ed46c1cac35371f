package search

import (
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Doc is one page as the index sees it.
type Doc struct {
	Lang string // the page's language: the index the page goes into
	// URL is the page's site-absolute path, e.g. "/ja/cka/05-ha-cluster/".
	URL   string
	Part  int // part number in its series, 0 for other pages
	Title string
	// Headings holds the page's heading texts, one a line; they weigh more
	// than prose. Text may contain them too.
	Headings string
	// Text is the page's readable prose in reading order, without code
	// blocks. It is stored in the index for snippets.
	Text string
	// Code is the text of the page's code blocks; it is indexed and stored
	// after Text for snippets.
	Code string
}

// Options change how Build writes URLs.
type Options struct {
	// ExplicitIndex makes every stored URL that ends in "/" end in
	// "/index.html" instead, for a copy read from file://, where a folder
	// has no index.
	ExplicitIndex bool
}

// Stats describes one built index.
type Stats struct {
	Lang      string
	Docs      int // pages indexed
	Keys      int // distinct terms
	Postings  int // (term, page) pairs
	TextBytes int // stored snippet text, in bytes of UTF-8
	Bytes     int // the whole script
}

// Indexer collects pages, in any order and from any goroutine, and builds
// one index per language. Add does the heavy part (tokenizing) at once, in
// the caller's goroutine, so pages can be indexed as they are rendered;
// Build then only merges and writes. The zero value is ready to use.
type Indexer struct {
	mu    sync.Mutex
	langs map[string]*langIndex
	// tokenizers keeps tokenizers (and their buffers) between pages.
	tokenizers sync.Pool
}

// langIndex is one language's pages and postings, in the order Add saw
// them; Build renumbers the pages by URL.
type langIndex struct {
	docs []indexedDoc
	raw  map[string][]rawPosting
	// pairs holds the postings of Japanese and Hangul bigrams (and lone
	// characters) by pairKey: most terms of a page are these, and a number
	// is cheaper to count by than a string.
	pairs map[uint64][]rawPosting
}

// pairKey packs one or two characters of a Japanese or Hangul run: a
// character fits in 21 bits, and no such character is U+0000.
func pairKey(cs []nchar) uint64 {
	k := uint64(cs[0].r) << 21
	if len(cs) == 2 {
		k |= uint64(cs[1].r)
	}
	return k
}

// pairString is the term pairKey packed.
func pairString(k uint64) string {
	var b [2 * utf8.UTFMax]byte
	n := utf8.EncodeRune(b[:], rune(k>>21))
	if r := rune(k & (1<<21 - 1)); r != 0 {
		n += utf8.EncodeRune(b[n:], r)
	}
	return string(b[:n])
}

// indexedDoc is what the index keeps of a page.
type indexedDoc struct {
	url, title, text string
	part             int
	len              float64 // terms, weighted by field, for BM25
}

// rawPosting is a term's count in a page, in 8 bytes: on a large site
// there are millions. Counts are sums of whole-number boosts.
type rawPosting struct {
	doc int32
	tf  uint32 // the count × 2, + 1 when the title has the term
}

func newRawPosting(doc int32, st termStat) rawPosting {
	p := rawPosting{doc: doc, tf: uint32(st.tf) << 1}
	if st.title {
		p.tf |= 1
	}
	return p
}

type termStat struct {
	tf    float64
	title bool
}

// Add tokenizes d and adds it to the index of d.Lang.
func (ix *Indexer) Add(d Doc) {
	tk, _ := ix.tokenizers.Get().(*tokenizer)
	if tk == nil {
		tk = &tokenizer{}
	}
	defer ix.tokenizers.Put(tk)
	// Term counts of this page: the maps (kept with the tokenizer) give
	// each term its place in stats.
	if tk.terms == nil {
		tk.terms, tk.pairs = map[string]int{}, map[uint64]int{}
	}
	clear(tk.terms)
	clear(tk.pairs)
	tk.stats = tk.stats[:0]
	e := indexedDoc{url: d.URL, title: collapse(d.Title), text: storedText(d), part: d.Part}
	add := func(s string, boost float64, title bool) {
		tk.prepare(s)
		walkSpans(tk.cs, tk.cl, func(a, b int, cjk bool) {
			var i int
			var ok bool
			if cjk {
				k := pairKey(tk.cs[a:b])
				if i, ok = tk.pairs[k]; !ok {
					i = len(tk.stats)
					tk.pairs[k] = i
					tk.stats = append(tk.stats, termStat{})
				}
			} else {
				tk.buf = appendTerm(tk.buf[:0], tk.cs[a:b])
				if i, ok = tk.terms[string(tk.buf)]; !ok { // no copy of a known term
					i = len(tk.stats)
					tk.terms[string(tk.buf)] = i
					tk.stats = append(tk.stats, termStat{})
				}
			}
			st := &tk.stats[i]
			st.tf += boost
			st.title = st.title || title
			e.len++
		})
	}
	add(d.Title, boostTitle, true)
	add(d.Headings, boostHeading, false)
	add(d.Text, 1, false)
	add(d.Code, 1, false)

	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.langs == nil {
		ix.langs = map[string]*langIndex{}
	}
	li := ix.langs[d.Lang]
	if li == nil {
		li = &langIndex{raw: map[string][]rawPosting{}, pairs: map[uint64][]rawPosting{}}
		ix.langs[d.Lang] = li
	}
	id := int32(len(li.docs))
	li.docs = append(li.docs, e)
	for t, i := range tk.terms {
		st := tk.stats[i]
		li.raw[t] = append(li.raw[t], newRawPosting(id, st))
	}
	for k, i := range tk.pairs {
		st := tk.stats[i]
		li.pairs[k] = append(li.pairs[k], newRawPosting(id, st))
	}
}

// AddAll adds docs, tokenizing them on every core.
func (ix *Indexer) AddAll(docs []Doc) {
	var wg sync.WaitGroup
	next := make(chan Doc)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range next {
				ix.Add(d)
			}
		}()
	}
	for _, d := range docs {
		next <- d
	}
	close(next)
	wg.Wait()
}

// Langs returns the languages that have at least one page, sorted.
func (ix *Indexer) Langs() []string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var out []string
	for l, li := range ix.langs {
		if len(li.docs) > 0 {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// IndexPath is the site-absolute path where the index of lang is written;
// the theme's search box points at it.
func IndexPath(lang string) string { return "/" + lang + "/search-index.js" }

// Scoring constants, shared with search.js. Field weights multiply a term's
// count in that field; BM25's k1 and b shape the saturation; weights are
// quantised to 1..maxQ and inverse document frequencies to idfScale steps.
const (
	boostTitle   = 3
	boostHeading = 2
	bm25K1       = 1.2
	bm25B        = 0.75
	maxQ         = 15
	idfScale     = 8
	// titleBonus is added to a term's weight in a page whose title has it.
	titleBonus = 8
)

// data is the index as stored: the JSON object inside the script.
type data struct {
	V     int      `json:"v"`
	Lang  string   `json:"lang"`
	URL   []string `json:"url"`
	Part  []int    `json:"part"`
	Title []string `json:"title"`
	Text  []string `json:"text"`
	// Keys are the terms, sorted, separated by one space.
	Keys string `json:"keys"`
	// Post holds one record per key, separated by one space: the key's
	// quantised idf, then for each page holding it the gap from the
	// previous page id and its weight (quantised BM25 term weight × 2 +
	// 1 if the title has it), all as varints (see varint).
	Post string `json:"post"`
}

// formatVersion is bumped whenever data or the scoring changes shape.
const formatVersion = 1

// Build writes the index of lang as a script that adds it to
// globalThis.kakehashiSearch[lang]. Equal inputs give equal bytes, whatever
// the order of Add calls.
func (ix *Indexer) Build(lang string, opts Options) ([]byte, Stats) {
	ix.mu.Lock()
	li := ix.langs[lang]
	ix.mu.Unlock()
	if li == nil {
		li = &langIndex{}
	}
	d, newID, lens, avg := li.pages(lang, opts)
	terms, keyBytes := li.terms()
	stats := Stats{Lang: lang, Docs: len(d.URL)}
	kb, pb := encodePostings(terms, keyBytes, len(li.docs), newID, lens, avg, &stats)
	stats.Keys = len(terms)
	for _, t := range d.Text {
		stats.TextBytes += len(t)
	}
	b := writeScript(&d, kb, pb, stats.TextBytes)
	stats.Bytes = len(b)
	return b, stats
}

// pages numbers the pages by URL, whatever the order they were added in,
// and returns their data, each added page's new number, the pages'
// lengths by number and the average length.
func (li *langIndex) pages(lang string, opts Options) (d data, newID []int32, lens []float64, avg float64) {
	order := make([]int, len(li.docs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := li.docs[order[a]], li.docs[order[b]]
		if x.url != y.url {
			return x.url < y.url
		}
		if x.title != y.title {
			return x.title < y.title
		}
		return x.text < y.text
	})
	newID = make([]int32, len(order))
	d = data{V: formatVersion, Lang: lang}
	d.URL = make([]string, len(order))
	d.Part = make([]int, len(order))
	d.Title = make([]string, len(order))
	d.Text = make([]string, len(order))
	lens = make([]float64, len(order))
	total := 0.0
	for n, i := range order {
		e := li.docs[i]
		newID[i] = int32(n)
		url := e.url
		if opts.ExplicitIndex && strings.HasSuffix(url, "/") {
			url += "index.html"
		}
		d.URL[n], d.Part[n], d.Title[n], d.Text[n] = url, e.part, e.title, e.text
		lens[n] = e.len
		total += e.len
	}
	avg = 1.0
	if len(order) > 0 && total > 0 {
		avg = total / float64(len(order))
	}
	return d, newID, lens, avg
}

// termRaw is one key with its raw postings.
type termRaw struct {
	key string
	rs  []rawPosting
}

// terms returns the terms in key order and the bytes their keys take; a
// bigram never spells a word, but equal keys would be merged all the same.
func (li *langIndex) terms() ([]termRaw, int) {
	terms := make([]termRaw, 0, len(li.raw)+len(li.pairs))
	keyBytes := 0
	for t, rs := range li.raw {
		terms = append(terms, termRaw{t, rs})
		keyBytes += len(t) + 1
	}
	for k, rs := range li.pairs {
		t := pairString(k)
		terms = append(terms, termRaw{t, rs})
		keyBytes += len(t) + 1
	}
	slices.SortFunc(terms, func(a, b termRaw) int { return strings.Compare(a.key, b.key) })
	merged := terms[:0]
	for _, t := range terms {
		if m := len(merged); m > 0 && merged[m-1].key == t.key {
			merged[m-1].rs = append(slices.Clip(merged[m-1].rs), t.rs...)
			continue
		}
		merged = append(merged, t)
	}
	return merged, keyBytes
}

// encodePostings writes the keys, space-separated, and each key's
// record (see data.Post); ndocs is the number of pages added, newID and
// lens as pages returns them. It counts the postings in stats.
func encodePostings(terms []termRaw, keyBytes, ndocs int, newID []int32, lens []float64, avg float64, stats *Stats) (kb, pb []byte) {
	type posting struct{ doc, w int32 }
	var ps []posting // one term's postings, reused
	kb = make([]byte, 0, keyBytes)
	pb = make([]byte, 0, 4*ndocs+keyBytes)
	n := float64(len(newID))
	for k, t := range terms {
		ps = ps[:0]
		for _, r := range t.rs {
			doc := newID[r.doc]
			norm := bm25K1 * (1 - bm25B + bm25B*lens[doc]/avg)
			tf := float64(r.tf >> 1)
			s := tf * (bm25K1 + 1) / (tf + norm)
			q := int(math.Ceil(s / (bm25K1 + 1) * maxQ))
			q = min(max(q, 1), maxQ)
			w := q*2 + int(r.tf&1)
			ps = append(ps, posting{doc, int32(w)})
		}
		slices.SortFunc(ps, func(a, b posting) int { return int(a.doc - b.doc) })
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		if k > 0 {
			kb = append(kb, ' ')
			pb = append(pb, ' ')
		}
		kb = append(kb, t.key...)
		pb = appendVarint(pb, max(1, int(math.Round(idf*idfScale))))
		prev := 0
		for _, p := range ps {
			pb = appendVarint(pb, int(p.doc)-prev)
			pb = appendVarint(pb, int(p.w))
			prev = int(p.doc)
		}
		stats.Postings += len(ps)
	}
	return kb, pb
}

// storedText is what a page keeps in the index for snippets: its prose,
// then its code, with every run of white space made one space.
func storedText(d Doc) string {
	t, c := collapse(d.Text), collapse(d.Code)
	switch {
	case t == "":
		return c
	case c == "":
		return t
	}
	return t + " " + c
}

// collapse turns every run of white space (unicode.IsSpace) into one
// space and trims, in one pass; invalid UTF-8 becomes U+FFFD.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				space = b.Len() > 0
				i++
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			// Copy the run of ASCII that is not space at once.
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && !asciiSpace[s[j]] {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			i += size
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// asciiSpace is unicode.IsSpace for ASCII.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
