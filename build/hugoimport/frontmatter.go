package hugoimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// splitFrontMatter finds a Hugo page's front matter: YAML between "---"
// lines, TOML between "+++" lines, or a JSON object at the start of the
// file. It returns its text, its byte offset, where the body starts and
// its format ("" for none).
func splitFrontMatter(p string, src []byte) (fm []byte, start, body int, format string, d *diag.Diagnostic) {
	var delim string
	switch {
	case delimLine(src, "---"):
		delim, format = "---", fmtYAML
	case delimLine(src, "+++"):
		delim, format = "+++", fmtTOML
	case len(src) > 0 && src[0] == '{':
		dec := json.NewDecoder(bytes.NewReader(src))
		var v any
		if err := dec.Decode(&v); err != nil {
			e := diag.At(p, src, int(dec.InputOffset()), "JSON front matter: %v", err)
			return nil, 0, 0, "", &e
		}
		end := int(dec.InputOffset())
		body = end
		if nl := bytes.IndexByte(src[end:], '\n'); nl >= 0 && len(bytes.TrimSpace(src[end:end+nl])) == 0 {
			body = end + nl + 1
		}
		return src[:end], 0, body, fmtJSON, nil
	default:
		return nil, 0, 0, "", nil
	}
	start = bytes.IndexByte(src, '\n') + 1
	for off := start; off <= len(src); {
		nl := bytes.IndexByte(src[off:], '\n')
		line, next := src[off:], len(src)
		if nl >= 0 {
			line, next = src[off:off+nl], off+nl+1
		}
		if string(bytes.TrimRight(line, " \t")) == delim {
			return src[start:off], start, next, format, nil
		}
		if nl < 0 {
			break
		}
		off = next
	}
	e := diag.At(p, src, 0, "front matter opened with %q is never closed", delim)
	return nil, 0, 0, "", &e
}

// delimLine tells whether src starts with a line of delim alone.
func delimLine(src []byte, delim string) bool {
	if !bytes.HasPrefix(src, []byte(delim)) {
		return false
	}
	rest := bytes.TrimLeft(src[len(delim):], " \t")
	return len(rest) > 0 && rest[0] == '\n'
}

// hugoDateLayouts are the date formats Hugo's front matter takes (by
// spf13/cast's StringToDate), the most common first; each with whether it
// has a time and a zone.
var hugoDateLayouts = []struct {
	layout     string
	time, zone bool
}{
	{time.RFC3339, true, true},
	{"2006-01-02T15:04:05", true, false},
	{"2006-01-02", false, false},
	{time.RFC3339Nano, true, true},
	{"2006-01-02T15:04:05Z0700", true, true},
	{"2006-01-02T15:04", true, false},
	{"2006-01-02 15:04:05Z07:00", true, true},
	{"2006-01-02 15:04:05 -07:00", true, true},
	{"2006-01-02 15:04:05 -0700", true, true},
	{"2006-01-02 15:04:05 -0700 MST", true, true},
	{"2006-01-02 15:04:05", true, false},
	{"2006-01-02 15:04", true, false},
	{time.RFC1123Z, true, true},
	{time.RFC1123, true, true},
	{time.RFC822Z, true, true},
	{time.RFC822, true, true},
	{time.RFC850, true, true},
	{"02 Jan 2006", false, false},
	{"January 2, 2006", false, false},
	{"Jan 2, 2006", false, false},
}

// parseHugoDate reads a front matter date as Hugo does: a TOML or YAML
// date, or a string in one of Hugo's formats. It returns the time and
// how kakehashi writes it: "2006-01-02" for a day, a time without a
// zone as written, else RFC 3339.
func parseHugoDate(v any) (time.Time, string, bool) {
	switch v := v.(type) {
	case time.Time:
		return v, v.Format(time.RFC3339), true
	case toml.LocalDate:
		t := v.AsTime(time.UTC)
		return t, t.Format("2006-01-02"), true
	case toml.LocalDateTime:
		t := v.AsTime(time.UTC)
		return t, t.Format("2006-01-02T15:04:05"), true
	case string:
		s := strings.TrimSpace(v)
		for _, l := range hugoDateLayouts {
			t, err := time.Parse(l.layout, s)
			if err != nil {
				continue
			}
			switch {
			case !l.time:
				return t, t.Format("2006-01-02"), true
			case !l.zone:
				return t, t.Format("2006-01-02T15:04:05"), true
			}
			return t, t.Format(time.RFC3339), true
		}
	}
	return time.Time{}, "", false
}

// describe names a front matter value for a message.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case nil:
		return "nothing"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprint(v)
}
