// Package particle chooses the form of a Korean particle (josa) that
// follows a word: 은/는, 이/가, 을/를, 과/와, 으로/로 and the like. The form
// depends on how the word ends when read aloud: after a final consonant
// (batchim) the first form (은, 이, 을, 과, 으로), after a vowel the second
// (는, 가, 를, 와, 로); a final ㄹ takes 로, not 으로.
//
// The word need not be Hangul. Digits are read as Korean reads numbers
// (2 이, 3 삼, 10 십, 100 백, 6443 …삼, 10.0.0.120 …십), Latin letters by
// their Korean names (L 엘, M 엠, N 엔, R 알, the others end in a vowel),
// short lowercase runs without a vowel letter (cp, lb, crt) letter by
// letter, a table of common words and acronyms by their usual reading
// (etcd 이티시디, kubectl 큐브컨트롤, CIDR 사이더), and other English words
// by a rule of their spelling's ending. Trailing quotes, punctuation and
// closing brackets are skipped, and a parenthesised gloss after a word
// leaves the choice to the word: "엔드포인트(10.0.0.100)" takes 는.
//
// The package imports only the standard library, so the calculators that
// compile to WebAssembly can use it.
package particle

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Final is how a word ends when read aloud in Korean.
type Final int

const (
	// Unknown: the ending cannot be read (a kanji, an empty word).
	Unknown Final = iota
	// Vowel: no final consonant, e.g. 가, 2 (이), etcd (…디), API (…아이).
	Vowel
	// Rieul: the final consonant ㄹ, e.g. 일, cp-1 (…일), L (엘), kubectl.
	Rieul
	// Consonant: any other final consonant, e.g. 삼, 6443 (…삼), 10 (십), M (엠).
	Consonant
)

func (f Final) String() string {
	switch f {
	case Vowel:
		return "vowel"
	case Rieul:
		return "rieul"
	case Consonant:
		return "consonant"
	}
	return "unknown"
}

// Ko returns word followed by the form of pair that fits it:
// Ko("cp-1", "으로/로") is "cp-1로", Ko("쿼럼 2", "을/를") is "쿼럼 2를".
func Ko(word, pair string) string { return word + Choose(word, pair) }

// Choose returns the form of pair ("은/는", "이/가", "을/를", "과/와",
// "으로/로", "이나/나", "이라/라", "아/야", … in either order) that follows
// word. When the ending of word cannot be read it returns both forms in the
// usual written way, "은(는)" or "(으)로"; a pair it does not know is
// returned unchanged.
func Choose(word, pair string) string {
	p, ok := parsePair(pair)
	if !ok {
		return pair
	}
	switch FinalOf(word) {
	case Vowel:
		return p.vowel
	case Rieul:
		if p.rieulVowel {
			return p.vowel
		}
		return p.consonant
	case Consonant:
		return p.consonant
	}
	if strings.HasSuffix(p.consonant, p.vowel) {
		return "(" + strings.TrimSuffix(p.consonant, p.vowel) + ")" + p.vowel
	}
	return p.consonant + "(" + p.vowel + ")"
}

// IsPair reports whether s is a particle pair Choose knows, such as "이/가".
func IsPair(s string) bool {
	_, ok := parsePair(s)
	return ok
}

