package hugoimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"go.yaml.in/yaml/v3"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// The formats of Hugo's configuration, front matter and i18n files.
const (
	fmtTOML = "toml"
	fmtYAML = "yaml"
	fmtJSON = "json"
)

// formatOf is the format of a file by its extension, "" for none of
// Hugo's.
func formatOf(name string) string {
	switch {
	case strings.HasSuffix(name, ".toml"):
		return fmtTOML
	case strings.HasSuffix(name, ".yaml"), strings.HasSuffix(name, ".yml"):
		return fmtYAML
	case strings.HasSuffix(name, ".json"):
		return fmtJSON
	}
	return ""
}

// doc is one decoded TOML, YAML or JSON document (a configuration file,
// a page's front matter, an i18n file) with where each of its keys is.
type doc struct {
	path string // the file in the Hugo site, for messages
	src  []byte // the whole file
	vals map[string]any
	// pos is the byte offset in src of each key, by its dotted path in
	// lower case ("languages.ja.title"), a list's items by index
	// ("menus.main[0]", "menus.main[0].name").
	pos map[string]int
}

// decodeDoc decodes text, the part of the file src at byte offset base
// (all of it for a file, the front matter of a page), as format. A
// syntax error, or a document that is no mapping, is a diagnostic at its
// place.
func decodeDoc(path string, src, text []byte, base int, format string) (*doc, *diag.Diagnostic) {
	d := &doc{path: path, src: src, vals: map[string]any{}, pos: map[string]int{}}
	var err error
	var off int
	switch format {
	case fmtTOML:
		off, err = d.decodeTOML(text, base)
	case fmtYAML:
		off, err = d.decodeYAML(text, base)
	case fmtJSON:
		off, err = d.decodeJSON(text, base)
	default:
		err = fmt.Errorf("unknown format %q", format)
	}
	if err != nil {
		e := diag.At(path, src, base+off, "%s", err)
		return nil, &e
	}
	return d, nil
}

// at is the line and column (in characters) of the key (a dotted path)
// or, when the document does not say where it is, of the nearest key
// holding it; 0, 0 when none is known.
func (d *doc) at(key string) (line, col int) {
	key = strings.ToLower(key)
	for key != "" {
		if off, ok := d.pos[key]; ok {
			return diag.Position(d.src, off)
		}
		i := strings.LastIndexAny(key, ".[")
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return 0, 0
}

// decodeTOML decodes a TOML document and finds its keys. On an error it
// returns the error's byte offset in text.
func (d *doc) decodeTOML(text []byte, base int) (int, error) {
	if err := toml.Unmarshal(text, &d.vals); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return diag.Offset(text, line, col), errors.New(strings.TrimPrefix(de.Error(), "toml: "))
		}
		return 0, err
	}
	if d.vals == nil {
		d.vals = map[string]any{}
	}
	var p unstable.Parser
	p.Reset(text)
	var table string
	arrays := map[string]int{} // the items of each [[array]] so far
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var names []string
			var first int
			for it := e.Key(); it.Next(); {
				n := it.Node()
				if len(names) == 0 {
					first = int(n.Raw.Offset)
				}
				names = append(names, strings.ToLower(string(n.Data)))
				if _, ok := d.pos[strings.Join(names, ".")]; !ok {
					d.pos[strings.Join(names, ".")] = base + int(n.Raw.Offset)
				}
			}
			table = strings.Join(names, ".")
			if e.Kind == unstable.ArrayTable {
				i := arrays[table]
				arrays[table]++
				table = fmt.Sprintf("%s[%d]", table, i)
				d.pos[table] = base + first
			}
		case unstable.KeyValue:
			name := table
			for it := e.Key(); it.Next(); {
				n := it.Node()
				name = joinKey(name, strings.ToLower(string(n.Data)))
				d.pos[name] = base + int(n.Raw.Offset)
			}
			if v := e.Value(); v.Kind == unstable.Array {
				i := 0
				for it := v.Children(); it.Next(); {
					if n := it.Node(); n.Kind != unstable.Comment {
						if n.Raw.Length > 0 || n.Kind == unstable.String {
							d.pos[fmt.Sprintf("%s[%d]", name, i)] = base + int(n.Raw.Offset)
						}
						i++
					}
				}
			}
		}
	}
	return 0, nil
}

