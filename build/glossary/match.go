package glossary

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// isWord reports whether b is an ASCII letter or digit: what a Latin
// term must not run into on either side.
func isWord(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// fold lowercases ASCII letters alone, so that byte offsets stay those of
// the text.
func fold(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Find returns the byte offsets in text where term occurs as a term: ASCII
// letters in any case, and, where the term begins (ends) with a Latin
// letter or digit, not glued to a Latin letter or digit before (after) it
// ("etcd" is not in "etcdctl"). A term in Japanese or Korean script is
// matched as a substring: Japanese has no spaces between words, and a
// Korean word takes its particle right after it (컨트롤 플레인은, 쿼럼을),
// so a term is still found with the particle it carries. Overlapping
// occurrences are not reported twice.
func Find(text, term string) []int {
	if term == "" {
		return nil
	}
	ft, fterm := fold(text), fold(term)
	latinStart, latinEnd := isWord(term[0]), isWord(term[len(term)-1])
	var out []int
	for from := 0; from <= len(ft)-len(fterm); {
		i := indexFrom(ft, fterm, from)
		if i < 0 {
			break
		}
		end := i + len(fterm)
		if (latinStart && i > 0 && isWord(ft[i-1])) || (latinEnd && end < len(ft) && isWord(ft[end])) {
			_, w := utf8.DecodeRuneInString(ft[i:])
			from = i + w
			continue
		}
		out = append(out, i)
		from = end
	}
	return out
}

func indexFrom(s, sub string, from int) int {
	i := strings.Index(s[from:], sub)
	if i < 0 {
		return -1
	}
	return from + i
}

// Match is one glossary term found in a text.
type Match struct {
	Off, Len int    // bytes of the text
	ID       string // the entry's
}

// Terms finds the preferred terms of lang in text (Find's rules), the
// longest first where two overlap, in the order of the text.
func (g *Glossary) Terms(text, lang string) []Match {
	if g == nil {
		return nil
	}
	var all []Match
	for _, e := range g.Entries {
		t := e.Terms[lang]
		for _, i := range Find(text, t) {
			all = append(all, Match{Off: i, Len: len(t), ID: e.ID})
		}
	}
	slices.SortFunc(all, func(a, b Match) int {
		if a.Off != b.Off {
			return a.Off - b.Off
		}
		return b.Len - a.Len
	})
	var out []Match
	end := 0
	for _, m := range all {
		if m.Off >= end {
			out = append(out, m)
			end = m.Off + m.Len
		}
	}
	return out
}
