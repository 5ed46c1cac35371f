package diag

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every character that could drive a terminal or
// reorder what it shows written as a visible escape, so that a diagnostic
// quoting a source line, a value from a file or a file's name is safe to
// print: C0 controls but tab and line feed, and DEL, as \x1b; C1 controls
// (U+0080–U+009F), the bidirectional controls (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators as
// \u202e; a byte that is not UTF-8 as \x9b. Everything else, Japanese and
// Korean text included, is kept as it is. A backslash is not doubled:
// the output is for reading, not for parsing back. A line feed is kept
// because a message may wrap an error of several lines; a source line
// holds none.
func Escape(s string) string {
	i := unsafeIndex(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if e := escapeRune(r, n, s[i]); e != "" {
			b.WriteString(e)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeIndex is the byte offset of the first character Escape changes,
// or -1.
func unsafeIndex(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if escapeRune(r, n, c) != "" {
			return i
		}
		i += n
	}
	return -1
}

// escapeRune is the visible form of the character r of n bytes starting
// with the byte first, or "" when r is shown as it is.
func escapeRune(r rune, n int, first byte) string {
	switch {
	case r == utf8.RuneError && n == 1:
		return fmt.Sprintf(`\x%02x`, first)
	case r == '\t' || r == '\n':
		return ""
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case r >= 0x80 && r <= 0x9f, isBidi(r), r == 0x2028, r == 0x2029:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return ""
}

// isBidi reports whether r is a bidirectional control, which can make a
// terminal show text in another order than it is read (Trojan Source).
func isBidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// caretPad is what goes before the caret under the character at 0-based
// index col of line as String shows it (escaped): a tab for each tab, so
// that the caret line keeps the source line's tab stops, and spaces for
// the rest, two for an East Asian wide character and one for each
// character of an escape.
func caretPad(line string, col int) string {
	var b strings.Builder
	for i, k := 0, 0; i < len(line) && k < col; k++ {
		r, n := utf8.DecodeRuneInString(line[i:])
		switch e := escapeRune(r, n, line[i]); {
		case r == '\t':
			b.WriteByte('\t')
		case r == '\n': // shown as \x0a (escapeLine)
			b.WriteString("    ")
		case e != "":
			b.WriteString(strings.Repeat(" ", len(e)))
		default:
			b.WriteString(strings.Repeat(" ", runeWidth(r)))
		}
		i += n
	}
	return b.String()
}
