// Package glossary is a site's termbase: content/glossary.yaml, the
// preferred term of each concept in each of the site's languages, the
// variants a page must not use, and a definition per language. It is read
// in the load stage (Load, Parse) and checked with the site (Check,
// CheckSite): kakehashi check warns where a page uses a forbidden variant,
// or leaves its original's term in a translation where the glossary gives
// a translated one. The glossary pages and the term shortcode read it too.
package glossary

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/spf13/afero"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// File is the glossary's name under the content root.
const File = "glossary.yaml"

// Entry is one concept of the glossary.
type Entry struct {
	ID string
	// Terms is the preferred term, by language.
	Terms map[string]string
	// Avoid lists the variants a page of that language must not use.
	Avoid map[string][]string
	// Definition is the optional definition, by language.
	Definition map[string]string
	// Line and Col are where the entry's id is in the file (Col in
	// characters).
	Line, Col int
}

// Glossary is the parsed glossary file.
type Glossary struct {
	Path    string
	Entries []*Entry // in the file's order
	byID    map[string]*Entry
}

// Lookup returns the entry of id.
func (g *Glossary) Lookup(id string) (*Entry, bool) {
	if g == nil {
		return nil, false
	}
	e, ok := g.byID[id]
	return e, ok
}

// IDs lists the entries' ids, in the file's order.
func (g *Glossary) IDs() []string {
	if g == nil {
		return nil
	}
	ids := make([]string, len(g.Entries))
	for i, e := range g.Entries {
		ids[i] = e.ID
	}
	return ids
}

// fields are an entry's fields, in the order the messages list them.
var fields = []string{"id", "terms", "avoid", "definition"}

// idRe is what an id looks like: it is a URL fragment of the glossary
// page.
var idRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Load reads the glossary at name from fsys. A site without one has no
// glossary: nil and no diagnostics.
func Load(ctx context.Context, fsys afero.Fs, name string, langs []string) (*Glossary, diag.List) {
	if err := ctx.Err(); err != nil {
		return nil, diag.List{diag.File(name, "%v", err)}
	}
	src, err := afero.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, diag.List{diag.File(name, "%v", err)}
	}
	return Parse(name, norm.NFC.Bytes(src), langs)
}

// Parse decodes a glossary file, reporting every malformed entry at its
// line and column: an unknown field (with the nearest known one), a
// missing or duplicate id, a language that is not one of langs (the
// site's), a value of the wrong shape. The glossary is nil when there is
// an error.
func Parse(p string, src []byte, langs []string) (*Glossary, diag.List) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		msg, line := err.Error(), 1
		if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		return nil, diag.List{diag.AtLine(p, src, line, 1, "glossary: %s", strings.TrimPrefix(msg, "yaml: "))}
	}
	at := func(n *yaml.Node, format string, args ...any) diag.Diagnostic {
		return diag.AtLine(p, src, n.Line, n.Column, format, args...)
	}
	g := &Glossary{Path: p, byID: map[string]*Entry{}}
	if len(root.Content) == 0 {
		return g, nil // an empty file: no entries
	}
	list := root.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, diag.List{at(list, "a glossary is a list of entries, each with an id and its terms (- id: control-plane)")}
	}
	var diags diag.List
	for _, n := range list.Content {
		if e := parseEntry(n, langs, at, &diags); e != nil {
			if prev, dup := g.byID[e.ID]; dup {
				diags = append(diags, diag.AtLine(p, src, e.Line, e.Col, "glossary id %q is also the id of the entry at line %d", e.ID, prev.Line))
				continue
			}
			g.byID[e.ID] = e
			g.Entries = append(g.Entries, e)
		}
	}
	if diags.Err() != nil {
		return nil, diags
	}
	return g, diags
}

type atFunc func(n *yaml.Node, format string, args ...any) diag.Diagnostic

