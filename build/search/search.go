package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Index is a built index read back, ready for Search.
type Index struct {
	Lang  string
	docs  []docEntry
	keys  []string // sorted
	keyID map[string]int
	idf   []int
	post  [][]posting
}

type docEntry struct {
	url, title, text string
	part             int
	folded           string // fold(title + " " + text), for the phrase bonus
}

type posting struct{ doc, w int }

// Load reads a script written by Build.
func Load(script []byte) (*Index, error) {
	const head = "globalThis.kakehashiSearch=globalThis.kakehashiSearch||{};\nglobalThis.kakehashiSearch["
	if !bytes.HasPrefix(script, []byte(head)) {
		return nil, errors.New("search index: not a kakehashi search index")
	}
	rest := script[len(head):]
	i := bytes.Index(rest, []byte("]="))
	if i < 0 {
		return nil, errors.New("search index: no assignment")
	}
	body := bytes.TrimSuffix(bytes.TrimSpace(rest[i+2:]), []byte(";"))
	var d data
	if err := json.Unmarshal(body, &d); err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	if d.V != formatVersion {
		return nil, fmt.Errorf("search index: format %d, want %d", d.V, formatVersion)
	}
	n := len(d.URL)
	if len(d.Part) != n || len(d.Title) != n || len(d.Text) != n {
		return nil, errors.New("search index: page table columns differ in length")
	}
	idx := &Index{Lang: d.Lang, keyID: map[string]int{}}
	for i := range n {
		idx.docs = append(idx.docs, docEntry{
			url: d.URL[i], part: d.Part[i], title: d.Title[i], text: d.Text[i],
			folded: fold(d.Title[i] + " " + d.Text[i]),
		})
	}
	if d.Keys != "" {
		idx.keys = strings.Split(d.Keys, " ")
	}
	var recs []string
	if d.Post != "" {
		recs = strings.Split(d.Post, " ")
	}
	if len(recs) != len(idx.keys) {
		return nil, fmt.Errorf("search index: %d keys but %d posting lists", len(idx.keys), len(recs))
	}
	for k, rec := range recs {
		vs, ok := readVarints(rec)
		if !ok || len(vs) < 1 || len(vs)%2 != 1 {
			return nil, fmt.Errorf("search index: bad posting list for %q", idx.keys[k])
		}
		idx.keyID[idx.keys[k]] = k
		idx.idf = append(idx.idf, vs[0])
		var ps []posting
		doc := 0
		for j := 1; j < len(vs); j += 2 {
			doc += vs[j]
			if doc >= n {
				return nil, fmt.Errorf("search index: posting for %q names page %d of %d", idx.keys[k], doc, n)
			}
			ps = append(ps, posting{doc, vs[j+1]})
		}
		idx.post = append(idx.post, ps)
	}
	return idx, nil
}

