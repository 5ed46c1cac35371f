package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Index is a built index read back (Load), ready for Search.
type Index struct {
	Lang       string
	first      []string // each shard's first key
	shardNames []string
	shards     []*shardData
	pageNames  []string   // each page's fragment name, by page number
	pages      []pageData // by page number

	mu   sync.Mutex
	text map[int]pageText // each page's text tokenized, once a snippet needs it
}

// pageText is a page's text as snippets read it.
type pageText struct {
	rs   []rune
	toks []rtoken
}

// textOf tokenizes page d's text once.
func (idx *Index) textOf(d int) pageText {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	pt, ok := idx.text[d]
	if !ok {
		rs := []rune(idx.pages[d].text)
		pt = pageText{rs, tokenizeRunes(rs)}
		if idx.text == nil {
			idx.text = map[int]pageText{}
		}
		idx.text[d] = pt
	}
	return pt
}

type shardData struct {
	keys []string // sorted
	id   map[string]int
	idf  []int // 0 for a contains entry
	post [][]posting
}

type pageData struct {
	url, title, text string
	part             int
	sections         []sectionAt
}

type posting struct{ doc, w int }

// manifestData is the manifest as stored: the JSON object in its script.
type manifestData struct {
	V      int             `json:"v"`
	Lang   string          `json:"lang"`
	First  string          `json:"first"`
	Shards string          `json:"shards"`
	Pages  string          `json:"pages"`
	Shard  json.RawMessage `json:"shard"`
	Page   json.RawMessage `json:"page"`
}

type shardJSON struct {
	Keys string `json:"keys"`
	Post string `json:"post"`
}

type fragmentJSON struct {
	URL   string              `json:"url"`
	Title string              `json:"title"`
	Part  int                 `json:"part"`
	Text  string              `json:"text"`
	Sec   [][]json.RawMessage `json:"sec"`
}

// Load reads lang's index through read, which gives the files of a built
// site by site-absolute path: its manifest, every shard and every page's
// fragment, each checked.
func Load(lang string, read func(p string) ([]byte, bool)) (*Index, error) {
	mp := IndexPath(lang)
	script, ok := read(mp)
	if !ok {
		return nil, fmt.Errorf("search index %s: not found", mp)
	}
	head := string(registry([]byte("globalThis.kakehashiSearch=globalThis.kakehashiSearch||{};\n"), lang)) + "="
	var m manifestData
	if err := readScript(script, head, &m); err != nil {
		return nil, fmt.Errorf("search index %s: %w", mp, err)
	}
	if m.V != formatVersion {
		return nil, fmt.Errorf("search index %s: format %d, want %d", mp, m.V, formatVersion)
	}
	if m.Lang != lang || string(m.Shard) != "{}" || string(m.Page) != "{}" {
		return nil, fmt.Errorf("search index %s: not the manifest of %q", mp, lang)
	}
	idx := &Index{Lang: lang, first: fields(m.First)}
	names := fields(m.Shards)
	if len(names) != len(idx.first) {
		return nil, fmt.Errorf("search index %s: %d first keys for %d shards", mp, len(idx.first), len(names))
	}
	if !sort.StringsAreSorted(idx.first) {
		return nil, fmt.Errorf("search index %s: the shards' first keys are not sorted", mp)
	}
	pages := fields(m.Pages)
	idx.shardNames, idx.pageNames = names, pages
	for _, name := range names {
		p := shardPath(lang, name)
		sh, err := loadShard(read, p, string(registry(nil, lang))+`.shard["`+name+`"]=`)
		if err != nil {
			return nil, err
		}
		idx.shards = append(idx.shards, sh)
	}
	for i, sh := range idx.shards {
		p := shardPath(lang, names[i])
		if len(sh.keys) == 0 || sh.keys[0] != idx.first[i] || i+1 < len(idx.first) && sh.keys[len(sh.keys)-1] >= idx.first[i+1] {
			return nil, fmt.Errorf("search index %s: its keys are not those the manifest gives it", p)
		}
		for _, ps := range sh.post {
			for _, q := range ps {
				if q.doc >= len(pages) {
					return nil, fmt.Errorf("search index %s: a posting names page %d of %d", p, q.doc, len(pages))
				}
			}
		}
	}
	for _, name := range pages {
		p := fragmentPath(lang, name)
		b, ok := read(p)
		if !ok {
			return nil, fmt.Errorf("search index %s: not found", p)
		}
		var f fragmentJSON
		if err := readScript(b, string(registry(nil, lang))+`.page["`+name+`"]=`, &f); err != nil {
			return nil, fmt.Errorf("search index %s: %w", p, err)
		}
		secs, err := readSections(f)
		if err != nil {
			return nil, fmt.Errorf("search index %s: %w", p, err)
		}
		idx.pages = append(idx.pages, pageData{url: f.URL, title: f.Title, text: f.Text, part: f.Part, sections: secs})
	}
	return idx, nil
}

