package search

import (
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
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
	// blocks. Its fragment keeps it for snippets.
	Text string
	// Code is the text of the page's code blocks; it is indexed, and kept
	// after Text for snippets.
	Code string
	// HeadingIDs holds the id of each line of Headings (the anchor the
	// markdown renderer writes), one a line: the fragment says where each
	// heading's text begins in Text, so that the search box can show a
	// page's matching sections and link to them. It is not indexed.
	HeadingIDs string
}

// Options change how Build writes an index.
type Options struct {
	// ExplicitIndex makes every stored URL that ends in "/" end in
	// "/index.html" instead, for a copy read from file://, where a folder
	// has no index.
	ExplicitIndex bool
	// ShardBytes is about the size of a shard, in bytes of its script
	// (a shard holds at least one key, so a key with a longer record
	// makes a longer one); 0 means DefaultShardBytes.
	ShardBytes int
}

// DefaultShardBytes is the size shards are cut at unless Options says
// otherwise: a query fetches a shard or two per term, so smaller shards
// cost fewer bytes per query and more files per index.
const DefaultShardBytes = 8 << 10

// Stats describes one built index.
type Stats struct {
	Lang          string
	Docs          int // pages indexed
	Keys          int // distinct terms, the contains keys among them
	Postings      int // (term, page) pairs
	Shards        int
	ManifestBytes int
	ShardBytes    int // all the shards'
	MaxShardBytes int // the largest shard's
}

// Page is one page of a language's index as Build takes it: its URL and
// its terms, and the fingerprint of what they are made of (the caller's;
// Update takes a page of the same fingerprint as the last build's for
// unchanged). Its fragment (Fragments.Make) is made apart, from its Doc.
type Page struct {
	URL   string
	Terms Terms
	FP    uint64
}

// Indexer collects pages, in any order and from any goroutine, and keeps
// each page's terms (not its text) by language. Add does the heavy part
// (tokenizing) at once, in the caller's goroutine, so pages can be indexed
// as they are rendered; Build then only merges and writes. The zero value
// is ready to use.
type Indexer struct {
	an    Analyzer
	mu    sync.Mutex
	langs map[string]map[string]Terms // by language, then page URL
}

// Add tokenizes d and keeps its terms in the index of d.Lang. Of two
// pages at one URL (which a site does not have) it keeps one, the same
// whatever the order of the calls.
func (ix *Indexer) Add(d Doc) {
	t := ix.an.Analyze(d)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.langs == nil {
		ix.langs = map[string]map[string]Terms{}
	}
	if ix.langs[d.Lang] == nil {
		ix.langs[d.Lang] = map[string]Terms{}
	}
	if old, ok := ix.langs[d.Lang][d.URL]; !ok || t.enc < old.enc {
		ix.langs[d.Lang][d.URL] = t
	}
}

// AddAll adds docs, tokenizing them on every core.
func (ix *Indexer) AddAll(docs []Doc) {
	var wg sync.WaitGroup
	next := make(chan Doc)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for d := range next {
				ix.Add(d)
			}
		})
	}
	for _, d := range docs {
		next <- d
	}
	close(next)
	wg.Wait()
}

// Terms returns the terms Add kept for the page of lang at url.
func (ix *Indexer) Terms(lang, url string) (Terms, bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	t, ok := ix.langs[lang][url]
	return t, ok
}

// Pages returns the pages of lang, by URL.
func (ix *Indexer) Pages(lang string) []Page {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ps := make([]Page, 0, len(ix.langs[lang]))
	for u, t := range ix.langs[lang] {
		ps = append(ps, Page{URL: u, Terms: t})
	}
	slices.SortFunc(ps, func(a, b Page) int { return strings.Compare(a.URL, b.URL) })
	return ps
}

// Langs returns the languages that have at least one page, sorted.
func (ix *Indexer) Langs() []string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var out []string
	for l, ps := range ix.langs {
		if len(ps) > 0 {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// Build builds the index of lang from the pages Add kept (see Build).
func (ix *Indexer) Build(lang string, opts Options) *Built {
	return Build(lang, ix.Pages(lang), opts)
}

// IndexPath is the site-absolute path of the manifest of lang's index,
// the script the theme's search box loads first; the shards and the
// pages' fragments are in the folder DataDir beside it.
func IndexPath(lang string) string { return "/" + lang + "/search-index.js" }

// DataDir is the site-absolute path of the folder of lang's shards and
// fragments, which the manifest names (ShardPrefix, Fragments.Path).
func DataDir(lang string) string { return "/" + lang + "/search-data/" }

// ShardPrefix begins the site-absolute path of every shard of lang's
// index, and of nothing else.
func ShardPrefix(lang string) string { return DataDir(lang) + "s-" }

func shardPath(lang, name string) string { return ShardPrefix(lang) + name + ".js" }

func fragmentPath(lang, name string) string { return DataDir(lang) + "p-" + name + ".js" }

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
	// avgSteps is how finely page lengths and their average are rounded,
	// in steps per doubling: a page edited a little mostly keeps its
	// rounded length, and the average its own, which leaves the weights of
	// its terms but those it gained or lost, and so the shards that hold
	// none of those, as they were.
	avgSteps = 32
)

// containsMark follows a Japanese or Hangul character in the key of its
// contains entry: the best half-weight score, in each page, of the keys
// holding the character, which a query of that character alone matches.
// The tokenizer never emits it, and it sorts before every character that
// can follow in a key, so the entry sits between the lone character's key
// and its bigrams, in the same shard as a rule.
const containsMark = "*"

// formatVersion is bumped whenever the manifest, the shards, the
// fragments or the scoring change shape.
const formatVersion = 3

// rawPosting is a term's weight in a page, in 8 bytes: on a large site
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