func parseEntry(n *yaml.Node, langs []string, at atFunc, diags *diag.List) *Entry {
	if n.Kind != yaml.MappingNode {
		*diags = append(*diags, at(n, "a glossary entry is a mapping with an id and its terms"))
		return nil
	}
	e := &Entry{Line: n.Line, Col: n.Column}
	bad := false
	fail := func(d diag.Diagnostic) { *diags = append(*diags, d); bad = true }
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "id":
			if v.Kind != yaml.ScalarNode || !idRe.MatchString(v.Value) {
				fail(at(v, "glossary id must be lowercase letters, digits and hyphens (control-plane), the entry's anchor on the glossary page"))
				continue
			}
			e.ID, e.Line, e.Col = v.Value, v.Line, v.Column
		case "terms":
			e.Terms = langStrings(v, "terms", langs, at, fail)
		case "definition":
			e.Definition = langStrings(v, "definition", langs, at, fail)
		case "avoid":
			e.Avoid = langLists(v, langs, at, fail)
		default:
			msg := fmt.Sprintf("unknown glossary field %q", k.Value)
			if s := diag.Suggest(k.Value, fields); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			fail(at(k, "%s; an entry has %s", msg, strings.Join(fields, ", ")))
		}
	}
	if e.ID == "" && !bad {
		fail(at(n, "glossary entry has no id"))
	}
	if len(e.Terms) == 0 && !bad {
		fail(at(n, "glossary entry %q has no terms: give its term in each language (terms: {%s: …})", e.ID, strings.Join(langs, ": …, ")))
	}
	for l, vs := range e.Avoid {
		for _, v := range vs {
			if v == e.Terms[l] {
				fail(at(n, "glossary entry %q avoids its own %s term %q", e.ID, l, v))
			}
		}
	}
	if bad {
		return nil
	}
	return e
}

// langKey checks that k names one of the site's languages.
func langKey(k *yaml.Node, field string, langs []string, at atFunc) (diag.Diagnostic, bool) {
	if slices.Contains(langs, k.Value) {
		return diag.Diagnostic{}, true
	}
	msg := fmt.Sprintf("glossary %s: %q is not one of the site's languages (%s)", field, k.Value, strings.Join(langs, ", "))
	if s := diag.Suggest(k.Value, langs); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return at(k, "%s", msg), false
}

func langStrings(v *yaml.Node, field string, langs []string, at atFunc, fail func(diag.Diagnostic)) map[string]string {
	if v.Kind != yaml.MappingNode {
		fail(at(v, "glossary %s is a mapping of language to text ({%s: …})", field, strings.Join(langs, ": …, ")))
		return nil
	}
	m := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, s := v.Content[i], v.Content[i+1]
		if d, ok := langKey(k, field, langs, at); !ok {
			fail(d)
			continue
		}
		if s.Kind != yaml.ScalarNode || strings.TrimSpace(s.Value) == "" {
			fail(at(s, "glossary %s.%s must be a non-empty text", field, k.Value))
			continue
		}
		m[k.Value] = strings.TrimSpace(s.Value)
	}
	return m
}

func langLists(v *yaml.Node, langs []string, at atFunc, fail func(diag.Diagnostic)) map[string][]string {
	if v.Kind != yaml.MappingNode {
		fail(at(v, "glossary avoid is a mapping of language to a list of variants ({%s: [a, b]})", langs[0]))
		return nil
	}
	m := map[string][]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, l := v.Content[i], v.Content[i+1]
		if d, ok := langKey(k, "avoid", langs, at); !ok {
			fail(d)
			continue
		}
		items := []*yaml.Node{l}
		if l.Kind == yaml.SequenceNode {
			items = l.Content
		}
		for _, it := range items {
			if it.Kind != yaml.ScalarNode || strings.TrimSpace(it.Value) == "" {
				fail(at(it, "glossary avoid.%s lists variants, each a non-empty text", k.Value))
				continue
			}
			m[k.Value] = append(m[k.Value], strings.TrimSpace(it.Value))
		}
	}
	return m
}

// Path is where a site keeps its glossary: File under the content root.
func Path(contentRoot string) string { return path.Join(contentRoot, File) }
