// Package search builds kakehashi's client-side search, the search
// indexes of the write stage, and a Go implementation of the scoring that
// the browser script (themes/default/static/js/search.js) mirrors exactly.
//
// Each language's index is scripts, so that it loads from file:// as well
// as from a server: a small manifest (IndexPath), shards of its sorted
// keys with their postings, which a query loads as its terms need them,
// and a fragment per page (its URL, title, part and text), which the
// search box loads for the results it shows (DataDir). A page is
// tokenized once into its Terms, which the build's caches keep.
//
// Japanese and Korean are treated the same way at index and at query time:
// text is NFKC-normalised and case-folded, then cut into runs by script.
// Han, Hiragana and Katakana runs (with ー) and Hangul runs become
// overlapping bigrams, so no dictionary is needed and a Korean particle
// (쿼럼은) costs one unmatched bigram rather than the whole match. Latin
// and digit runs become words, and technical tokens such as kube-apiserver
// or 10.0.0.120 are kept whole as well as split into their parts.
package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxTokenRunes bounds the length of an indexed token; longer words (hashes,
// base64 in code blocks) would only bloat the index.
const maxTokenRunes = 64

// joiners are the characters that hold a technical token together:
// kube-apiserver, 10.0.0.120, /etc/kubernetes/pki, host:6443.
const joiners = "-._/:@"

// Token is one indexed term with the byte range of the original text it
// came from (before normalisation), for snippets and highlighting.
type Token struct {
	Text       string // normalised, case-folded
	Start, End int    // byte offsets into the string given to TokenizePos
}

// Tokenize returns the terms of s in order of appearance, as indexed and as
// queried: bigrams over Japanese and Hangul runs, words and technical
// compounds (whole, then their parts) over Latin and digit runs.
func Tokenize(s string) []string {
	rs := []rune(s)
	toks := tokenizeRunes(rs)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.text
	}
	return out
}

// TokenizePos is Tokenize keeping, for every term, the byte range of s it
// was made from.
func TokenizePos(s string) []Token {
	rs := []rune(s)
	toks := tokenizeRunes(rs)
	// rune index → byte offset; ranging over s keeps invalid bytes at
	// their real width.
	offs := make([]int, 0, len(rs)+1)
	for b := range s {
		offs = append(offs, b)
	}
	offs = append(offs, len(s))
	out := make([]Token, len(toks))
	for i, t := range toks {
		out[i] = Token{Text: t.text, Start: offs[t.start], End: offs[t.end]}
	}
	return out
}

// class is the role a normalised character plays in tokenisation.
type class uint8

const (
	clOther  class = iota // separator
	clCJK                 // Han, Hiragana, Katakana, ー
	clHangul              // Hangul
	clWord                // other letters, decimal digits, marks
	clJoiner              // one of joiners
)

// asciiClass is classOf for ASCII.
var asciiClass = func() (t [utf8.RuneSelf]class) {
	for r := range rune(utf8.RuneSelf) {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			t[r] = clWord
		case strings.ContainsRune(joiners, r):
			t[r] = clJoiner
		}
	}
	return t
}()

func classOf(r rune) class {
	// Fast paths for the characters course text is made of.
	switch {
	case r < utf8.RuneSelf:
		return asciiClass[r]
	case 0x3041 <= r && r <= 0x3096, 0x30A1 <= r && r <= 0x30FA, 0x4E00 <= r && r <= 0x9FFF:
		return clCJK // Hiragana, Katakana, common Han
	case 0xAC00 <= r && r <= 0xD7A3:
		return clHangul // Hangul syllables
	}
	switch {
	case r == 'ー' || r == '〆' || unicode.Is(unicode.Han, r) ||
		unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
		return clCJK
	case unicode.Is(unicode.Hangul, r):
		return clHangul
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
		return clWord
	case strings.ContainsRune(joiners, r):
		return clJoiner
	}
	return clOther
}

// nchar is one character of normalised text and the rune range of the
// original text it came from.
type nchar struct {
	r          rune
	start, end int32
}

// isMark tells whether r attaches to the character before it: combining
// marks and the half-width (semi-)voiced sound marks ﾞ ﾟ.
func isMark(r rune) bool {
	if r < 0x300 || nfkcStable(r) { // no marks below U+0300 or in kana, Han, Hangul syllables
		return false
	}
	return r == 0xFF9E || r == 0xFF9F || unicode.IsMark(r)
}

