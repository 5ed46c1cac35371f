package source

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"go.yaml.in/yaml/v3"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// FrontMatter is a page's metadata. Each of its fields but Pos is one
// entry of the table of fields (Fields), which says what it is read from,
// how it is checked and where it is used.
type FrontMatter struct {
	Title       string
	Description string
	// Summary, when set, stands for the page in feeds and listings
	// instead of Description.
	Summary string
	Series  string
	Part    int
	Date    time.Time
	// Lastmod is when the page last changed in substance; zero when
	// never said. The article shows it as "updated", the feed and the
	// sitemap give it as the page's update time.
	Lastmod time.Time
	Tags    []string
	Draft   bool
	// Slug is the page's URL segment instead of its file name; "" for
	// the file name. It passed CheckSegment.
	Slug string
	// Aliases are the page's old URL paths, as written: site-absolute
	// ("/ja/old-name/") or relative to the page's folder ("old-name").
	// Every segment passed CheckSegment; each gets a redirect page.
	Aliases []string
	// Params holds the "params" mapping, free for the theme.
	Params map[string]any
	// Translated is a translation's "translated:" line: the day it was
	// marked up to date with its original and the hash of the original's
	// translatable content then (package translation computes and
	// compares it). Zero when the field is not set.
	Translated Translated
	// TranslationOf is the language of the page's original when that is
	// not the site's first language ("translationOf: ko" on a page
	// written first in Korean); "" otherwise. Only its form is checked
	// here; package translation checks it against the site's languages.
	TranslationOf string
	// Pos is where each field's value is in the file, by field name, for
	// the messages of later stages. It is no field of the file.
	Pos map[string]FieldPos `frontmatter:"-"`
}

// FieldPos is where a front matter field's value is in the file, as the
// YAML, TOML or JSON parser read it: the byte offset of the value and, for a
// list, of each of its items.
type FieldPos struct {
	// Key is the byte offset of the field's name, at the start of its
	// line ("translated: ..."; for a TOML [table], the start of its
	// header's line), for an edit or a message about the whole line.
	Key int
	// Off is the byte offset of the value (of a dotted TOML key, the key).
	Off   int
	Items []int
}

// field is one front matter entry with where it came from.
type field struct {
	key    string
	value  any
	keyOff int   // byte offset of the key in the file
	valOff int   // byte offset of the value in the file
	items  []int // byte offsets of a list's items, when known
}

func decodeYAML(p string, src, fm []byte, start int) (FrontMatter, diag.List) {
	var root yaml.Node
	if err := yaml.Unmarshal(fm, &root); err != nil {
		return FrontMatter{}, diag.List{yamlError(p, src, fm, start, nil, "front matter", err)}
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
	at := newYAMLLines(src, fm, start)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		var val any
		if err := v.Decode(&val); err != nil {
			return FrontMatter{}, diag.List{yamlError(p, src, fm, start, v, "front matter", err)}
		}
		// A YAML timestamp decodes to time.Time; keep dates as written
		// so one parser handles YAML and TOML alike.
		if v.Tag == "!!timestamp" {
			val = v.Value
		}
		f := field{
			key:    k.Value,
			value:  val,
			keyOff: at.offset(k.Line, k.Column),
			valOff: at.offset(v.Line, v.Column),
		}
		if v.Kind == yaml.SequenceNode {
			for _, item := range v.Content {
				f.items = append(f.items, at.offset(item.Line, item.Column))
			}
		}
		fields = append(fields, f)
	}
	return assign(p, src, fields)
}

// yamlLines is yamlOffset for the nodes of one front matter, doc, which
// starts a line at byte offset start of src: its lines' starts are found
// once, not again from the file's start for each node.
type yamlLines struct {
	src, doc []byte
	start    int
	starts   []int // of doc's lines, relative to doc
}

func newYAMLLines(src, doc []byte, start int) *yamlLines {
	y := &yamlLines{src: src, doc: doc, start: start, starts: make([]int, 1, 32)}
	for i, c := range doc {
		if c == '\n' {
			y.starts = append(y.starts, i+1)
		}
	}
	return y
}