// joinKey is the dotted path of key inside the table at prefix.
func joinKey(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// decodeYAML decodes a YAML document, keeping its timestamps as written
// (a date is converted by what it is for, not by YAML), and finds its
// keys.
func (d *doc) decodeYAML(text []byte, base int) (int, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(text, &root); err != nil {
		return yamlErrorOffset(text, err), err
	}
	if len(root.Content) == 0 {
		return 0, nil
	}
	m := root.Content[0]
	if m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return 0, nil
	}
	if m.Kind != yaml.MappingNode {
		return diag.Offset(text, m.Line, m.Column), errors.New("must be a mapping of keys to values")
	}
	v, err := d.yamlValue(m, "", text, base)
	if err != nil {
		return 0, err
	}
	d.vals = v.(map[string]any)
	return 0, nil
}

// yamlValue converts a YAML node into the value it stands for, noting
// the position of each key under path.
func (d *doc) yamlValue(n *yaml.Node, path string, text []byte, base int) (any, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return d.yamlValue(n.Alias, path, text, base)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Tag == "!!merge" {
				merged, err := d.yamlValue(v, path, text, base)
				if err != nil {
					return nil, err
				}
				if mm, ok := merged.(map[string]any); ok {
					for mk, mv := range mm {
						if _, has := m[mk]; !has {
							m[mk] = mv
						}
					}
				}
				continue
			}
			key := joinKey(path, strings.ToLower(k.Value))
			d.pos[key] = base + diag.Offset(text, k.Line, k.Column)
			val, err := d.yamlValue(v, key, text, base)
			if err != nil {
				return nil, err
			}
			m[k.Value] = val
		}
		return m, nil
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for i, item := range n.Content {
			key := fmt.Sprintf("%s[%d]", path, i)
			d.pos[key] = base + diag.Offset(text, item.Line, item.Column)
			val, err := d.yamlValue(item, key, text, base)
			if err != nil {
				return nil, err
			}
			list = append(list, val)
		}
		return list, nil
	}
	if n.Tag == "!!timestamp" {
		return n.Value, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// yamlErrorOffset is the byte offset of the line a YAML error names,
// else 0.
func yamlErrorOffset(text []byte, err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+len("line "):]
		end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
		if end > 0 {
			if line, err := strconv.Atoi(rest[:end]); err == nil {
				return diag.Offset(text, line, 1)
			}
		}
	}
	return 0
}

// decodeJSON decodes a JSON object and finds its keys.
func (d *doc) decodeJSON(text []byte, base int) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v, err := d.jsonValue(dec, text, "", base)
	if err != nil {
		return int(dec.InputOffset()), err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return 0, errors.New("must be an object of keys to values")
	}
	d.vals = m
	return 0, nil
}

// jsonValue reads one JSON value from dec, noting the position of each
// key under path.
func (d *doc) jsonValue(dec *json.Decoder, text []byte, path string, base int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of JSON")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			for dec.More() {
				at := skipJSONSpace(text, int(dec.InputOffset()))
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("a key must be a string, got %v", kt)
				}
				key := joinKey(path, strings.ToLower(k))
				d.pos[key] = base + at
				v, err := d.jsonValue(dec, text, key, base)
				if err != nil {
					return nil, err
				}
				m[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return m, nil
		case '[':
			var list []any
			for i := 0; dec.More(); i++ {
				key := fmt.Sprintf("%s[%d]", path, i)
				d.pos[key] = base + skipJSONSpace(text, int(dec.InputOffset()))
				v, err := d.jsonValue(dec, text, key, base)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return n, nil
		}
		f, err := t.Float64()
		return f, err
	}
	return tok, nil
}

// skipJSONSpace is the offset of the first character at or after off
// that is no white space, comma or colon: where the next token starts.
func skipJSONSpace(text []byte, off int) int {
	for off < len(text) {
		switch text[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}
