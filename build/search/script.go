package search

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// writeScript writes the script, straight into a buffer of about its
// size: on a large site it is megabytes, which encoding/json would hold
// twice.
func writeScript(d *data, kb, pb []byte, textBytes int) []byte {
	lang := d.Lang
	b := make([]byte, 0, len(kb)+len(pb)+textBytes*11/10+256*len(d.URL)+1024)
	b = append(b, "globalThis.kakehashiSearch=globalThis.kakehashiSearch||{};\nglobalThis.kakehashiSearch["...)
	b = appendJSONString(b, lang)
	b = append(b, `]={"v":`...)
	b = strconv.AppendInt(b, formatVersion, 10)
	b = append(b, `,"lang":`...)
	b = appendJSONString(b, lang)
	b = append(b, `,"url":`...)
	b = appendJSONStrings(b, d.URL)
	b = append(b, `,"part":[`...)
	for i, p := range d.Part {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(p), 10)
	}
	b = append(b, `],"title":`...)
	b = appendJSONStrings(b, d.Title)
	b = append(b, `,"text":`...)
	b = appendJSONStrings(b, d.Text)
	b = append(b, `,"keys":`...)
	b = appendJSONString(b, kb)
	b = append(b, `,"post":`...)
	b = appendJSONString(b, pb)
	b = append(b, "};\n"...)
	return b
}

// appendJSONStrings appends ss as a JSON array.
func appendJSONStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendJSONString appends s as a JSON string, escaped exactly as
// encoding/json does by default: <, > and & as well, and U+2028 and
// U+2029, so that it is safe inside a script; invalid UTF-8 becomes
// U+FFFD.
func appendJSONString[T []byte | string](b []byte, s T) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// The varint alphabet: a value is written in 5-bit groups, most significant
// first; every group but the last comes from cont, the last from term.
// Neither holds a space, a quote or a backslash.
const (
	varTerm = "0123456789abcdefghijklmnopqrstuv"
	varCont = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$%"
)

func appendVarint(b []byte, v int) []byte {
	if v < 0 {
		v = 0
	}
	var groups [13]byte
	n := 0
	for {
		groups[n] = byte(v & 31)
		n++
		v >>= 5
		if v == 0 {
			break
		}
	}
	for i := n - 1; i > 0; i-- {
		b = append(b, varCont[groups[i]])
	}
	return append(b, varTerm[groups[0]])
}

// readVarints decodes a record written with appendVarint.
func readVarints(s string) ([]int, bool) {
	var out []int
	v, pending := 0, false
	for i := 0; i < len(s); i++ {
		if j := strings.IndexByte(varCont, s[i]); j >= 0 {
			v, pending = v<<5|j, true
			if v > 1<<40 {
				return nil, false
			}
			continue
		}
		j := strings.IndexByte(varTerm, s[i])
		if j < 0 {
			return nil, false
		}
		out = append(out, v<<5|j)
		v, pending = 0, false
	}
	return out, !pending
}
