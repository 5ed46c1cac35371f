package source

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Translated is the value of a translation's "translated:" field, written
// "2026-12-01 3f2a1c9e7b0d": the author's local date it was marked, and
// the first HashLen hex digits of the SHA-256 of the original's
// translatable content.
type Translated struct {
	Date time.Time // the day, at midnight UTC
	Hash string    // HashLen lowercase hex digits
}

// HashLen is how many hex digits of the SHA-256 a "translated:" field
// keeps.
const HashLen = 12

// IsZero reports whether the field was not set.
func (t Translated) IsZero() bool { return t.Hash == "" }

// String is the field's value as written: "2026-12-01 3f2a1c9e7b0d".
func (t Translated) String() string {
	if t.IsZero() {
		return ""
	}
	return t.Date.Format(time.DateOnly) + " " + t.Hash
}

// ParseTranslated reads the value of a "translated:" field. Its error
// says what is wrong and ends with the form it must have; off is the
// byte offset within s of what is wrong.
func ParseTranslated(s string) (t Translated, off int, err error) {
	const form = "write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)"
	trimmed := strings.TrimLeft(s, " \t")
	lead := len(s) - len(trimmed)
	parts := strings.Fields(s)
	if len(parts) != 2 {
		return Translated{}, lead, fmt.Errorf("%q is not a date and a hash: %s", s, form)
	}
	date, hash := parts[0], parts[1]
	d, derr := time.Parse(time.DateOnly, date)
	if derr != nil {
		return Translated{}, lead, fmt.Errorf("%q is not a date of the form 2026-12-01: %s", date, form)
	}
	hashOff := lead + len(date) + strings.Index(trimmed[len(date):], hash)
	if len(hash) != HashLen || strings.Trim(hash, "0123456789abcdef") != "" {
		what := fmt.Sprintf("%d characters", utf8.RuneCountInString(hash))
		if strings.Trim(strings.ToLower(hash), "0123456789abcdef") != "" {
			what = "not hexadecimal"
		} else if len(hash) == HashLen {
			what = "in capitals"
		}
		return Translated{}, hashOff, fmt.Errorf("hash %q is %s; it must be %d lowercase hexadecimal digits: %s", hash, what, HashLen, form)
	}
	return Translated{Date: d, Hash: hash}, 0, nil
}

// langCodeRe is the form of a language code: "ja", "ko", "zh-hant".
var langCodeRe = regexp.MustCompile(`^[a-z]{2,3}(-[a-z0-9]{2,8})*$`)

// Item is the byte offset of item i of the list, or of the field when the
// item's own place is not known.
func (p FieldPos) Item(i int) int {
	if i >= 0 && i < len(p.Items) {
		return p.Items[i]
	}
	return p.Off
}

// valueOff is the byte offset in src of byte off of the string value s
// of f: s as written starts at the value, or one byte after it when
// quoted; otherwise (a TOML field, placed at its key, or an escaped
// string) the value's own offset.
func valueOff(src []byte, f field, s string, off int) int {
	for _, at := range []int{f.valOff, f.valOff + 1} {
		if at >= 0 && at <= len(src) && bytes.HasPrefix(src[at:], []byte(s)) {
			return at + off
		}
	}
	if i := bytes.IndexByte(src[f.valOff:], '\n'); i >= 0 {
		line := src[f.valOff : f.valOff+i]
		if j := bytes.Index(line, []byte(s)); j >= 0 {
			return f.valOff + j + off
		}
	}
	return f.valOff
}
