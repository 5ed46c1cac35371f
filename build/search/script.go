package search

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// registry begins every script of lang's index: the object the manifest
// makes, which the search box reads and the shards and fragments add to.
func registry(b []byte, lang string) []byte {
	b = append(b, "globalThis.kakehashiSearch["...)
	b = appendJSONString(b, lang)
	return append(b, ']')
}

// manifestScript writes the manifest: the format, the first key of each
// shard and its name, and each page's fragment name (pages by number),
// all space-separated (no key holds a space), with the empty tables the
// shards and the fragments fill:
//
//	globalThis.kakehashiSearch["ja"]={"v":2,"lang":"ja","first":"…","shards":"…","pages":"…","shard":{},"page":{}};
func manifestScript(lang string, first, shards, pages []string) []byte {
	n := 256
	for _, s := range first {
		n += len(s) + 1
	}
	n += 9 * (len(shards) + len(pages))
	b := make([]byte, 0, n)
	b = append(b, "globalThis.kakehashiSearch=globalThis.kakehashiSearch||{};\n"...)
	b = registry(b, lang)
	b = append(b, `={"v":`...)
	b = strconv.AppendInt(b, formatVersion, 10)
	b = append(b, `,"lang":`...)
	b = appendJSONString(b, lang)
	b = append(b, `,"first":`...)
	b = appendJSONString(b, strings.Join(first, " "))
	b = append(b, `,"shards":`...)
	b = appendJSONString(b, strings.Join(shards, " "))
	b = append(b, `,"pages":`...)
	b = appendJSONString(b, strings.Join(pages, " "))
	b = append(b, `,"shard":{},"page":{}};`+"\n"...)
	return b
}

// shardScript writes a shard, which adds itself to the manifest's table:
//
//	globalThis.kakehashiSearch["ja"].shard["name"]={"keys":"…","post":"…"};
//
// Keys are sorted and separated by one space; post holds one record per
// key, separated by one space: the key's quantised idf, then for each
// page holding it the gap from the previous page's number and its weight
// (quantised BM25 term weight × 2, + 1 if the title has it), all as
// varints (see appendVarint). A contains entry's idf is 0, and its
// weights are the scores themselves.
func shardScript(lang string, sh shard) []byte {
	b := make([]byte, 0, len(sh.keys)+len(sh.post)+96)
	b = registry(b, lang)
	b = append(b, `.shard["`...)
	b = append(b, sh.name...)
	b = append(b, `"]={"keys":`...)
	b = appendJSONString(b, sh.keys)
	b = append(b, `,"post":`...)
	b = appendJSONString(b, sh.post)
	return append(b, "};\n"...)
}

// fragmentScript writes a page's fragment, which adds itself to the
// manifest's table:
//
//	globalThis.kakehashiSearch["ja"].page["name"]={"url":"…","title":"…","part":5,"text":"…","sec":[[0,4,"id"],…]};
//
// sec, left out when a page has none, is where its sections' headings
// are in text (sectionAt); when the text has code after its prose, a last
// [offset] says where the prose ends, and with it the last section.
func fragmentScript(lang, name, url, title string, part int, text string, secs []sectionAt) []byte {
	b := make([]byte, 0, len(url)+len(title)+len(text)*11/10+128)
	b = registry(b, lang)
	b = append(b, `.page["`...)
	b = append(b, name...)
	b = append(b, `"]={"url":`...)
	b = appendJSONString(b, url)
	b = append(b, `,"title":`...)
	b = appendJSONString(b, title)
	b = append(b, `,"part":`...)
	b = strconv.AppendInt(b, int64(part), 10)
	b = append(b, `,"text":`...)
	b = appendJSONString(b, text)
	if len(secs) > 0 {
		// [[offset, length, id], ...]: where each heading is in text.
		b = append(b, `,"sec":[`...)
		for i, s := range secs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.off), 10)
			if s.id == "" {
				b = append(b, ']')
				continue
			}
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(s.n), 10)
			b = append(b, ',')
			b = appendJSONString(b, s.id)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	return append(b, "};\n"...)
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
