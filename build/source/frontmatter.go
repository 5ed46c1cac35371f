package source

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"go.yaml.in/yaml/v3"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// FrontMatter is a page's metadata.
type FrontMatter struct {
	Title       string
	Description string
	Series      string
	Part        int
	Date        time.Time
	Tags        []string
	Draft       bool
	// Params holds every other field, for the theme.
	Params map[string]any
}

// knownFields are the fields kakehashi itself reads; anything else goes to
// Params, with a warning when it looks like a misspelt known field.
var knownFields = []string{"title", "description", "series", "part", "date", "tags", "draft"}

// field is one front matter entry with where it came from.
type field struct {
	key    string
	value  any
	keyOff int // byte offset of the key in the file
	valOff int // byte offset of the value in the file
}

func decodeYAML(p string, src, fm []byte, start int) (FrontMatter, diag.List) {
	var root yaml.Node
	if err := yaml.Unmarshal(fm, &root); err != nil {
		return FrontMatter{}, diag.List{yamlError(p, src, start, err)}
	}
	if len(root.Content) == 0 {
		return FrontMatter{}, nil
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return FrontMatter{}, diag.List{diag.At(p, src, yamlOffset(src, start, m.Line, m.Column),
			"front matter must be a mapping of fields (title: ..., part: ...)")}
	}
	var fields []field
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		var val any
		if err := v.Decode(&val); err != nil {
			return FrontMatter{}, diag.List{yamlError(p, src, start, err)}
		}
		// A YAML timestamp decodes to time.Time; keep dates as written
		// so one parser handles YAML and TOML alike.
		if v.Tag == "!!timestamp" {
			val = v.Value
		}
		fields = append(fields, field{
			key:    k.Value,
			value:  val,
			keyOff: yamlOffset(src, start, k.Line, k.Column),
			valOff: yamlOffset(src, start, v.Line, v.Column),
		})
	}
	return assign(p, src, fields)
}

// yamlOffset turns a YAML node's 1-based line and column (relative to the
// front matter) into a byte offset in the whole file.
func yamlOffset(src []byte, start, line, col int) int {
	l, _ := diag.Position(src, start)
	return diag.Offset(src, l+line-1, col)
}

var yamlLineRe = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

func yamlError(p string, src []byte, start int, err error) diag.Diagnostic {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = "yaml: " + te.Errors[0]
	}
	line := 1
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
		}
		msg = m[2]
	} else if i := strings.Index(msg, "line "); i >= 0 {
		fmt.Sscanf(msg[i:], "line %d", &line)
	}
	return diag.At(p, src, yamlOffset(src, start, line, 1), "front matter: %s", msg)
}

func decodeTOML(p string, src, fm []byte, start int) (FrontMatter, diag.List) {
	var m map[string]any
	if err := toml.Unmarshal(fm, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			l, _ := diag.Position(src, start)
			return FrontMatter{}, diag.List{diag.AtLine(p, src, l+row-1, col, "front matter: %s", de.Error())}
		}
		return FrontMatter{}, diag.List{diag.At(p, src, start, "front matter: %v", err)}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var fields []field
	for _, k := range keys {
		off := tomlKeyOffset(src, start, k)
		v := m[k]
		if t, ok := v.(toml.LocalDate); ok {
			v = t.String()
		}
		if t, ok := v.(time.Time); ok {
			v = t.Format(time.RFC3339)
		}
		fields = append(fields, field{key: k, value: v, keyOff: off, valOff: off})
	}
	return assign(p, src, fields)
}

// tomlKeyOffset finds the line that sets key at the top level of the TOML
// front matter, for positions in messages.
func tomlKeyOffset(src []byte, start int, key string) int {
	re := regexp.MustCompile(`(?m)^[ \t]*"?` + regexp.QuoteMeta(key) + `"?[ \t]*=`)
	if loc := re.FindIndex(src[start:]); loc != nil {
		return start + loc[0]
	}
	return start
}

// assign checks each field's type and fills the front matter, reporting
// every problem with the field's position.
func assign(p string, src []byte, fields []field) (FrontMatter, diag.List) {
	var fm FrontMatter
	var diags diag.List
	bad := func(f field, want string) {
		diags = append(diags, diag.At(p, src, f.valOff, "front matter field %q must be %s, got %s", f.key, want, describe(f.value)))
	}
	for _, f := range fields {
		switch f.key {
		case "title", "description", "series":
			s, ok := f.value.(string)
			if !ok {
				bad(f, "a string")
				continue
			}
			switch f.key {
			case "title":
				fm.Title = s
			case "description":
				fm.Description = s
			case "series":
				fm.Series = s
			}
		case "part":
			n, ok := asInt(f.value)
			if !ok || n < 1 {
				bad(f, "a positive whole number")
				continue
			}
			fm.Part = n
		case "draft":
			b, ok := f.value.(bool)
			if !ok {
				bad(f, "true or false")
				continue
			}
			fm.Draft = b
		case "date":
			s, _ := f.value.(string)
			t, ok := parseDate(s)
			if !ok {
				bad(f, "a date like 2026-11-02 or 2026-11-02T09:00:00+09:00")
				continue
			}
			fm.Date = t
		case "tags":
			tags, ok := asStrings(f.value)
			if !ok {
				bad(f, "a list of strings")
				continue
			}
			fm.Tags = tags
		default:
			if near := diag.Suggest(f.key, knownFields); near != "" {
				diags = append(diags, diag.At(p, src, f.keyOff, "unknown front matter field %q; did you mean %q?", f.key, near).AsWarning())
			}
			if fm.Params == nil {
				fm.Params = map[string]any{}
			}
			fm.Params[f.key] = f.value
		}
	}
	return fm, diags
}

func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case uint64:
		return int(n), true
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	}
	return 0, false
}

func asStrings(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			if n, isInt := asInt(e); isInt {
				s = strconv.Itoa(n)
			} else {
				return nil, false
			}
		}
		out = append(out, s)
	}
	return out, true
}

var dateLayouts = []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"}

func parseDate(s string) (time.Time, bool) {
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