// offset is yamlOffset(src, start, line, col).
func (y *yamlLines) offset(line, col int) int {
	if line < 1 || line > len(y.starts) || y.start > 0 && y.src[y.start-1] != '\n' {
		return yamlOffset(y.src, y.start, line, col)
	}
	off := y.start + y.starts[line-1]
	for c := 1; c < col && off < len(y.src) && y.src[off] != '\n'; c++ {
		_, n := utf8.DecodeRune(y.src[off:])
		off += n
	}
	return off
}

// yamlOffset turns a YAML node's 1-based line and column (relative to the
// front matter) into a byte offset in the whole file.
func yamlOffset(src []byte, start, line, col int) int {
	l, _ := diag.Position(src, start)
	return diag.Offset(src, l+line-1, col)
}

var (
	yamlLineRe    = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)
	yamlAtLineRe  = regexp.MustCompile(`\bat line (\d+)\b`)
	yamlDupKeyRe  = regexp.MustCompile(`^mapping key "((?:[^"\\]|\\.)*)" already defined`)
	yamlTypeErrRe = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// yamlError turns an error of yaml.v3 about doc, the YAML text starting at
// byte offset start of the file src, into a diagnostic at the real line
// and column, its message led by what the document is ("front matter",
// "series file"). yaml.v3 gives at most a line, and for parse errors often
// the line of the enclosing block or the line before, never a column; so
// the place is found again by parsing ever shorter beginnings of doc (see
// yamlErrorOffset). Errors from decoding node (duplicate keys, a value
// that does not fit its explicit tag) are placed at the node they name,
// or at node itself.
func yamlError(p string, src, doc []byte, start int, node *yaml.Node, what string, err error) diag.Diagnostic {
	l0, _ := diag.Position(src, start)
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		// "line 3: mapping key "a" already defined at line 2": lines
		// are the document's; name the file's.
		msg, line := te.Errors[0], 0
		if m := yamlTypeErrRe.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		msg = fileLines(msg, l0)
		off := start
		if n := nodeAt(node, line, msg); n != nil {
			off = yamlOffset(src, start, n.Line, n.Column)
		} else if line > 0 {
			off = yamlOffset(src, start, line, 1)
		}
		return diag.At(p, src, off, "%s: %s", what, msg)
	}
	msg, line := err.Error(), 0
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
		}
		msg = m[2]
	}
	raw := msg
	msg = fileLines(msg, l0)
	if node != nil {
		// A decoding error without a line: the value being decoded.
		return diag.At(p, src, yamlOffset(src, start, node.Line, node.Column), "%s: %s", what, msg)
	}
	if off, ok := yamlErrorOffset(doc, raw); ok {
		return diag.At(p, src, start+off, "%s: %s", what, msg)
	}
	return diag.At(p, src, yamlOffset(src, start, max(line, 1), 1), "%s: %s", what, msg)
}

// fileLines rewrites "at line N" in a yaml.v3 message, where N counts
// lines of the document, as a line of the file whose line first holds the
// document's first line.
func fileLines(msg string, first int) string {
	if first <= 1 {
		return msg
	}
	return yamlAtLineRe.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(yamlAtLineRe.FindStringSubmatch(s)[1])
		return "at line " + strconv.Itoa(n+first-1)
	})
}