// nfkcStable reports whether r alone is its own NFKC form and has no case,
// for the ranges course text is mostly made of: Hiragana, Katakana (with
// ー), common Han and precomposed Hangul. Skipping the normaliser for them
// gives the same result, faster.
func nfkcStable(r rune) bool {
	return 0x3041 <= r && r <= 0x3096 || 0x30A1 <= r && r <= 0x30FC ||
		0x4E00 <= r && r <= 0x9FFF || 0xAC00 <= r && r <= 0xD7A3
}

// lower case-folds one rune the way JavaScript's toLowerCase does for a
// single character that stays a single character.
func lower(r rune) rune {
	switch {
	case 'A' <= r && r <= 'Z':
		return r + ('a' - 'A')
	case r < utf8.RuneSelf || nfkcStable(r):
		return r
	case r == 0x130: // İ lowers to two characters in JavaScript; keep it
		return r
	}
	return unicode.ToLower(r)
}

// normalize applies NFKC and case folding to rs one grapheme-ish group at a
// time (a base character and the marks after it), keeping for each output
// character the range of input runes it came from. The browser script does
// exactly the same with String.prototype.normalize("NFKC").
func normalize(rs []rune) []nchar {
	return appendNormalized(make([]nchar, 0, len(rs)), rs)
}

// appendNormalized is normalize appending to out.
func appendNormalized(out []nchar, rs []rune) []nchar {
	for i := 0; i < len(rs); {
		j := i + 1
		for j < len(rs) && isMark(rs[j]) {
			j++
		}
		if j == i+1 && (rs[i] < utf8.RuneSelf || nfkcStable(rs[i])) {
			out = append(out, nchar{lower(rs[i]), int32(i), int32(j)})
			i = j
			continue
		}
		for _, r := range norm.NFKC.String(string(rs[i:j])) {
			out = append(out, nchar{lower(r), int32(i), int32(j)})
		}
		i = j
	}
	return out
}

// rtoken is a token with a rune range of the original text.
type rtoken struct {
	text       string
	start, end int
}

func tokenizeRunes(rs []rune) []rtoken {
	var out []rtoken
	eachToken(rs, func(tok []byte, start, end int) {
		out = append(out, rtoken{string(tok), start, end})
	})
	return out
}

// EachToken calls fn with every term of s, in the order Tokenize returns
// them. tok is only valid during the call: it lets a caller count terms
// without making a string of each.
func EachToken(s string, fn func(tok []byte)) {
	var t tokenizer
	t.each(s, fn)
}

// tokenizer keeps its buffers from one text to the next, so that indexing
// many pages allocates little.
type tokenizer struct {
	rs  []rune
	cs  []nchar
	cl  []class
	buf []byte
	// terms, pairs and stats count one page's terms for the Analyzer;
	// words and pairList hold its terms in the order it first has them.
	terms    map[string]int
	pairs    map[uint64]int
	stats    []termStat
	words    []string
	pairList []uint64
}

// each calls fn with every term of s.
func (t *tokenizer) each(s string, fn func(tok []byte)) {
	t.prepare(s)
	t.buf = walkTokens(t.cs, t.cl, t.buf, func(tok []byte, _, _ int) { fn(tok) })
}

// prepare normalises s into t.cs, as normalize([]rune(s)) does, and
// classifies it into t.cl, in one pass: most characters are their own
// normal form, and only a character with marks after it, or outside the
// ranges nfkcStable knows, goes through the normaliser. An ASCII
// character followed by another (no mark is ASCII) takes the shortest
// way: code blocks are made of them.
func (t *tokenizer) prepare(s string) {
	cs, cl := t.cs[:0], t.cl[:0]
	if cap(cs) < len(s) {
		// At most one character per byte, but for the rare one that
		// normalises into several.
		cs, cl = make([]nchar, 0, len(s)), make([]class, 0, len(s))
	}
	var n int32 // rune index of s[i] in s
	// ahead is where the rune after the last one decoded starts, and
	// next and nsize what it is: a run of Japanese or Korean is decoded
	// once.
	ahead, next, nsize := -1, rune(0), 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && (i+1 == len(s) || s[i+1] < utf8.RuneSelf) {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			cs = append(cs, nchar{rune(c), n, n + 1})
			cl = append(cl, asciiClass[c])
			i, n = i+1, n+1
			continue
		}
		r, size := next, nsize
		if ahead != i {
			r, size = decodeAt(s, i)
		}
		ahead = i + size
		next, nsize = decodeAt(s, ahead)
		if (r < utf8.RuneSelf || nfkcStable(r)) && (i+size == len(s) || !isMark(next)) {
			r = lower(r)
			cs = append(cs, nchar{r, n, n + 1})
			cl = append(cl, classOf(r))
			i, n = i+size, n+1
			continue
		}
		// r and the marks after it, normalised together.
		t.rs = append(t.rs[:0], r)
		j := i + size
		for j < len(s) && isMark(next) {
			t.rs = append(t.rs, next)
			j += nsize
			next, nsize = decodeAt(s, j)
		}
		ahead = j // next, nsize: the rune at j
		k := len(cs)
		cs = appendNormalized(cs, t.rs)
		for ; k < len(cs); k++ {
			cs[k].start += n
			cs[k].end += n
			cl = append(cl, classOf(cs[k].r))
		}
		i, n = j, n+int32(len(t.rs))
	}
	t.cs, t.cl = cs, cl
}

