package search

import (
	"hash/fnv"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// An index is made again after an edit from what the last build left of
// it (State): a head, naming its pages, their lengths and the
// fingerprints of their terms, and its shards; and a block per shard,
// holding the shard's keys and records as its script does. Update takes
// out the postings of the pages whose terms changed, as their terms were,
// and puts them in as they are, into the records of the keys whose
// postings that changes, then cuts the keys again and makes only the
// shards whose keys or records changed: the others are the last build's,
// to be taken from its output. The result is, byte for byte, what Build
// makes of the same pages; where Update cannot be sure of it (another set
// of pages, the average length changed, a page's terms missing) it
// reports false, and the caller builds the index afresh.

// maxChanged is how many pages of n Update takes out and puts in again
// at most: past that, building the index afresh is as fast.
func maxChanged(n int) int { return max(8, n/16) }

// wposting is a key's weight in a page as a record holds it: the
// quantised weight × 2, + 1 when the title has the key (a contains
// entry: its score).
type wposting struct {
	doc int32
	w   uint32
}

// keyChange is what an edit does to a key's posting in one page: its
// weight there now, or none (gone).
type keyChange struct {
	doc  int32
	w    uint32
	gone bool
}

// Update makes lang's index of the pages at urls, whose terms have the
// fingerprints fps, from the state prev the last build of it left
// (State.Head; its blocks by block). The terms of a page whose
// fingerprint changed are now(i) (i indexing urls), and were old(url,
// fp), its fingerprint then. The shards it did not make again have no
// Data: they are the last build's, as its output has them (File.Sum
// names their bytes); Made makes one when it must be written after all.
// It reports false when the index must be built afresh (Build). The
// blocks block gives must not change, ever: the index and its state
// keep them, unread until needed.
func Update(lang string, urls []string, fps []uint64, now func(i int) (Terms, bool), old func(url string, fp uint64) (Terms, bool),
	prev []byte, block func(name string, sum uint64) ([]byte, bool), opts Options) (*Built, bool) {
	h, ok := decodeHead(prev)
	if !ok || h.lang != lang || h.shardBytes != opts.ShardBytes || len(h.urls) != len(urls) || len(h.shards) == 0 {
		return nil, false
	}
	// The pages by number: by URL, as Build numbers them.
	order := make([]int, len(urls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return urls[order[a]] < urls[order[b]] })
	var changed []int32 // doc numbers
	for d, i := range order {
		if urls[i] != h.urls[d] {
			return nil, false
		}
		if fps[i] != h.fps[d] {
			changed = append(changed, int32(d))
		}
	}
	n := len(urls)
	if len(changed) > maxChanged(n) {
		return nil, false
	}
	lens := slices.Clone(h.lens)
	olds, nows := make([]Terms, len(changed)), make([]Terms, len(changed))
	for j, d := range changed {
		o, ok1 := old(h.urls[d], h.fps[d])
		t, ok2 := now(order[d])
		if !ok1 || !ok2 || o.Len() != h.lens[d] {
			return nil, false
		}
		olds[j], nows[j] = o, t
		lens[d] = t.Len()
	}
	avg := averageLen(lens)
	if avg != averageLen(h.lens) {
		return nil, false // every weight changes
	}
	// What the edits do to each key.
	changes := map[string][]keyChange{}
	for j, d := range changed {
		was, is := weights(olds[j], normOf(h.lens[d], avg)), weights(nows[j], normOf(lens[d], avg))
		for k, w := range is {
			if v, ok := was[k]; !ok || v != w {
				changes[k] = append(changes[k], keyChange{doc: d, w: w})
			}
		}
		for k := range was {
			if _, ok := is[k]; !ok {
				changes[k] = append(changes[k], keyChange{doc: d, gone: true})
			}
		}
	}
	ix := &updating{lang: lang, h: h, block: block, n: n, shards: make([]*shardKeys, len(h.shards)), urls: urls, fps: fps}
	for k, cs := range changes {
		if !ix.change(k, cs) {
			return nil, false
		}
	}
	if !ix.contains(changes) {
		return nil, false
	}
	return ix.built(opts, lens)
}

// averageLen is the pages' average length, rounded as weigh rounds it.
func averageLen(lens []int) float64 {
	total := 0
	for _, l := range lens {
		total += l
	}
	if len(lens) == 0 || total == 0 {
		return 1.0
	}
	return rounded(float64(total) / float64(len(lens)))
}

// weights are the quantised weights of t's terms in a page of the given
// norm, by key.
func weights(t Terms, norm float64) map[string]uint32 {
	out := map[string]uint32{}
	var r termsReader
	if !r.start(t.enc) {
		return out
	}
	for {
		k, tf, ok := r.word()
		if !ok {
			break
		}
		out[k] = quantised(tf, norm)
	}
	for {
		k, tf, ok := r.pair()
		if !ok {
			break
		}
		out[pairString(k)] = quantised(tf, norm)
	}
	return out
}

// shardKeys is a shard of the last build being changed: its keys and
// their records, and whether any changed.
type shardKeys struct {
	keys, recs []string
	dirty      bool
}

// updating is an index being updated.
type updating struct {
	lang   string
	urls   []string // the pages now, and their fingerprints
	fps    []uint64
	h      *head
	block  func(name string, sum uint64) ([]byte, bool)
	n      int
	shards []*shardKeys // decoded when first needed
	bad    bool
}

// shard is the i-th shard of the last build, its keys and records.
func (ix *updating) shard(i int) *shardKeys {
	if sk := ix.shards[i]; sk != nil {
		return sk
	}
	sh := ix.h.shards[i]
	b, ok := ix.block(sh.name, sh.sum)
	keys, post, ok2 := decodeBlock(b)
	sk := &shardKeys{}
	if !ok || !ok2 {
		ix.bad = true
	} else {
		sk.keys, sk.recs = strings.Split(keys, " "), strings.Split(post, " ")
		if len(sk.keys) != len(sk.recs) || len(sk.keys) != sh.keys {
			ix.bad = true
		}
	}
	ix.shards[i] = sk
	return sk
}

// locate is the shard of the last build a key belongs in, and its place
// there (found: the key is there).
func (ix *updating) locate(k string) (sk *shardKeys, at int, found bool) {
	shs := ix.h.shards
	i := sort.Search(len(shs), func(i int) bool { return shs[i].first > k }) - 1
	i = max(i, 0)
	sk = ix.shard(i)
	at, found = slices.BinarySearch(sk.keys, k)
	return sk, at, found
}

// change applies the changes cs to the record of key k.
func (ix *updating) change(k string, cs []keyChange) bool {
	sk, at, found := ix.locate(k)
	if ix.bad {
		return false
	}
	var ps []wposting
	if found {
		var ok bool
		if _, ps, ok = parseRecord(sk.recs[at]); !ok {
			return false
		}
	}
	for _, c := range cs {
		i, in := slices.BinarySearchFunc(ps, c.doc, func(p wposting, d int32) int { return int(p.doc - d) })
		switch {
		case c.gone && in:
			ps = slices.Delete(ps, i, i+1)
		case c.gone:
		case in:
			ps[i].w = c.w
		default:
			ps = slices.Insert(ps, i, wposting{c.doc, c.w})
		}
	}
	ix.set(sk, at, found, k, ps, idfOf(len(ps), ix.n))
	return true
}

// set makes key k's record, at its place in sk, that of postings ps and
// idf: none when ps is empty.
func (ix *updating) set(sk *shardKeys, at int, found bool, k string, ps []wposting, idf int) {
	switch {
	case len(ps) == 0 && found:
		sk.keys = slices.Delete(sk.keys, at, at+1)
		sk.recs = slices.Delete(sk.recs, at, at+1)
	case len(ps) == 0:
		return
	case found:
		rec := string(appendRecord(nil, idf, ps))
		if rec == sk.recs[at] {
			return
		}
		sk.recs[at] = rec
	default:
		sk.keys = slices.Insert(sk.keys, at, k)
		sk.recs = slices.Insert(sk.recs, at, string(appendRecord(nil, idf, ps)))
	}
	sk.dirty = true
}

// contains makes again the contains entries of the characters of the
// Japanese and Hangul keys of two characters that changed: each is made
// of every key holding its character (withContains).
func (ix *updating) contains(changes map[string][]keyChange) bool {
	chars := map[rune]bool{}
	for k := range changes {
		if a, b, ok := twoChars(k); ok {
			chars[a], chars[b] = true, true
		}
	}
	if len(chars) == 0 {
		return true
	}
	// Every key holding one of them, in every shard.
	byChar := map[rune][]string{} // their records
	for i := range ix.h.shards {
		sk := ix.shard(i)
		if ix.bad {
			return false
		}
		for j, k := range sk.keys {
			a, b, ok := twoChars(k)
			if !ok {
				continue
			}
			if chars[a] {
				byChar[a] = append(byChar[a], sk.recs[j])
			}
			if b != a && chars[b] {
				byChar[b] = append(byChar[b], sk.recs[j])
			}
		}
	}
	best := make([]int32, ix.n)
	for i := range best {
		best[i] = -1
	}
	var touched []int32
	for c := range chars {
		touched = touched[:0]
		for _, rec := range byChar[c] {
			idf, ps, ok := parseRecord(rec)
			if !ok {
				return false
			}
			for _, p := range ps {
				s := int32(score(idf, p.w))
				if best[p.doc] < 0 {
					touched = append(touched, p.doc)
				}
				best[p.doc] = max(best[p.doc], s)
			}
		}
		slices.Sort(touched)
		ps := make([]wposting, len(touched))
		for j, d := range touched {
			ps[j] = wposting{doc: d, w: uint32(best[d] >> 1)}
			best[d] = -1
		}
		k := string(c) + containsMark
		sk, at, found := ix.locate(k)
		if ix.bad {
			return false
		}
		ix.set(sk, at, found, k, ps, 0)
	}
	return true
}

// twoChars reports whether k is a Japanese or Hangul key of two
// characters (a bigram, as withContains reads keys), and which.
func twoChars(k string) (a, b rune, ok bool) {
	a, n := utf8.DecodeRuneInString(k)
	if n == len(k) || !isPairRune(a) {
		return 0, 0, false
	}
	b, m := utf8.DecodeRuneInString(k[n:])
	if n+m != len(k) || !isPairRune(b) {
		return 0, 0, false
	}
	return a, b, true
}

// isPairRune reports whether r is of the characters the tokenizer makes
// bigrams of.
func isPairRune(r rune) bool {
	c := classOf(r)
	return c == clCJK || c == clHangul
}

// built cuts the keys, old and changed, into shards again, as Build
// does, and makes the index: each shard whose keys and records are those
// of a shard of the last build is taken as it was.
func (ix *updating) built(opts Options, lens []int) (*Built, bool) {
	// Every key's size in a shard, in order.
	total := 0
	for i, sh := range ix.h.shards {
		if sk := ix.shards[i]; sk != nil {
			total += len(sk.keys)
		} else {
			total += sh.keys
		}
	}
	keys, recs := make([]string, 0, total), make([]string, 0, total)
	fromShard := make([]int32, 0, total) // the last build's shard each key is in, -1 where changed
	for i, sh := range ix.h.shards {
		from := int32(i)
		if sk := ix.shards[i]; sk != nil {
			if ix.bad {
				return nil, false
			}
			if sk.dirty {
				from = -1
			}
			keys, recs = append(keys, sk.keys...), append(recs, sk.recs...)
		} else {
			// Untouched: read for its keys' sizes only.
			b, ok := ix.block(sh.name, sh.sum)
			ks, post, ok2 := decodeBlock(b)
			n := len(keys)
			if !ok || !ok2 {
				return nil, false
			}
			keys, recs = appendFields(keys, ks), appendFields(recs, post)
			if len(keys)-n != sh.keys || len(recs) != len(keys) {
				return nil, false
			}
		}
		for len(fromShard) < len(keys) {
			fromShard = append(fromShard, from)
		}
	}
	ranges := cutSizes(len(keys), func(i int) (string, int) { return keys[i], len(recs[i]) }, opts.ShardBytes)
	lang := ix.lang
	b := &Built{Lang: lang}
	st := &head{lang: lang, shardBytes: opts.ShardBytes, urls: ix.h.urls, lens: lens}
	st.withFPs(ix.urls, ix.fps)
	var first, names []string
	seen := map[string]bool{}
	start := 0
	for _, end := range ranges {
		from := fromShard[start]
		same := from >= 0 && ix.h.shards[from].first == keys[start] && ix.h.shards[from].keys == end-start
		for i := start; same && i < end; i++ {
			same = fromShard[i] == from
		}
		var sh builtShard
		var data []byte
		if same {
			sh = ix.h.shards[from]
			blk, _ := ix.block(sh.name, sh.sum)
			sh.block = blk
		} else {
			ks := []byte(strings.Join(keys[start:end], " "))
			post := []byte(strings.Join(recs[start:end], " "))
			hs := fnv.New64a()
			hs.Write(ks)
			hs.Write([]byte{'\n'})
			hs.Write(post)
			sum := hs.Sum64()
			npost := 0
			for _, r := range recs[start:end] {
				_, ps, ok := parseRecord(r)
				if !ok {
					return nil, false
				}
				npost += len(ps)
			}
			s := shard{first: keys[start], name: hashName(sum, 8), keys: ks, post: post, sum: sum, nkeys: end - start, npost: npost}
			data = shardScript(lang, s)
			sh = builtShard{first: s.first, keys: s.nkeys, post: npost, name: s.name, sum: sum, size: len(data), block: encodeBlock(ks, post)}
		}
		if sh.name != hashName(sh.sum, 8) || seen[sh.name] {
			return nil, false // a name made unique (uniqueNames): Build knows how
		}
		seen[sh.name] = true
		first = append(first, sh.first)
		names = append(names, sh.name)
		b.Shards = append(b.Shards, File{Path: shardPath(lang, sh.name), Data: data, Sum: sh.sum})
		b.Stats.ShardBytes += sh.size
		b.Stats.MaxShardBytes = max(b.Stats.MaxShardBytes, sh.size)
		b.Stats.Postings += sh.post
		st.shards = append(st.shards, sh)
		start = end
	}
	pageNames := pageNames(ix.h.urls)
	b.Fragments = &Fragments{lang: lang, opts: opts, names: make(map[string]string, len(ix.h.urls))}
	for i, u := range ix.h.urls {
		b.names[u] = pageNames[i]
	}
	b.Manifest = manifestScript(lang, first, names, pageNames)
	b.Stats.Lang, b.Stats.Docs, b.Stats.Keys, b.Stats.Shards, b.Stats.ManifestBytes = lang, ix.n, len(keys), len(b.Shards), len(b.Manifest)
	b.state = st
	b.made = func(i int) []byte {
		sh := st.shards[i]
		ks, post, ok := decodeBlock(sh.block)
		if !ok {
			return nil
		}
		return shardScript(lang, shard{name: sh.name, keys: []byte(ks), post: []byte(post)})
	}
	return b, true
}

// appendFields appends to out the fields of s, separated by one space,
// as strings.Split cuts them, without a slice of its own.
func appendFields(out []string, s string) []string {
	for {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}