// readSections checks a fragment's sections: each [offset, length, id],
// in order, within its text.
func readSections(f fragmentJSON) ([]sectionAt, error) {
	var out []sectionAt
	n := utf8.RuneCountInString(f.Text)
	for k, r := range f.Sec {
		var s sectionAt
		if len(r) == 1 && k == len(f.Sec)-1 && k > 0 {
			// where the prose ends
			if json.Unmarshal(r[0], &s.off) != nil || s.off < out[len(out)-1].off || s.off > n {
				return nil, errors.New("the prose's end is not in the text, after its sections")
			}
			break
		}
		if len(r) != 3 || json.Unmarshal(r[0], &s.off) != nil || json.Unmarshal(r[1], &s.n) != nil || json.Unmarshal(r[2], &s.id) != nil {
			return nil, errors.New("a section is not [offset, length, id]")
		}
		if s.off < 0 || s.n <= 0 || s.off+s.n > n || s.id == "" || len(out) > 0 && s.off < out[len(out)-1].off {
			return nil, fmt.Errorf("section %q is not in the text, in order", s.id)
		}
		out = append(out, s)
	}
	return out, nil
}

// Sections returns where the sections of page d are in its text: for
// each, its heading's id, its offset and length in code points.
func (idx *Index) Sections(d int) (ids []string, offs, lens []int) {
	for _, s := range idx.pages[d].sections {
		ids, offs, lens = append(ids, s.id), append(offs, s.off), append(lens, s.n)
	}
	return
}

// readScript decodes the JSON of a script that is head, the JSON and ";".
func readScript(script []byte, head string, v any) error {
	if !bytes.HasPrefix(script, []byte(head)) {
		return errors.New("not a kakehashi search index")
	}
	body := bytes.TrimSpace(script[len(head):])
	if !bytes.HasSuffix(body, []byte(";")) {
		return errors.New("cut short")
	}
	return json.Unmarshal(body[:len(body)-1], v)
}