// decodeAt decodes the rune at byte i of s, or returns (0, 0) at the end,
// as utf8.DecodeRuneInString does; ASCII and the three bytes of Japanese
// and Hangul take the short way.
func decodeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return 0, 0
	}
	c := s[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	if c&0xF0 == 0xE0 && i+2 < len(s) {
		if c1, c2 := s[i+1], s[i+2]; c1&0xC0 == 0x80 && c2&0xC0 == 0x80 {
			// Neither overlong (below U+0800) nor a surrogate.
			if r := rune(c&0x0F)<<12 | rune(c1&0x3F)<<6 | rune(c2&0x3F); r >= 0x800 && (r < 0xD800 || r > 0xDFFF) {
				return r, 3
			}
		}
	}
	return utf8.DecodeRuneInString(s[i:])
}

// eachToken is the tokenizer: fn gets each term's bytes (reused between
// calls) and the rune range of the original text it came from.
func eachToken(rs []rune, fn func(tok []byte, start, end int)) {
	cs := normalize(rs)
	cl := make([]class, len(cs))
	for i, c := range cs {
		cl[i] = classOf(c.r)
	}
	walkTokens(cs, cl, nil, fn)
}

// walkTokens cuts normalised text into terms; buf is reused for each term
// and returned for the next call.
func walkTokens(cs []nchar, cl []class, buf []byte, fn func(tok []byte, start, end int)) []byte {
	walkSpans(cs, cl, func(a, b int, _ bool) {
		buf = appendTerm(buf[:0], cs[a:b])
		fn(buf, int(cs[a].start), int(cs[b-1].end))
	})
	return buf
}

// appendTerm appends the UTF-8 of a term's normalised characters.
func appendTerm(buf []byte, cs []nchar) []byte {
	for _, c := range cs {
		buf = utf8.AppendRune(buf, c.r)
	}
	return buf
}

// walkSpans finds the terms of normalised text: fn gets each term as the
// range [a, b) of cs, in order, and whether it is a bigram (or lone
// character) of a Japanese or Hangul run. Terms longer than maxTokenRunes
// are left out.
func walkSpans(cs []nchar, cl []class, fn func(a, b int, cjk bool)) {
	var runs [][2]int
	word := func(a, b int) {
		if b-a <= maxTokenRunes {
			fn(a, b, false)
		}
	}
	for i := 0; i < len(cs); {
		switch c := cl[i]; c {
		case clCJK, clHangul:
			j := i + 1
			for j < len(cs) && cl[j] == c {
				j++
			}
			if j-i == 1 {
				fn(i, j, true)
			}
			for k := i; k+1 < j; k++ {
				fn(k, k+2, true)
			}
			i = j
		case clWord:
			runs = runs[:0]
			p := i
			for {
				r0 := p
				for p < len(cs) && cl[p] == clWord {
					p++
				}
				runs = append(runs, [2]int{r0, p})
				q := p
				for q < len(cs) && cl[q] == clJoiner {
					q++
				}
				if q > p && q < len(cs) && cl[q] == clWord {
					p = q
					continue
				}
				break
			}
			if len(runs) > 1 {
				word(runs[0][0], runs[len(runs)-1][1])
			}
			for _, r := range runs {
				word(r[0], r[1])
			}
			i = p
		default:
			i++
		}
	}
}

// fold is the text as the phrase check sees it: normalised and case-folded,
// every separator run turned into one space, trimmed.
func fold(s string) string {
	cs := normalize([]rune(s))
	var sb strings.Builder
	space := false
	for _, c := range cs {
		if classOf(c.r) == clOther {
			space = sb.Len() > 0
			continue
		}
		if space {
			sb.WriteByte(' ')
			space = false
		}
		sb.WriteRune(c.r)
	}
	return sb.String()
}
