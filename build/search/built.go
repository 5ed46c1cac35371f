package search

import (
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// File is one file of a built index: its site-absolute path and bytes.
type File struct {
	Path string
	Data []byte
	// Sum is a shard's: the sum of its keys and records, which its name
	// is made of, and which names its bytes; 0 for another file. A shard
	// Update took as the last build made it has no Data (Built.Made).
	Sum uint64
}

// Built is one language's index: the manifest, which the search box loads
// first, and the shards, which it loads as queries need them. Each page's
// fragment (its URL, title, part and text, for the results shown) is made
// apart (Fragments), so that no page's text is held for the index.
type Built struct {
	Lang     string
	Manifest []byte // at IndexPath(Lang)
	Shards   []File
	Stats    Stats
	*Fragments
	state *head              // for State
	made  func(i int) []byte // makes the i-th shard's bytes (Made)
}

// Made is the bytes of the i-th shard: its Data, or, for a shard Update
// took as the last build made it, the same bytes made again.
func (b *Built) Made(i int) []byte {
	if d := b.Shards[i].Data; d != nil || b.made == nil {
		return d
	}
	return b.made(i)
}

// buildTerm is one key of the index being built and its postings: a raw
// weight per page until weigh, then its quantised weight (or, for a
// contains entry, its score).
type buildTerm struct {
	key  string
	ps   []rawPosting
	idf  int  // 0 on a contains entry
	pair bool // a Japanese or Hangul bigram or lone character
}

// Build builds the index of lang from pages, in any order: it numbers
// the pages by URL, merges their terms into postings, weighs them, adds
// the contains entries, and cuts the keys, sorted, into shards of about
// Options.ShardBytes, where the content of the keys decides the cuts, so
// that a change in one part of the index leaves the other shards as they
// were. Equal inputs give equal bytes.
func Build(lang string, pages []Page, opts Options) *Built {
	ps := slices.Clone(pages)
	slices.SortStableFunc(ps, func(a, b Page) int { return strings.Compare(a.URL, b.URL) })
	urls := make([]string, len(ps))
	for i, p := range ps {
		urls[i] = p.URL
	}
	names := pageNames(urls)
	terms, lens := merge(ps)
	weigh(terms, lens)
	terms = withContains(terms, len(ps))

	b := &Built{Lang: lang, Fragments: &Fragments{lang: lang, opts: opts, names: make(map[string]string, len(ps))}}
	for i, u := range urls {
		b.names[u] = names[i]
	}
	b.Stats = Stats{Lang: lang, Docs: len(ps), Keys: len(terms)}
	for _, t := range terms {
		b.Stats.Postings += len(t.ps)
	}
	var first, shardNames []string
	shards := cut(terms, opts.ShardBytes)
	for _, sh := range shards {
		first = append(first, sh.first)
		shardNames = append(shardNames, sh.name)
		data := shardScript(lang, sh)
		b.Shards = append(b.Shards, File{Path: shardPath(lang, sh.name), Data: data, Sum: sh.sum})
		b.Stats.ShardBytes += len(data)
		b.Stats.MaxShardBytes = max(b.Stats.MaxShardBytes, len(data))
	}
	uniqueNames(shardNames, b.Shards, lang)
	b.state = stateOf(lang, opts, ps, lens, shards, b.Shards)
	b.Stats.Shards = len(b.Shards)
	b.Manifest = manifestScript(lang, first, shardNames, names)
	b.Stats.ManifestBytes = len(b.Manifest)
	return b
}

// Files are the manifest and the shards.
func (b *Built) Files() []File {
	return append([]File{{Path: IndexPath(b.Lang), Data: b.Manifest}}, b.Shards...)
}

// Bundle is the whole index of b as one script: the manifest, then every
// shard and the fragments given, for a reader that would rather load it
// at once (the authoring server's, made when first read). The search box
// finds the shards and fragments already there and loads nothing more.
func Bundle(b *Built, fragments []File) []byte {
	n := len(b.Manifest)
	for _, f := range b.Shards {
		n += len(f.Data)
	}
	for _, f := range fragments {
		n += len(f.Data)
	}
	out := make([]byte, 0, n)
	out = append(out, b.Manifest...)
	for _, f := range b.Shards {
		out = append(out, f.Data...)
	}
	for _, f := range fragments {
		out = append(out, f.Data...)
	}
	return out
}

// merge turns the pages' terms, pages numbered by their order, into
// postings by key, sorted by key, and returns each page's length. The
// Latin terms and the Japanese and Hangul ones are merged apart, at once.
func merge(ps []Page) ([]buildTerm, []int) {
	lens := make([]int, len(ps))
	for doc, p := range ps {
		lens[doc] = p.Terms.Len()
	}
	var words, pairs []buildTerm
	var wg sync.WaitGroup
	wg.Go(func() { words = mergeKind(ps, false) })
	wg.Go(func() { pairs = mergeKind(ps, true) })
	wg.Wait()
	terms := append(words, pairs...)
	slices.SortFunc(terms, func(a, b buildTerm) int { return strings.Compare(a.key, b.key) })
	// A bigram never spells a word, but equal keys would be merged all
	// the same.
	merged := terms[:0]
	for _, t := range terms {
		if m := len(merged); m > 0 && merged[m-1].key == t.key {
			prev := &merged[m-1]
			prev.ps = append(slices.Clip(prev.ps), t.ps...)
			slices.SortStableFunc(prev.ps, func(a, b rawPosting) int { return int(a.doc - b.doc) })
			continue
		}
		merged = append(merged, t)
	}
	return merged, lens
}

// mergeKind merges the pages' Latin and digit terms, or (pairs) their
// Japanese and Hangul ones, into postings by key, in no order. It reads
// each page's terms once, giving each its key's number, then puts every
// posting in its place in one array.
func mergeKind(ps []Page, pairs bool) []buildTerm {
	wordIDs := map[string]int32{}
	pairIDs := map[uint64]int32{}
	var terms []buildTerm
	var count []int32
	entries := 0
	for _, p := range ps {
		entries += len(p.Terms.enc) / 8
	}
	ids := make([]int32, 0, entries)
	tfs := make([]uint32, 0, entries)
	ends := make([]int, len(ps)) // where each page's entries end
	for doc, p := range ps {
		var r termsReader
		if r.start(p.Terms.enc) {
			for {
				key, tf, ok := r.word()
				if !ok {
					break
				}
				if pairs {
					continue
				}
				i, found := wordIDs[key]
				if !found {
					w := strings.Clone(key)
					i = int32(len(terms))
					wordIDs[w] = i
					terms = append(terms, buildTerm{key: w})
					count = append(count, 0)
				}
				count[i]++
				ids = append(ids, i)
				tfs = append(tfs, tf)
			}
			for pairs {
				k, tf, ok := r.pair()
				if !ok {
					break
				}
				i, found := pairIDs[k]
				if !found {
					i = int32(len(terms))
					pairIDs[k] = i
					terms = append(terms, buildTerm{key: pairString(k), pair: true})
					count = append(count, 0)
				}
				count[i]++
				ids = append(ids, i)
				tfs = append(tfs, tf)
			}
		}
		ends[doc] = len(ids)
	}
	all := make([]rawPosting, len(ids))
	off := 0
	for i := range terms {
		terms[i].ps = all[off : off : off+int(count[i])]
		off += int(count[i])
	}
	doc := 0
	for j, id := range ids {
		for j >= ends[doc] {
			doc++
		}
		terms[id].ps = append(terms[id].ps, rawPosting{int32(doc), tfs[j]})
	}
	return terms
}

// weigh gives each term its quantised inverse document frequency and each
// posting its quantised BM25 weight × 2, + 1 when the title has the term
// (in place of its raw count).
func weigh(terms []buildTerm, lens []int) {
	avg := averageLen(lens)
	norm := make([]float64, len(lens))
	for d, l := range lens {
		norm[d] = normOf(l, avg)
	}
	for i := range terms {
		t := &terms[i]
		for j, r := range t.ps {
			t.ps[j].tf = quantised(r.tf, norm[r.doc])
		}
		t.idf = idfOf(len(t.ps), len(lens))
	}
}

// normOf is BM25's length normalisation of a page of length l, where
// pages are avg long (both rounded).
func normOf(l int, avg float64) float64 {
	return bm25K1 * (1 - bm25B + bm25B*rounded(float64(l))/avg)
}

// quantised is the weight of a term of raw weight raw (its count × 2,
// + 1 when the title has it) in a page of the given norm: its quantised
// BM25 term weight × 2, + 1 when the title has it.
func quantised(raw uint32, norm float64) uint32 {
	tf := float64(raw >> 1)
	s := tf * (bm25K1 + 1) / (tf + norm)
	q := int(math.Ceil(s / (bm25K1 + 1) * maxQ))
	q = min(max(q, 1), maxQ)
	return uint32(q*2) | raw&1
}

// idfOf is the quantised inverse document frequency of a key that df of
// n pages hold.
func idfOf(df, n int) int {
	d := float64(df)
	idf := math.Log(1 + (float64(n)-d+0.5)/(d+0.5))
	return max(1, int(math.Round(idf*idfScale)))
}

// rounded rounds a length to the nearest of avgSteps steps per doubling.
func rounded(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return math.Exp2(math.Round(math.Log2(x)*avgSteps) / avgSteps)
}

// score is what a posting of a weighed term adds for a page that matches
// it in full: search.js computes the same.
func score(idf int, w uint32) int { return idf * (int(w>>1) + titleBonus*int(w&1)) }

// withContains adds, for every Japanese or Hangul character some bigram
// holds, its contains entry (containsMark): in each page, half the best
// score of the keys other than the character itself that begin or end
// with it. A query of the lone character matches those keys at half
// weight; the entry answers it from one shard, where finding the keys
// would take them all. terms is sorted, and so is the result.
func withContains(terms []buildTerm, ndocs int) []buildTerm {
	byChar := map[rune][]int32{}
	for i, t := range terms {
		if !t.pair {
			continue
		}
		a, size := utf8.DecodeRuneInString(t.key)
		if size == len(t.key) {
			continue // the lone character: its own key
		}
		b, _ := utf8.DecodeRuneInString(t.key[size:])
		byChar[a] = append(byChar[a], int32(i))
		if b != a {
			byChar[b] = append(byChar[b], int32(i))
		}
	}
	chars := make([]rune, 0, len(byChar))
	for c := range byChar {
		chars = append(chars, c)
	}
	slices.Sort(chars)
	best := make([]int32, ndocs)
	for i := range best {
		best[i] = -1
	}
	var touched []int32
	cs := make([]buildTerm, 0, len(chars))
	for _, c := range chars {
		touched = touched[:0]
		for _, ti := range byChar[c] {
			t := &terms[ti]
			for _, p := range t.ps {
				s := int32(score(t.idf, p.tf))
				if best[p.doc] < 0 {
					touched = append(touched, p.doc)
				}
				best[p.doc] = max(best[p.doc], s)
			}
		}
		slices.Sort(touched)
		ps := make([]rawPosting, len(touched))
		for j, d := range touched {
			ps[j] = rawPosting{doc: d, tf: uint32(best[d] >> 1)}
			best[d] = -1
		}
		cs = append(cs, buildTerm{key: string(c) + containsMark, ps: ps})
	}
	// Merge the two sorted lists.
	out := make([]buildTerm, 0, len(terms)+len(cs))
	i, j := 0, 0
	for i < len(terms) || j < len(cs) {
		if j == len(cs) || i < len(terms) && terms[i].key < cs[j].key {
			out = append(out, terms[i])
			i++
		} else {
			out = append(out, cs[j])
			j++
		}
	}
	return out
}

// record is one key's posting list as stored (see shardScript).
func record(b []byte, t *buildTerm) []byte {
	b = appendVarint(b, t.idf)
	prev := 0
	for _, p := range t.ps {
		b = appendVarint(b, int(p.doc)-prev)
		b = appendVarint(b, int(p.tf))
		prev = int(p.doc)
	}
	return b
}

// shard is a run of keys, sorted, with their records, and the sum of
// both, its name's.
type shard struct {
	first        string
	name         string
	keys, post   []byte
	sum          uint64
	nkeys, npost int
}

// cut encodes the terms' records and cuts them into shards of about size
// bytes (cutSizes).
func cut(terms []buildTerm, size int) []shard {
	recs := make([][]byte, len(terms))
	for i := range terms {
		recs[i] = record(nil, &terms[i])
	}
	ends := cutSizes(len(terms), func(i int) (string, int) { return terms[i].key, len(recs[i]) }, size)
	out := make([]shard, 0, len(ends))
	start := 0
	for _, end := range ends {
		sh := shard{first: terms[start].key, nkeys: end - start}
		for i := start; i < end; i++ {
			if i > start {
				sh.keys = append(sh.keys, ' ')
				sh.post = append(sh.post, ' ')
			}
			sh.keys = append(sh.keys, terms[i].key...)
			sh.post = append(sh.post, recs[i]...)
			sh.npost += len(terms[i].ps)
		}
		h := fnv.New64a()
		h.Write(sh.keys)
		h.Write([]byte{'\n'})
		h.Write(sh.post)
		sh.sum = h.Sum64()
		sh.name = hashName(sh.sum, 8)
		out = append(out, sh)
		start = end
	}
	return out
}

// cutSizes cuts n keys, sorted, the i-th one's text and record length
// at(i), into shards of about size bytes (DefaultShardBytes for 0), and
// returns where each shard ends (past its last key). A shard ends, once
// it holds half of size, before a key whose hash has its low bits zero,
// so that the cuts depend on the keys around them and not on where the
// previous cut fell; and before the key that would take it past twice
// size.
func cutSizes(n int, at func(i int) (string, int), size int) []int {
	if size <= 0 {
		size = DefaultShardBytes
	}
	total := 0
	for i := range n {
		k, l := at(i)
		total += len(k) + l + 2
	}
	// One key in mask+1 may start a shard once it holds half of size:
	// about the number of keys in the other half.
	mask := uint32(0)
	if n > 0 {
		perKey := max(1, total/n)
		for k := size / 2 / perKey; mask < uint32(k) && mask < 1<<20; {
			mask = mask<<1 | 1
		}
	}
	var ends []int
	cur := 0
	for i := range n {
		k, l := at(i)
		sz := len(k) + l + 2
		if cur > 0 && (cur >= size/2 && keyHash(k)&mask == 0 || cur+sz > 2*size) {
			ends = append(ends, i)
			cur = 0
		}
		cur += sz
	}
	if cur > 0 {
		ends = append(ends, n)
	}
	return ends
}
