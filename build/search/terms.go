package search

import (
	"encoding/binary"
	"strings"
	"sync"
)

// Terms is what the index keeps of one page's text: each distinct term
// with its count, weighted by field, and whether the title holds it, and
// the page's length in terms. A page is tokenized once (Analyzer.Analyze);
// its Terms are kept between builds in their encoded form (String,
// DecodeTerms), so that a page that did not change is not tokenized again.
// The zero Terms is a page without text.
type Terms struct {
	enc string
}

// termsVersion starts every encoded Terms; bump it whenever the analysis
// or the encoding changes, so that what an older build kept is analysed
// again rather than read wrongly.
const termsVersion = 1

// The encoding, in its order: termsVersion; the page's length in terms
// (uvarint); the number of Latin and digit terms (uvarint), then each as
// its UTF-8 bytes, a 0 byte (no term holds U+0000) and its weight; the
// number of Japanese and Hangul bigrams and lone characters (uvarint),
// then each as its pairKey and its weight (uvarints). A term's weight is
// its count × 2, + 1 when the title has it (rawPosting.tf). Terms come in
// the order the page first has them, so equal pages give equal bytes.

// String returns t encoded, for a cache to keep.
func (t Terms) String() string { return t.enc }

// DecodeTerms reads what Terms.String returned, and reports whether it is
// well formed and of this version.
func DecodeTerms(s string) (Terms, bool) {
	t := Terms{enc: s}
	ok := t.each(func([]byte, uint32) {}, func(uint64, uint32) {})
	return t, ok
}

// Len is the page's length in terms.
func (t Terms) Len() int {
	if len(t.enc) < 2 || t.enc[0] != termsVersion {
		return 0
	}
	n, _ := binary.Uvarint([]byte(t.enc[1:min(len(t.enc), 1+binary.MaxVarintLen64)]))
	return int(n)
}

// each calls word with every Latin or digit term (its bytes, valid only
// during the call) and pair with every Japanese or Hangul one, and
// reports whether the encoding was well formed throughout.
func (t Terms) each(word func(key []byte, tf uint32), pair func(k uint64, tf uint32)) bool {
	s := t.enc
	if s == "" {
		return true
	}
	if s[0] != termsVersion {
		return false
	}
	i := 1
	uv := func() (uint64, bool) {
		var v uint64
		for shift := uint(0); shift < 64; shift += 7 {
			if i >= len(s) {
				return 0, false
			}
			c := s[i]
			i++
			v |= uint64(c&0x7f) << shift
			if c < 0x80 {
				return v, true
			}
		}
		return 0, false
	}
	if _, ok := uv(); !ok {
		return false
	}
	nw, ok := uv()
	if !ok || nw > uint64(len(s)) {
		return false
	}
	var buf []byte
	for range nw {
		j := strings.IndexByte(s[i:], 0)
		if j <= 0 {
			return false
		}
		buf = append(buf[:0], s[i:i+j]...)
		i += j + 1
		tf, ok := uv()
		if !ok || tf < 2 || tf > 1<<32-1 {
			return false
		}
		word(buf, uint32(tf))
	}
	np, ok := uv()
	if !ok || np > uint64(len(s)) {
		return false
	}
	for range np {
		k, ok := uv()
		if !ok || k>>21 == 0 || k>>42 != 0 {
			return false
		}
		tf, ok := uv()
		if !ok || tf < 2 || tf > 1<<32-1 {
			return false
		}
		pair(k, uint32(tf))
	}
	return i == len(s)
}

// Analyzer tokenizes pages into their Terms, keeping its tokenizers (and
// their buffers) from one page to the next. It is safe for concurrent
// use; the zero value is ready.
type Analyzer struct {
	tokenizers sync.Pool
}