// nodeAt finds, under n, the node on line that msg is about: for a
// duplicate key, the second of the two; otherwise the first node on
// that line.
func nodeAt(n *yaml.Node, line int, msg string) *yaml.Node {
	if n == nil || line == 0 {
		return nil
	}
	var key string
	if m := yamlDupKeyRe.FindStringSubmatch(msg); m != nil {
		key, _ = strconv.Unquote(`"` + m[1] + `"`)
	}
	var found *yaml.Node // the first node on line, or the last such key
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if found != nil && key == "" {
			return
		}
		if n.Line == line && (key == "" || n.Kind == yaml.ScalarNode && n.Value == key) {
			found = n
			if key == "" {
				return
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return found
}

// yamlErrorOffset finds the byte offset in doc of the character at which
// yaml.v3 fails with msg. The parser reads from left to right, so every
// beginning of doc that reaches that character fails with msg too, and
// shorter ones do not (or fail otherwise): a binary search over the length
// finds the character in a few parses. A beginning cut inside a quoted
// string or a [list] can fail with msg earlier; that place, the opening of
// what is never closed, is then as good an answer.
func yamlErrorOffset(doc []byte, msg string) (int, bool) {
	fails := func(n int) bool {
		var root yaml.Node
		err := yaml.Unmarshal(doc[:n], &root)
		if err == nil {
			return false
		}
		m := yamlLineRe.FindStringSubmatch(err.Error())
		return m != nil && m[2] == msg
	}
	if !fails(len(doc)) {
		return 0, false
	}
	lo, hi := 0, len(doc) // fails(hi); lo is taken not to fail
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	// The last character read is the one that failed; step back to its
	// first byte.
	off := hi - 1
	for off > 0 && !utf8.RuneStart(doc[off]) {
		off--
	}
	return off, true
}

func decodeTOML(p string, src, fm []byte, start int) (FrontMatter, diag.List) {
	var m map[string]any
	if err := toml.Unmarshal(fm, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			// go-toml counts the column in bytes.
			row, col := de.Position()
			l, _ := diag.Position(src, start)
			off := diag.Offset(src, l+row-1, 1)
			end := len(src)
			if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
				end = off + i
			}
			return FrontMatter{}, diag.List{diag.At(p, src, min(off+max(col-1, 0), end), "front matter: %s", de.Error())}
		}
		return FrontMatter{}, diag.List{diag.At(p, src, start, "front matter: %v", err)}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	at := tomlPositions(fm)
	var fields []field
	for _, k := range keys {
		v := m[k]
		if t, ok := v.(toml.LocalDate); ok {
			v = t.String()
		}
		if t, ok := v.(time.Time); ok {
			v = t.Format(time.RFC3339)
		}
		f := field{key: k, value: v, keyOff: start, valOff: start}
		if pos, ok := at[k]; ok {
			f.keyOff, f.valOff = start+pos.Key, start+pos.Off
			for _, it := range pos.Items {
				f.items = append(f.items, start+it)
			}
		}
		fields = append(fields, f)
	}
	return assign(p, src, fields)
}

// tomlPositions finds, in the TOML document doc that decoded without
// error, where each top-level key is (its first part when dotted, the
// start of the line of a [table] of that name) and its value, and a
// list's items, as the parser read them: byte offsets in doc, by key.
func tomlPositions(doc []byte) map[string]FieldPos {
	at := map[string]FieldPos{}
	var p unstable.Parser
	p.Reset(doc)
	inTable := false // keys after a [table] header are that table's
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			inTable = true
			it := e.Key()
			if it.Next() {
				k := it.Node()
				if _, seen := at[string(k.Data)]; !seen {
					line := bytes.LastIndexByte(doc[:k.Raw.Offset], '\n') + 1
					at[string(k.Data)] = FieldPos{Key: line, Off: line}
				}
			}
		case unstable.KeyValue:
			if inTable {
				continue
			}
			it := e.Key()
			if !it.Next() {
				continue
			}
			k := it.Node()
			name := string(k.Data)
			if _, seen := at[name]; seen {
				continue // a dotted key's later part: placed at the first
			}
			pos := FieldPos{Key: int(k.Raw.Offset), Off: int(k.Raw.Offset)}
			last := k
			for it.Next() {
				last = it.Node()
			}
			if last == k { // not dotted: the value is the field's
				pos.Off = tomlValueOffset(doc, e.Value(), int(k.Raw.Offset+k.Raw.Length))
				if v := e.Value(); v.Kind == unstable.Array {
					items := v.Children()
					for items.Next() {
						off := pos.Off // a list in the list: at the field
						if n := items.Node(); n.Raw.Length > 0 {
							off = int(n.Raw.Offset)
						}
						pos.Items = append(pos.Items, off)
					}
				}
			}
			at[name] = pos
		}
	}
	return at
}

