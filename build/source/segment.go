package source

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxSegment is the longest segment CheckSegment accepts, in bytes: the
// longest file name of the common file systems (ext4, APFS, NTFS).
const MaxSegment = 255

// CheckSegment reports why s cannot be one segment of an output path or
// URL, or nil when it can. It is the one rule for every name from content
// or configuration that becomes part of a file name in the output or of a
// URL: series ids, the file names of pages, page folders and the files
// they hold, slugs, tags (as TagSlug spells them), each segment of an
// alias, and the site's static files; kakehashi new part checks its slug
// with it too.
//
// A segment is one clean name that a URL holds as it is written and every
// file system can store: at most MaxSegment bytes of UTF-8; not empty,
// "." or ".."; no "/" or "\", no drive letter; no space (a tag's spaces
// become "-" before, see TagSlug); none of ? # % (a URL would end its
// path there, or read an escape), " ' < > (they break the HTML the name is
// written into), : * | (Windows allows none in a file name); no control
// character (C0, DEL, C1, the line and paragraph separators), no
// bidirectional control, which would make the name read otherwise than it
// is, and no other invisible formatting character (Unicode Cf); no dot at
// its end. Japanese and Korean names are welcome. A leading dot is
// allowed (static/.well-known/); the loaders skip such files where they
// are not meant to be published. The write stage checks the whole path
// again before writing (see output.CheckPath).
func CheckSegment(s string) error {
	switch s {
	case "":
		return fmt.Errorf("it is empty")
	case ".", "..":
		return fmt.Errorf("%q would name a folder above or at the same level", s)
	}
	if len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') {
		return fmt.Errorf("%q starts with a drive letter", s)
	}
	for _, r := range s {
		switch {
		case r == '/' || r == '\\':
			return fmt.Errorf("%q contains %q: it must be a single name, not a path", s, r)
		case r == utf8.RuneError:
			return fmt.Errorf("%q is not valid UTF-8", s)
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return fmt.Errorf("%q contains the control character %U", s, r)
		case isBidiControl(r):
			return fmt.Errorf("%q contains the bidirectional control character %U: the name would read otherwise than it is", s, r)
		case unicode.Is(unicode.Cf, r):
			return fmt.Errorf("%q contains the invisible formatting character %U: two names would look the same", s, r)
		case r == '?' || r == '#':
			return fmt.Errorf("%q contains %q: a URL's path ends there, so no link would reach it", s, r)
		case r == '%':
			return fmt.Errorf("%q contains '%%': a URL reads it as the start of an escape (%%2e is \".\")", s)
		case r == '"' || r == '\'' || r == '<' || r == '>':
			return fmt.Errorf("%q contains %q: a URL segment cannot hold quotes, < or >", s, r)
		case r == ':' || r == '*' || r == '|':
			return fmt.Errorf("%q contains %q, which a file name on Windows cannot hold", s, r)
		}
	}
	if strings.TrimSpace(s) != s {
		return fmt.Errorf("%q starts or ends with a space", s)
	}
	if strings.HasSuffix(s, ".") {
		return fmt.Errorf("%q ends with a dot, which a file name on Windows loses", s)
	}
	if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return fmt.Errorf("%q contains a space: a URL cannot hold one as it is; write \"-\" instead", s)
	}
	if len(s) > MaxSegment {
		return fmt.Errorf("%q is %d bytes long: a file name or URL segment can be at most %d bytes", abbreviate(s), len(s), MaxSegment)
	}
	return nil
}

// isBidiControl reports whether r is a bidirectional control character
// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which can make a
// name show in another order than it is read.
func isBidiControl(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f',
		r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// abbreviate shortens a long name for a message: its first 32
// characters and "…".
func abbreviate(s string) string {
	n := 0
	for i := range s {
		if n == 32 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