// Analyze tokenizes d: its title, headings, text and code, each term
// weighted by the field it is in.
func (an *Analyzer) Analyze(d Doc) Terms {
	tk, _ := an.tokenizers.Get().(*tokenizer)
	if tk == nil {
		tk = &tokenizer{}
	}
	defer an.tokenizers.Put(tk)
	// Term counts of this page: the maps (kept with the tokenizer) give
	// each term its place in stats, in the order the page first has it.
	if tk.terms == nil {
		tk.terms, tk.pairs = map[string]int{}, map[uint64]int{}
	}
	clear(tk.terms)
	clear(tk.pairs)
	tk.stats = tk.stats[:0]
	tk.words = tk.words[:0]
	tk.pairList = tk.pairList[:0]
	n := 0
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
					tk.pairList = append(tk.pairList, k)
				}
			} else {
				tk.buf = appendTerm(tk.buf[:0], tk.cs[a:b])
				if i, ok = tk.terms[string(tk.buf)]; !ok { // no copy of a known term
					i = len(tk.stats)
					w := string(tk.buf)
					tk.terms[w] = i
					tk.stats = append(tk.stats, termStat{})
					tk.words = append(tk.words, w)
				}
			}
			st := &tk.stats[i]
			st.tf += boost
			st.title = st.title || title
			n++
		})
	}
	add(d.Title, boostTitle, true)
	add(d.Headings, boostHeading, false)
	add(d.Text, 1, false)
	add(d.Code, 1, false)
	if n == 0 {
		return Terms{}
	}

	b := make([]byte, 0, 16+len(tk.words)*8+len(tk.pairList)*5)
	b = append(b, termsVersion)
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64(len(tk.words)))
	for _, w := range tk.words {
		b = append(b, w...)
		b = append(b, 0)
		b = binary.AppendUvarint(b, uint64(newRawPosting(0, tk.stats[tk.terms[w]]).tf))
	}
	b = binary.AppendUvarint(b, uint64(len(tk.pairList)))
	for _, k := range tk.pairList {
		b = binary.AppendUvarint(b, k)
		b = binary.AppendUvarint(b, uint64(newRawPosting(0, tk.stats[tk.pairs[k]]).tf))
	}
	return Terms{enc: string(b)}
}

// termsReader reads an encoded Terms in order, for merge: start, then
// word until it reports false, then pair until it does. A malformed
// encoding reads as fewer terms.
type termsReader struct {
	s       string
	i       int
	words   uint64 // left to read
	pairs   uint64
	inPairs bool
	bad     bool
}

func (r *termsReader) uv() (uint64, bool) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if r.i >= len(r.s) {
			return 0, false
		}
		c := r.s[r.i]
		r.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, true
		}
	}
	return 0, false
}

// start begins reading s, and reports whether it is of this version.
func (r *termsReader) start(s string) bool {
	*r = termsReader{s: s, i: 1}
	if s == "" || s[0] != termsVersion {
		return false
	}
	if _, ok := r.uv(); !ok {
		return false
	}
	n, ok := r.uv()
	r.words = n
	return ok
}

// word returns the next Latin or digit term (a part of the encoding)
// and its weight.
func (r *termsReader) word() (string, uint32, bool) {
	if r.words == 0 || r.bad {
		return "", 0, false
	}
	r.words--
	j := strings.IndexByte(r.s[r.i:], 0)
	if j <= 0 {
		r.bad = true
		return "", 0, false
	}
	key := r.s[r.i : r.i+j]
	r.i += j + 1
	tf, ok := r.uv()
	if !ok {
		r.bad = true
		return "", 0, false
	}
	return key, uint32(tf), true
}

// pair returns the next Japanese or Hangul term and its weight.
func (r *termsReader) pair() (uint64, uint32, bool) {
	if !r.inPairs {
		r.inPairs = true
		n, ok := r.uv()
		if r.bad || r.words > 0 || !ok {
			r.bad = true
			return 0, 0, false
		}
		r.pairs = n
	}
	if r.pairs == 0 || r.bad {
		return 0, 0, false
	}
	r.pairs--
	k, ok := r.uv()
	tf, ok2 := r.uv()
	if !ok || !ok2 {
		r.bad = true
		return 0, 0, false
	}
	return k, uint32(tf), true
}
