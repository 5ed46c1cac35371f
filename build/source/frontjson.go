// JSON front matter: a page that opens with a JSON object, decoded with
// the positions of its fields.

package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// jsonFrontMatter finds front matter written as a JSON object, as Hugo
// reads it: the file's first character but spaces is "{" and, as a JSON
// object goes on, the next is a quote or "}" (so a page that begins with
// a shortcode, "{{< … >}}", has none; Hugo would read one and fail). The
// object ends at its matching "}"; the body begins after it and the line
// end right after it, if any.
func jsonFrontMatter(p string, src []byte) (fm []byte, start, bodyStart int, kind string, d *diag.Diagnostic) {
	start = len(src) - len(bytes.TrimLeft(src, " \t\r\n"))
	if start == len(src) || src[start] != '{' {
		return nil, 0, 0, "", nil
	}
	if rest := bytes.TrimLeft(src[start+1:], " \t\r\n"); len(rest) == 0 || rest[0] != '"' && rest[0] != '}' {
		return nil, 0, 0, "", nil
	}
	depth, inString := 0, false
	for i := start; i < len(src); i++ {
		switch c := src[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				end := i + 1
				switch {
				case bytes.HasPrefix(src[end:], []byte("\r\n")):
					bodyStart = end + 2
				case bytes.HasPrefix(src[end:], []byte("\n")):
					bodyStart = end + 1
				default:
					bodyStart = end
				}
				return src[start:end], start, bodyStart, "json", nil
			}
		}
	}
	e := diag.At(p, src, start, `front matter opened with "{" is never closed: end the JSON object with its "}"`)
	return nil, 0, 0, "", &e
}

// decodeJSON decodes front matter written as a JSON object, fm, at byte
// offset start of the file src, with the place of each field's name, its
// value and a list's items, as the YAML and TOML decoders give them.
func decodeJSON(p string, src, fm []byte, start int) (FrontMatter, diag.List) {
	dec := json.NewDecoder(bytes.NewReader(fm))
	dec.UseNumber()
	// next is where the next token begins, past spaces and separators.
	next := func() int {
		i := int(dec.InputOffset())
		for i < len(fm) && bytes.IndexByte([]byte(" \t\r\n:,"), fm[i]) >= 0 {
			i++
		}
		return i
	}
	fail := func(err error) (FrontMatter, diag.List) {
		// The decoder stops at the character it refuses (its
		// SyntaxError.Offset does not count from the object's start).
		off := int(dec.InputOffset())
		for off < len(fm) && bytes.IndexByte([]byte(" \t\r\n"), fm[off]) >= 0 {
			off++
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			off = len(fm)
		}
		return FrontMatter{}, diag.List{diag.At(p, src, start+min(off, len(fm)), "front matter: %s", jsonMessage(err))}
	}
	if _, err := dec.Token(); err != nil { // "{"
		return fail(err)
	}
	var fields []field
	var twice diag.List
	seen := map[string]int{} // key → index in fields
	for dec.More() {
		keyOff := next()
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := tok.(string)
		if k, ok := seen[key]; ok {
			// JSON, and Hugo, keep the last value.
			twice = append(twice, diag.At(p, src, start+keyOff, "front matter field %q is given twice; the last value counts, as in Hugo", key).AsWarning())
			fields = append(fields[:k], fields[k+1:]...)
			for n, j := range seen {
				if j > k {
					seen[n] = j - 1
				}
			}
		}
		seen[key] = len(fields)
		f := field{key: key, keyOff: start + keyOff, valOff: start + next()}
		if f.valOff < start+len(fm) && src[f.valOff] == '[' {
			// A list: each item where it is.
			if _, err := dec.Token(); err != nil {
				return fail(err)
			}
			list := []any{}
			for dec.More() {
				f.items = append(f.items, start+next())
				var v any
				if err := dec.Decode(&v); err != nil {
					return fail(err)
				}
				list = append(list, jsonValue(v))
			}
			if _, err := dec.Token(); err != nil { // "]"
				return fail(err)
			}
			f.value = list
		} else {
			var v any
			if err := dec.Decode(&v); err != nil {
				return fail(err)
			}
			f.value = jsonValue(v)
		}
		fields = append(fields, f)
	}
	if _, err := dec.Token(); err != nil { // "}"
		return fail(err)
	}
	meta, diags := assign(p, src, fields)
	return meta, append(twice, diags...)
}

// jsonValue turns the numbers of a decoded JSON value into what YAML
// gives: int for a whole number, float64 otherwise.
func jsonValue(v any) any {
	switch v := v.(type) {
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return int(n)
		}
		f, _ := v.Float64()
		return f
	case []any:
		for i := range v {
			v[i] = jsonValue(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = jsonValue(v[k])
		}
	}
	return v
}

// jsonMessage is the text of a JSON decoding error for a message.
func jsonMessage(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of the JSON object"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