// Hit is one page found by Search.
type Hit struct {
	Doc     int // page id in the index
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

// term is one distinct query term and the index keys that can match it.
type term struct {
	keys []keyRef
}

type keyRef struct {
	id   int
	half bool // a prefix or contained-character match: half weight
}

// Search ranks the pages of idx for query, best first. A page must hold at
// least half of the query's distinct terms (rounded up), so the bigram of a
// Korean particle (쿼럼은 → 럼은) that no page has does not lose the match.
// Pages are ordered by terms matched, then by score: the sum over matched
// terms of idf × weight (quantised BM25, plus a bonus when the title has
// the term), raised by half when the folded query occurs as a phrase in the
// title or text; ties go to the lower page id. search.js does the same in
// integers, so both rank identically.
func Search(idx *Index, query string) []Hit {
	if idx == nil {
		return nil
	}
	toks := tokenizeRunes([]rune(query))
	var texts []string
	seen := map[string]bool{}
	for _, t := range toks {
		if !seen[t.text] && len(texts) < maxTerms {
			seen[t.text] = true
			texts = append(texts, t.text)
		}
	}
	if len(texts) == 0 {
		return nil
	}
	last := toks[len(toks)-1].text
	terms := make([]term, len(texts))
	for j, t := range texts {
		if id, ok := idx.keyID[t]; ok {
			terms[j].keys = append(terms[j].keys, keyRef{id, false})
		}
		switch expansion(t, t == last) {
		case expandContains:
			for id, k := range idx.keys {
				if k != t && (strings.HasPrefix(k, t) || strings.HasSuffix(k, t)) {
					terms[j].keys = append(terms[j].keys, keyRef{id, true})
				}
			}
		case expandPrefix:
			for id, k := range idx.keys {
				if k != t && strings.HasPrefix(k, t) {
					terms[j].keys = append(terms[j].keys, keyRef{id, true})
				}
			}
		}
	}

	nd := len(idx.docs)
	matched := make([]int, nd)
	score := make([]int, nd)
	docKeys := make([]map[string]bool, nd)
	best := make([]int, nd)
	for _, tm := range terms {
		for d := range best {
			best[d] = -1
		}
		for _, kr := range tm.keys {
			for _, p := range idx.post[kr.id] {
				s := idx.idf[kr.id] * (p.w>>1 + titleBonus*(p.w&1))
				if kr.half {
					s >>= 1
				}
				best[p.doc] = max(best[p.doc], s)
				if docKeys[p.doc] == nil {
					docKeys[p.doc] = map[string]bool{}
				}
				docKeys[p.doc][idx.keys[kr.id]] = true
			}
		}
		for d, s := range best {
			if s >= 0 {
				matched[d]++
				score[d] += s
			}
		}
	}

	need := (len(terms) + 1) / 2
	phrase := ""
	if len(terms) >= 2 {
		phrase = fold(query)
	}
	var hits []Hit
	for d, e := range idx.docs {
		if matched[d] < need || matched[d] == 0 {
			continue
		}
		s := score[d]
		if phrase != "" && strings.Contains(e.folded, phrase) {
			s += s >> 1
		}
		hits = append(hits, Hit{
			Doc: d, URL: e.url, Part: e.part, Title: e.title,
			Matched: matched[d], Terms: len(terms), Score: s,
			Snippet: snippet(e.text, docKeys[d]),
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

type expandKind int

const (
	expandNone     expandKind = iota
	expandContains            // a lone Japanese or Hangul character: any bigram holding it
	expandPrefix              // the query's last Latin word: any key it begins
)

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

// snippet cuts a window of text around the densest group of the given
// terms and marks them.
func snippet(text string, keys map[string]bool) []Segment {
	rs := []rune(text)
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	if len(keys) > 0 {
		for _, t := range tokenizeRunes(rs) {
			if keys[t.text] {
				spans = append(spans, span{t.start, t.end, t.text})
			}
		}
	}
	a, anchor := 0, 0
	bestCount := 0
	for _, s := range spans {
		lo := max(0, s.start-snippetLead)
		hi := lo + snippetRunes
		distinct := map[string]bool{}
		for _, o := range spans {
			if o.start >= lo && o.end <= hi {
				distinct[o.text] = true
			}
		}
		if len(distinct) > bestCount {
			bestCount, a, anchor = len(distinct), lo, s.start
		}
	}
	// start after a space rather than inside a word, when one is near
	for k := a; a > 0 && k < anchor; k++ {
		if rs[k] == ' ' {
			a = k + 1
			break
		}
	}
	e := min(len(rs), a+snippetRunes)
	// marks: spans inside the window, clipped, merged when they overlap,
	// touch or are one space apart
	var marks [][2]int
	for _, s := range spans {
		lo, hi := max(s.start, a), min(s.end, e)
		if lo >= hi {
			continue
		}
		if n := len(marks); n > 0 && (lo <= marks[n-1][1] || lo == marks[n-1][1]+1 && rs[lo-1] == ' ') {
			marks[n-1][1] = max(marks[n-1][1], hi)
			continue
		}
		marks = append(marks, [2]int{lo, hi})
	}
	var out []Segment
	addText := func(s string, mark bool) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Mark == mark {
			out[n-1].Text += s
			return
		}
		out = append(out, Segment{s, mark})
	}
	if a > 0 {
		addText(ellipsis, false)
	}
	p := a
	for _, m := range marks {
		addText(string(rs[p:m[0]]), false)
		addText(string(rs[m[0]:m[1]]), true)
		p = m[1]
	}
	addText(string(rs[p:e]), false)
	if e < len(rs) {
		addText(ellipsis, false)
	}
	return out
}

// SnippetText renders a snippet as plain text with the marked pieces in
// [brackets], for tests and terminals.
func SnippetText(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Mark {
			b.WriteString("[" + s.Text + "]")
		} else {
			b.WriteString(s.Text)
		}
	}
	return b.String()
}
