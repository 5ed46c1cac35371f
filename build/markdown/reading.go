package markdown

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// Reading speeds used by ReadingMinutes, each in the unit its script is
// counted in. A twin page says the same in another script, so the rates
// are set for a translation to take as long as its original.
const (
	// latinWordsPerMinute is for words of letters and digits (Latin,
	// Cyrillic, numbers, "kube-apiserver", "10.0.0.11"), in any page:
	// 238 words a minute, the silent reading rate of English non-fiction
	// by adults in Brysbaert (2019), "How many words do we read per
	// minute? A review and meta-analysis of reading rate", Journal of
	// Memory and Language 109, 104047 (190 studies, 18,573 readers;
	// 183 a minute aloud).
	latinWordsPerMinute = 238
	// jaCharsPerMinute is for Japanese characters (kanji, hiragana,
	// katakana; punctuation not counted): 500 a minute, the middle of the
	// 400–600 commonly given for the silent reading of Japanese prose. No
	// single study verified here gives that figure. Trauzettel-Klosinski
	// & Dietz (2012), "Standardized Assessment of Reading Performance: The
	// New International Reading Speed Texts IReST", Investigative
	// Ophthalmology & Visual Science 53(9):5452–5461, measured Japanese
	// read aloud at 1.21 ± 0.19 texts a minute (its Table 2; the mean of
	// its 17 languages is 1.42), but its Japanese figure in characters a
	// minute could not be checked, and reading aloud is slower than
	// silent reading (183 against 238 words a minute in English, above).
	jaCharsPerMinute = 500
	// koSyllablesPerMinute is for Hangul syllable blocks: 425 a minute.
	// IReST has no Korean (its 17 languages are Arabic, Chinese, Dutch,
	// English, Finnish, French, German, Hebrew, Italian, Japanese,
	// Polish, Portuguese, Russian, Slovenian, Spanish, Swedish, Turkish).
	// Song, Kim & Hyung (2016), "Validity of Korean Version Reading Speed
	// Application and Measurement of Reading Speed: Pilot Study", Journal
	// of the Korean Ophthalmological Society 57(4):642–649,
	// doi:10.3341/jkos.2016.57.4.642 (in English as Rhiu et al. 2017,
	// Korean Journal of Ophthalmology 31(3), doi:10.3341/kjo.2016.0042),
	// measured 202.3 ± 88.4 words a minute read silently, on sentences of
	// 18.9 syllables and 6.5 words on average: about 590 syllables a
	// minute, for short sentences from second-grade textbooks. A
	// technical article with Latin terms reads slower; 425 (72% of that)
	// is where the bundled course's Korean twins, with 0.83–0.86 Hangul
	// syllables per Japanese character of their originals (3380/3929 in
	// part 5, 1224/1470 in part 2), take as long as their originals at
	// jaCharsPerMinute: 500 × 0.85 = 425. Brysbaert (2019, above) finds
	// that the rates of other languages follow from how much text they
	// need for the same message, which is what matching twins does.
	koSyllablesPerMinute = 425
)

// ReadingMinutes estimates the reading time of text, a page's plain text
// without its code blocks, in whole minutes, rounded up: 3.49 and 3.52
// minutes both read "4". Each script is
// counted in its own unit at its own rate (see the constants above):
// Japanese by characters, Korean by syllables, and every word of letters
// or digits, a Latin word in a Japanese sentence too, as a word.
// Punctuation, symbols and spaces take no time. The rule is the same for
// every lang, so a page in a language without a rate of its own is timed
// by its words; lang is there for rates a language may need later.
func ReadingMinutes(lang, text string) int {
	return max(1, int(math.Ceil(readingTime(lang, text))))
}

// readingTime is ReadingMinutes before rounding up.
func readingTime(_, text string) float64 {
	ja, ko, words := countReading(text)
	return float64(ja)/jaCharsPerMinute + float64(ko)/koSyllablesPerMinute + float64(words)/latinWordsPerMinute
}

// countReading counts text's Japanese characters, Hangul syllables and
// words of letters and digits. A word's letters may be joined by one of
// ' ’ . - _ / : (kube-apiserver, 10.0.0.11, don't); a word ends at a
// character of another script ("etcd는" is a word and a syllable).
func countReading(text string) (ja, ko, words int) {
	inWord := false // the last rune was a word's letter or digit
	joined := false // a joiner followed a word's letter
	for _, r := range text {
		var k readKind
		switch {
		case r < utf8.RuneSelf:
			k = asciiKinds[r]
		case r >= 0xAC00 && r <= 0xD7A3: // Hangul syllables
			k = kindKo
		case r >= 0x4E00 && r <= 0x9FFF: // CJK unified ideographs, all Han
			k = kindJa
		case r >= 0x3000 && r <= 0x30FF: // CJK punctuation, kana
			k = kanaKinds[r-0x3000]
		case r >= 0xFF00 && r <= 0xFFFF: // full- and half-width forms
			k = widthKinds[r-0xFF00]
		default:
			k = readKindOf(r)
		}
		switch {
		case k == kindJa:
			ja++
		case k == kindKo:
			ko++
		case k == kindWord || inWord && k == kindMark:
			if !inWord && !joined {
				words++
			}
			inWord, joined = true, false
			continue
		case inWord && k == kindJoiner:
			inWord, joined = false, true
			continue
		}
		inWord, joined = false, false
	}
	return ja, ko, words
}

// readKind is what countReading counts a character as.
type readKind uint8

const (
	kindOther  readKind = iota
	kindJa              // a Japanese character (isJapaneseLetter)
	kindKo              // a Hangul syllable
	kindWord            // a letter or digit of a word
	kindMark            // a nonspacing mark: a word's letter after one
	kindJoiner          // joins two words' letters into one (isJoiner)
)

// readKindOf is the kind of r.
func readKindOf(r rune) readKind {
	switch {
	case isJapaneseLetter(r):
		return kindJa
	case r >= 0xAC00 && r <= 0xD7A3:
		return kindKo
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		return kindWord
	case unicode.Is(unicode.Mn, r):
		return kindMark
	case isJoiner(r):
		return kindJoiner
	}
	return kindOther
}

// The kinds of the characters of the blocks Japanese and Korean text is
// mostly made of, looked up rather than found in the unicode tables.
var asciiKinds, kanaKinds, widthKinds = kindsFrom(0, utf8.RuneSelf), kindsFrom(0x3000, 0x100), kindsFrom(0xFF00, 0x100)

// kindsFrom lists the kinds of the n characters from first on.
func kindsFrom(first rune, n int) []readKind {
	ks := make([]readKind, n)
	for i := range ks {
		ks[i] = readKindOf(first + rune(i))
	}
	return ks
}

// isJapaneseLetter reports whether r is read as one Japanese character:
// Han, Hiragana, Katakana (with the prolonged sound mark and half-width
// forms), not punctuation.
func isJapaneseLetter(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF: // CJK unified ideographs, all Han
		return true
	case r >= 0x3041 && r <= 0x309F, // Hiragana
		r >= 0x30A1 && r <= 0x30FA, r == 0x30FC, r == 0x30FD, r == 0x30FE, r == 0x30FF, // Katakana, ー, ヽヾ, ヿ
		r >= 0x31F0 && r <= 0x31FF, // Katakana phonetic extensions
		r >= 0xFF66 && r <= 0xFF9F, // half-width Katakana
		r == 0x3005 || r == 0x3006: // 々 〆
		return true
	}
	return unicode.Is(unicode.Han, r)
}

func isJoiner(r rune) bool {
	switch r {
	case '\'', '’', '.', '-', '_', '/', ':':
		return true
	}
	return false
}