// Resolve replaces every marker {A/B} in s whose A/B is a particle pair
// with the form that fits the text before it, so a template can read
// "{node}{이/가} 다운되었습니다" once its placeholders are filled. Braces
// that hold anything else are kept.
func Resolve(s string) string {
	if !strings.Contains(s, "/") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		if inner := s[i+1 : i+j]; IsPair(inner) {
			b.WriteString(Choose(b.String(), inner))
		} else {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
}

type pair struct {
	consonant, vowel string
	rieulVowel       bool // ㄹ takes the vowel form (으로/로 and its compounds)
}

// fixedPairs are the pairs whose forms are not one the other with 이 or 으
// in front; the consonant form comes first.
var fixedPairs = [][2]string{
	{"은", "는"}, {"이", "가"}, {"을", "를"}, {"과", "와"}, {"아", "야"},
	{"이에요", "예요"}, {"이어야", "여야"}, {"이었", "였"}, {"과의", "와의"},
	{"과는", "와는"}, {"과도", "와도"}, {"과만", "와만"}, {"은요", "는요"},
}

func parsePair(s string) (pair, bool) {
	a, b, ok := strings.Cut(s, "/")
	if !ok || a == "" || b == "" || a == b || !allHangul(a) || !allHangul(b) {
		return pair{}, false
	}
	for _, f := range fixedPairs {
		if (a == f[0] && b == f[1]) || (a == f[1] && b == f[0]) {
			return pair{consonant: f[0], vowel: f[1]}, true
		}
	}
	if len(b) > len(a) {
		a, b = b, a
	}
	switch {
	case a == "으"+b:
		return pair{consonant: a, vowel: b, rieulVowel: true}, true
	case a == "이"+b:
		return pair{consonant: a, vowel: b}, true
	}
	return pair{}, false
}

func allHangul(s string) bool {
	for _, r := range s {
		if !isSyllable(r) {
			return false
		}
	}
	return true
}

func isSyllable(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

// FinalOf returns how word ends when read aloud in Korean.
func FinalOf(word string) Final {
	s := word
	for {
		s = strings.TrimRightFunc(s, skippable)
		if s == "" {
			return Unknown
		}
		r, size := utf8.DecodeLastRuneInString(s)
		switch r {
		case ')', '）':
			open := openParen(s)
			switch {
			case open < 0:
				s = s[:len(s)-size]
			case strings.TrimSpace(s[:open]) == "":
				s = s[open+1 : len(s)-size] // the whole word is in brackets
			default:
				s = s[:open] // a gloss: the word before it decides
			}
			continue
		case ']', '}', '>', '」', '』', '》', '〉', '】', '］':
			s = s[:len(s)-size]
			continue
		case '%':
			return Vowel // 퍼센트
		case '+':
			return Vowel // 플러스
		case '&':
			return Vowel // 앤드
		case '#':
			return Consonant // 샵
		}
		switch {
		case isSyllable(r):
			switch (r - 0xAC00) % 28 {
			case 0:
				return Vowel
			case 8:
				return Rieul
			}
			return Consonant
		case r >= 0x3131 && r <= 0x314E: // a consonant letter: ㄱ 기역, ㄹ 리을
			if r == 'ㄹ' {
				return Rieul
			}
			return Consonant
		case r >= 0x314F && r <= 0x3163: // a vowel letter: ㅏ 아
			return Vowel
		case r >= '0' && r <= '9':
			return number(s)
		case r < utf8.RuneSelf && unicode.IsLetter(r):
			return latin(s)
		case r == 'ん' || r == 'ン':
			return Consonant
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			return Vowel
		}
		return Unknown
	}
}

// skippable is what follows a word without being read: spaces, quotes and
// punctuation.
func skippable(r rune) bool {
	if unicode.IsSpace(r) {
		return true
	}
	switch r {
	case '.', ',', ';', ':', '!', '?', '\'', '"', '`', '*', '~', '_', '-', '/', '\\', '|', '=',
		'’', '”', '…', '。', '、', '·', '・', '．', '，', '：', '！', '？':
		return true
	}
	return false
}

// openParen returns the index of the '(' that the ')' ending s closes, or -1.
func openParen(s string) int {
	depth := 0
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		switch r {
		case ')', '）':
			depth++
		case '(', '（':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// digitFinal is how each digit's Korean name ends: 영 일 이 삼 사 오 육 칠 팔 구.
var digitFinal = [10]Final{Consonant, Rieul, Vowel, Consonant, Vowel, Vowel, Consonant, Rieul, Rieul, Vowel}

// unitFinal is how the units after 만 end: 만, 억, 조, 경, 해.
var unitFinal = []Final{Consonant, Consonant, Vowel, Consonant, Vowel}

// number reads the run of digits that ends s as a number: its last spoken
// syllable is the last digit's name, or the unit of its trailing zeros (10
// 십, 200 이백, 3000 삼천, 10000 만). A run with a leading zero ("007",
// "000") or too long to be a number is read digit by digit. Commas that
// group thousands ("1,000") are part of the number.
func number(s string) Final {
	var digits []byte
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits = append(digits, c)
			continue
		}
		if c == ',' && i > 0 && s[i-1] >= '0' && s[i-1] <= '9' && len(digits)%3 == 0 && len(digits) > 0 {
			continue
		}
		break
	}
	// digits is reversed: digits[0] is the last digit.
	if before := s[:len(s)-len(digits)]; len(digits) == 1 && strings.HasSuffix(strings.ToLower(before), "ipv") {
		return Vowel // IPv4 포, IPv6 식스
	}
	last := digits[0] - '0'
	if last != 0 || len(digits) == 1 || digits[len(digits)-1] == '0' {
		return digitFinal[last]
	}
	zeros := 0
	for zeros < len(digits) && digits[zeros] == '0' {
		zeros++
	}
	switch zeros % 4 {
	case 1:
		return Consonant // 십
	case 2:
		return Consonant // 백
	case 3:
		return Consonant // 천
	}
	if u := zeros/4 - 1; u < len(unitFinal) {
		return unitFinal[u]
	}
	return digitFinal[0]
}