// tomlValueOffset is where the value node v starts in doc: where the
// parser saw it, or for an array (which the parser does not place), the
// first character after the "=" that follows byte offset after.
func tomlValueOffset(doc []byte, v *unstable.Node, after int) int {
	if v.Kind != unstable.Array && v.Raw.Length > 0 {
		return int(v.Raw.Offset)
	}
	i := after
	if eq := bytes.IndexByte(doc[i:], '='); eq >= 0 {
		i += eq + 1
	}
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t') {
		i++
	}
	return i
}

// assign checks each field's value by the table of fields (Fields) and
// fills the front matter, reporting every problem with the field's
// position, and every field the table does not know.
func assign(p string, src []byte, fields []field) (FrontMatter, diag.List) {
	fm := FrontMatter{Pos: map[string]FieldPos{}}
	to := reflect.ValueOf(&fm).Elem()
	var diags diag.List
	for _, f := range fields {
		spec, ok := fieldNamed(f.key)
		if !ok {
			diags = append(diags, unknownField(p, src, f))
			continue
		}
		r := &reader{p: p, src: src, f: f, want: spec.Value.Want}
		v, ok := spec.Value.read(r)
		diags = append(diags, r.diags...)
		if !ok {
			continue
		}
		to.FieldByName(spec.Go).Set(reflect.ValueOf(v))
		fm.Pos[f.key] = FieldPos{Key: f.keyOff, Off: f.valOff, Items: f.items}
	}
	return fm, append(diags, checkLastmod(p, src, fm)...)
}

// checkLastmod warns about a page updated before it was published.
func checkLastmod(p string, src []byte, fm FrontMatter) diag.List {
	if fm.Lastmod.IsZero() || !fm.Lastmod.Before(fm.Date) {
		return nil
	}
	return diag.List{diag.At(p, src, fm.Pos["lastmod"].Off, "lastmod %s is before date %s: the page cannot have been updated before it was published",
		fm.Lastmod.Format("2006-01-02"), fm.Date.Format("2006-01-02")).AsWarning()}
}

// unknownField is the warning for a field kakehashi does not know, with
// did-you-mean.
func unknownField(p string, src []byte, f field) diag.Diagnostic {
	if near := diag.Suggest(f.key, fieldNames()); near != "" {
		return diag.At(p, src, f.keyOff, "front matter field %q is not known: did you mean %q? it is ignored", f.key, near).AsWarning()
	}
	return diag.At(p, src, f.keyOff, "front matter field %q is not known: it is ignored", f.key).AsWarning()
}

// itemOff is where item i of the list field f is, or the field itself.
func itemOff(f field, i int) int { return FieldPos{Off: f.valOff, Items: f.items}.Item(i) }

// TagSlug is the URL segment of a tag: lowercased, with runs of spaces
// turned into one "-" ("Control plane" → "control-plane"). Japanese and
// Korean tags keep their characters. The segment must still pass
// CheckSegment, which the front matter's decoder checks.
func TagSlug(tag string) string {
	// Most tags are their slug already: lower-case ASCII, one word.
	plain := tag != ""
	for i := 0; i < len(tag) && plain; i++ {
		c := tag[i]
		plain = c < utf8.RuneSelf && !('A' <= c && c <= 'Z') && c != ' ' && (c < '\t' || c > '\r')
	}
	if plain {
		return tag
	}
	return strings.Join(strings.Fields(strings.ToLower(tag)), "-")
}

// CheckAlias reports why the alias a, an old URL path of a page, cannot be
// published, or nil: it is site-absolute ("/ja/old-name/") or relative to
// the page's folder ("old-name"), and each of its segments must pass
// CheckSegment. A trailing "/" is optional; a path ending in ".html" names
// a file rather than a folder.
func CheckAlias(a string) error {
	rest := strings.TrimPrefix(a, "/")
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" {
		return errors.New("it names no page")
	}
	for _, seg := range strings.Split(rest, "/") {
		if err := CheckSegment(seg); err != nil {
			return err
		}
	}
	return nil
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
