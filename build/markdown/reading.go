package markdown

import (
	"unicode"
)

// Reading speeds used by ReadingMinutes.
const (
	jaCharsPerMinute = 500
	koWordsPerMinute = 220
)

// ReadingMinutes estimates the reading time of text in minutes, at least 1:
// Japanese by characters (about 500 a minute, spaces not counted), Korean
// and other languages by words (about 220 a minute).
func ReadingMinutes(lang, text string) int {
	var n, per int
	if lang == "ja" {
		for _, r := range text {
			if !unicode.IsSpace(r) {
				n++
			}
		}
		per = jaCharsPerMinute
	} else {
		n, per = countFields(text), koWordsPerMinute
	}
	return max(1, (n+per/2)/per)
}

// countFields is len(strings.Fields(s)) without making the slice.
func countFields(s string) int {
	n, inField := 0, false
	for _, r := range s {
		space := unicode.IsSpace(r)
		if !space && !inField {
			n++
		}
		inField = !space
	}
	return n
}