// fields splits a space-separated list; "" is none.
func fields(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

func loadShard(read func(string) ([]byte, bool), p, head string) (*shardData, error) {
	b, ok := read(p)
	if !ok {
		return nil, fmt.Errorf("search index %s: not found", p)
	}
	var d shardJSON
	if err := readScript(b, head, &d); err != nil {
		return nil, fmt.Errorf("search index %s: %w", p, err)
	}
	sh := &shardData{keys: fields(d.Keys), id: map[string]int{}}
	recs := fields(d.Post)
	if len(recs) != len(sh.keys) {
		return nil, fmt.Errorf("search index %s: %d keys but %d posting lists", p, len(sh.keys), len(recs))
	}
	if !sort.StringsAreSorted(sh.keys) {
		return nil, fmt.Errorf("search index %s: its keys are not sorted", p)
	}
	for k, rec := range recs {
		vs, ok := readVarints(rec)
		if !ok || len(vs) < 1 || len(vs)%2 != 1 {
			return nil, fmt.Errorf("search index %s: bad posting list for %q", p, sh.keys[k])
		}
		sh.id[sh.keys[k]] = k
		sh.idf = append(sh.idf, vs[0])
		var ps []posting
		doc := 0
		for j := 1; j < len(vs); j += 2 {
			if j > 1 && vs[j] == 0 {
				return nil, fmt.Errorf("search index %s: a page twice in the postings of %q", p, sh.keys[k])
			}
			doc += vs[j]
			ps = append(ps, posting{doc, vs[j+1]})
		}
		sh.post = append(sh.post, ps)
	}
	return sh, nil
}

// Hit is one page found by Search.
type Hit struct {
	Doc     int // page number in the index
	URL     string
	Part    int
	Title   string
	Matched int // query terms found in the page
	Terms   int // query terms in all
	Score   int
	Snippet []Segment
}

// Segment is a piece of a snippet; Mark is set on the pieces that match.
type Segment struct {
	Text string
	Mark bool
}

// Query tuning, shared with search.js.
const (
	maxTerms      = 32
	snippetRunes  = 100 // snippet window
	snippetLead   = 30  // context kept before the first match
	ellipsis      = "…"
	minPrefixRune = 2 // a Latin last word shorter than this is not a prefix
)

// queryTerm is one distinct term of a query and how it expands.
type queryTerm struct {
	text string
	kind expandKind
}

type expandKind int

const (
	expandNone     expandKind = iota
	expandContains            // a lone Japanese or Hangul character: any key holding it (its contains entry)
	expandPrefix              // the query's last Latin word: any key it begins
)

// queryTerms are the distinct terms of query, at most maxTerms, each with
// its expansion.
func queryTerms(query string) []queryTerm {
	toks := tokenizeRunes([]rune(query))
	if len(toks) == 0 {
		return nil
	}
	last := toks[len(toks)-1].text
	var out []queryTerm
	seen := map[string]bool{}
	for _, t := range toks {
		if !seen[t.text] && len(out) < maxTerms {
			seen[t.text] = true
			out = append(out, queryTerm{t.text, expansion(t.text, t.text == last)})
		}
	}
	return out
}

func expansion(t string, isLast bool) expandKind {
	rs := []rune(t)
	if len(rs) == 1 {
		if c := classOf(rs[0]); c == clCJK || c == clHangul {
			return expandContains
		}
	}
	if !isLast || len(rs) < minPrefixRune {
		return expandNone
	}
	for _, r := range rs {
		if classOf(r) != clWord {
			return expandNone
		}
	}
	return expandPrefix
}

// matches tells whether a token of a page's text is one the query
// matched, for the snippet's marks: the term itself, a key its prefix
// expansion begins, or one holding its lone character. Every token of a
// page's text is one of its keys, so these are exactly the keys through
// which the page matched.
func (q queryTerm) matches(tok string) bool {
	switch q.kind {
	case expandPrefix:
		return strings.HasPrefix(tok, q.text)
	case expandContains:
		return strings.HasPrefix(tok, q.text) || strings.HasSuffix(tok, q.text)
	}
	return tok == q.text
}

// shardOf is the shard whose keys would hold key, or -1 before the first.
func (idx *Index) shardOf(key string) int {
	return sort.Search(len(idx.first), func(i int) bool { return idx.first[i] > key }) - 1
}

// prefixShards are the shards that may hold a key beginning with t: the
// one t would be in, then each that begins with such a key.
func (idx *Index) prefixShards(t string) []int {
	i := idx.shardOf(t)
	var out []int
	if i >= 0 {
		out = append(out, i)
	}
	for j := i + 1; j < len(idx.first) && strings.HasPrefix(idx.first[j], t); j++ {
		out = append(out, j)
	}
	return out
}

// termShards are the shards term q needs.
func (idx *Index) termShards(q queryTerm) []int {
	switch q.kind {
	case expandPrefix:
		return idx.prefixShards(q.text)
	case expandContains:
		a, b := idx.shardOf(q.text), idx.shardOf(q.text+containsMark)
		switch {
		case a < 0:
			if b < 0 {
				return nil
			}
			return []int{b}
		case a == b:
			return []int{a}
		}
		return []int{a, b}
	}
	if i := idx.shardOf(q.text); i >= 0 {
		return []int{i}
	}
	return nil
}

// shardsFor lists, sorted, the shards a query reads: those the search box
// loads for it before it ranks.
func (idx *Index) shardsFor(query string) []int {
	seen := map[int]bool{}
	var out []int
	for _, q := range queryTerms(query) {
		for _, i := range idx.termShards(q) {
			if !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	sort.Ints(out)
	return out
}

// keyRef is a key a query term matches through.
type keyRef struct {
	shard, key int
	half       bool // a prefix match: half weight
}

// refs are the keys term q matches through.
func (idx *Index) refs(q queryTerm) []keyRef {
	var out []keyRef
	exact := func(k string) {
		if i := idx.shardOf(k); i >= 0 {
			if id, ok := idx.shards[i].id[k]; ok {
				out = append(out, keyRef{i, id, false})
			}
		}
	}
	exact(q.text)
	switch q.kind {
	case expandContains:
		exact(q.text + containsMark)
	case expandPrefix:
		for _, i := range idx.prefixShards(q.text) {
			sh := idx.shards[i]
			for id := sort.SearchStrings(sh.keys, q.text); id < len(sh.keys) && strings.HasPrefix(sh.keys[id], q.text); id++ {
				if sh.keys[id] != q.text {
					out = append(out, keyRef{i, id, true})
				}
			}
		}
	}
	return out
}

// Search ranks the pages of idx for query, best first, from the shards
// the query needs alone (shardsFor). A page must hold at least half of
// the query's distinct terms (rounded up), so the bigram of a Korean
// particle (쿼럼은 → 럼은) that no page has does not lose the match.
// Pages are ordered by terms matched, then by score: the sum over matched
// terms of the best, over the keys the term matches through, of idf ×
// weight (quantised BM25, plus a bonus when the title has the term), half
// of it through a prefix, or the score of a lone character's contains
// entry; ties go to the lower page number. search.js does the same in
// integers, so both rank identically. Each hit has a snippet of its
// page's fragment.
func Search(idx *Index, query string) []Hit {
	if idx == nil {
		return nil
	}
	qs := queryTerms(query)
	if len(qs) == 0 {
		return nil
	}
	nd := len(idx.pages)
	matched := make([]int, nd)
	score := make([]int, nd)
	best := make([]int, nd)
	for _, q := range qs {
		for d := range best {
			best[d] = -1
		}
		for _, kr := range idx.refs(q) {
			sh := idx.shards[kr.shard]
			idf := sh.idf[kr.key]
			for _, p := range sh.post[kr.key] {
				s := p.w
				if idf > 0 {
					s = idf * (p.w>>1 + titleBonus*(p.w&1))
				}
				if kr.half {
					s >>= 1
				}
				best[p.doc] = max(best[p.doc], s)
			}
		}
		for d, s := range best {
			if s >= 0 {
				matched[d]++
				score[d] += s
			}
		}
	}
	need := (len(qs) + 1) / 2
	var hits []Hit
	for d, e := range idx.pages {
		if matched[d] < need || matched[d] == 0 {
			continue
		}
		hits = append(hits, Hit{
			Doc: d, URL: e.url, Part: e.part, Title: e.title,
			Matched: matched[d], Terms: len(qs), Score: score[d],
			Snippet: snippetOf(idx.textOf(d), qs),
		})
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.Matched != b.Matched {
			return a.Matched > b.Matched
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.Doc < b.Doc
	})
	return hits
}

// Files builds lang's index of the docs of that language and returns
// each of its files by site-absolute path: the manifest, the shards and a
// fragment per page. It is Build and Fragment in one, for tests and tools.
func Files(lang string, docs []Doc, opts Options) (map[string][]byte, Stats) {
	var ix Indexer
	var mine []Doc
	for _, d := range docs {
		if d.Lang == lang {
			mine = append(mine, d)
		}
	}
	ix.AddAll(mine)
	b := ix.Build(lang, opts)
	out := map[string][]byte{}
	for _, f := range b.Files() {
		out[f.Path] = f.Data
	}
	for _, d := range mine {
		if t, _ := ix.Terms(lang, d.URL); t != ix.an.Analyze(d) {
			continue // another page at its URL, the one the index took
		}
		if f, ok := b.Make(d); ok {
			out[f.Path] = f.Data
		}
	}
	return out, b.Stats
}
