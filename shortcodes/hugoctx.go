package shortcodes

import (
	"errors"
	"fmt"
	"html/template"
	"reflect"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// TemplateData is what a site shortcode template executes with: Hugo's
// shortcode context (.Get, .Params, .IsNamedParams, .Inner,
// .InnerDeindent, .Page, .Site, .Parent, .Ordinal, .Name, .Position,
// .Scratch) and the fields kakehashi's templates had before it (.Args,
// .Pos, .Markdown, .Lang).
type TemplateData struct {
	Name string
	// Inner is the text between the tags of a pair, as Hugo gives it:
	// as written, with the calls inside it rendered in their places and
	// {{</* x */>}} shown as {{< x >}}, not read as markdown (the
	// template may: markdownify, or a call with {{% %}}, whose output is
	// read as markdown). A pair inside another site template's inner
	// text called with {{% %}} has its inner text read as markdown
	// instead, as in Hugo. In a {{< >}} call, raw HTML written in the
	// text is omitted, as in the rest of a page. Empty for a single tag.
	Inner template.HTML
	// Params are the call's arguments: a []any of its positional values,
	// or a map[string]any of its named ones; values are strings, ints,
	// float64s and bools. A call without arguments has an empty
	// []string, or nil inside another call, as in Hugo.
	Params        any
	IsNamedParams bool
	Page          *TemplatePage
	Site          *TemplateSite
	// Parent is the context of the call this one is inside (its Inner
	// still empty), nil at the top of the page.
	Parent *TemplateData
	// Ordinal counts, from 0, the calls before this one with the same
	// parent: among the page's top-level calls, or inside Parent.
	Ordinal int
	// Position is where the call's "{{" is in the page's file.
	Position Position

	// Args are the named arguments and Pos the positional ones, as
	// kakehashi's templates read them before Hugo's .Get and .Params:
	// strings, int64s, float64s and bools.
	Args map[string]any
	Pos  []any
	// Markdown: the call is written with {{% %}}.
	Markdown bool
	Lang     string // the page's language

	indent  string // the spaces before the opening tag on its line
	scratch *Scratch
}

// Get returns an argument by position (.Get 0) or by name (.Get "src"),
// as Hugo does: "" for a position past the last or a name not given,
// nil when the call has no arguments or gives them the other way.
func (d *TemplateData) Get(key any) any {
	switch p := d.Params.(type) {
	case []any:
		i, ok := intKey(key)
		switch {
		case !ok || len(p) == 0:
			return nil
		case i < 0 || i >= len(p):
			return ""
		}
		return p[i]
	case map[string]any:
		k, ok := key.(string)
		switch {
		case !ok || len(p) == 0:
			return nil
		}
		v, ok := p[k]
		if !ok {
			return ""
		}
		return v
	}
	return nil
}

// intKey is key as an index: an integer of any Go type.
func intKey(key any) (int, bool) {
	v := reflect.ValueOf(key)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(v.Int()), true
	}
	return 0, false
}

// InnerDeindent is Inner without the indentation of the opening tag at
// the start of each line, as Hugo gives it: for a pair written indented
// (in a list item) whose inner text is indented the same.
func (d *TemplateData) InnerDeindent() template.HTML {
	if d.indent == "" {
		return d.Inner
	}
	lines := strings.SplitAfter(string(d.Inner), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, d.indent)
	}
	return template.HTML(strings.Join(lines, "")) // Inner's, as it is
}

// Scratch is the call's scratch pad, as Hugo's .Scratch.
func (d *TemplateData) Scratch() *Scratch {
	if d.scratch == nil {
		d.scratch = &Scratch{}
	}
	return d.scratch
}

// Store is Scratch, under Hugo's newer name.
func (d *TemplateData) Store() *Scratch { return d.Scratch() }

// Position is a place in a file, as Hugo's text.Position.
type Position struct {
	Filename     string // the file's path, as diagnostics name it
	Offset       int    // the byte offset in the file, from 0
	LineNumber   int    // from 1
	ColumnNumber int    // from 1, in characters
}

// String is "path:line:col", as diagnostics print a place (Hugo quotes
// it and names the file by its absolute path).
func (p Position) String() string {
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.LineNumber, p.ColumnNumber)
}

// IsValid reports whether the position has a line.
func (p Position) IsValid() bool { return p.LineNumber > 0 }

// TemplatePage is what a site shortcode template knows of its page
// (Hugo's .Page).
type TemplatePage struct {
	Title string
	// Params are the front matter's params, their keys in lower case as
	// Hugo has them.
	Params   map[string]any
	Lang     string
	Language *TemplateLanguage
	// RelPermalink is a link to the page relative to itself, as
	// kakehashi's links are ("../../../ja/cka/01-intro/"), which works
	// under any base URL and from file://; Hugo's is the path from the
	// host ("/docs/ja/cka/01-intro/"). Permalink is its absolute URL.
	RelPermalink string
	Permalink    string
	Site         *TemplateSite

	param   func(key string) (any, bool)
	scratch *Scratch
}

// Param is the page's front matter param key, else the site's, as Hugo's
// .Page.Param: dots name keys in maps ("a.b"), in any case; nil when
// neither has it.
func (p *TemplatePage) Param(key string) any {
	if p.param == nil {
		return nil
	}
	v, _ := p.param(key)
	return v
}

// Scratch is the page's scratch pad, shared by its calls in the order
// they render, as Hugo's .Page.Scratch.
func (p *TemplatePage) Scratch() *Scratch {
	if p.scratch == nil {
		p.scratch = &Scratch{}
	}
	return p.scratch
}

// Store is Scratch, under Hugo's newer name.
func (p *TemplatePage) Store() *Scratch { return p.Scratch() }

// TemplateSite is what a site shortcode template knows of the site
// (Hugo's .Site).
type TemplateSite struct {
	Title string // in the page's language
	// Params are the configuration's [params], their keys in lower case
	// as Hugo has them.
	Params map[string]any
	// BaseURL is the absolute URL the site is published under, ending
	// in "/".
	BaseURL  string
	Language *TemplateLanguage
}

// TemplateLanguage is a language, as Hugo's .Site.Language.
type TemplateLanguage struct {
	Lang string
}

// Scratch is a scratch pad of values, as Hugo's: Set, Get, Add, Delete,
// SetInMap, Values.
type Scratch struct {
	values map[string]any
}

// Set sets key to value; it returns "" so that a template can call it
// in place.
func (s *Scratch) Set(key string, value any) string {
	if s.values == nil {
		s.values = map[string]any{}
	}
	s.values[key] = value
	return ""
}

// Get returns the value of key; nil when not set.
func (s *Scratch) Get(key string) any { return s.values[key] }

// Delete removes key.
func (s *Scratch) Delete(key string) string {
	delete(s.values, key)
	return ""
}

// Values returns every key and its value.
func (s *Scratch) Values() map[string]any { return s.values }

// SetInMap sets mapKey to value in the map stored under key.
func (s *Scratch) SetInMap(key, mapKey string, value any) string {
	m, _ := s.Get(key).(map[string]any)
	if m == nil {
		m = map[string]any{}
		s.Set(key, m)
	}
	m[mapKey] = value
	return ""
}

// Add adds value to what key holds, as Hugo's: numbers are summed,
// strings joined, a value appended to a slice; an unset key takes value.
func (s *Scratch) Add(key string, value any) (string, error) {
	old := s.Get(key)
	if old == nil {
		return s.Set(key, value), nil
	}
	sum, err := addValues(old, value)
	if err != nil {
		return "", fmt.Errorf("Scratch.Add %q: %v", key, err)
	}
	return s.Set(key, sum), nil
}

// addValues is a + b for Scratch.Add.
func addValues(a, b any) (any, error) {
	if as, ok := a.([]any); ok {
		if bs, ok := b.([]any); ok {
			return append(as, bs...), nil
		}
		return append(as, b), nil
	}
	if as, ok := a.(string); ok {
		if bs, ok := b.(string); ok {
			return as + bs, nil
		}
	}
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	isInt := func(v reflect.Value) bool { return v.Kind() >= reflect.Int && v.Kind() <= reflect.Int64 }
	isFloat := func(v reflect.Value) bool { return v.Kind() == reflect.Float32 || v.Kind() == reflect.Float64 }
	switch {
	case isInt(av) && isInt(bv):
		return int(av.Int() + bv.Int()), nil
	case (isInt(av) || isFloat(av)) && (isInt(bv) || isFloat(bv)):
		f := func(v reflect.Value) float64 {
			if isInt(v) {
				return float64(v.Int())
			}
			return v.Float()
		}
		return f(av) + f(bv), nil
	}
	return nil, fmt.Errorf("cannot add %T to %T", b, a)
}

// hugoParams are the arguments of c as Hugo's .Params holds them, and
// whether they are named. Values are Hugo's types: an integer is an int.
// A call that mixes the two (kakehashi's built-ins may) gives its named
// ones.
func hugoParams(c *Call, top bool) (any, bool) {
	if len(c.Args) == 0 {
		if top {
			return []string{}, false
		}
		return nil, false
	}
	named := false
	for _, a := range c.Args {
		named = named || a.Name != ""
	}
	if named {
		m := make(map[string]any, len(c.Args))
		for _, a := range c.Args {
			if a.Name != "" {
				m[a.Name] = hugoTyped(a.Value)
			}
		}
		return m, true
	}
	s := make([]any, len(c.Args))
	for i, a := range c.Args {
		s[i] = hugoTyped(a.Value)
	}
	return s, false
}

// hugoTyped is v as Hugo types an argument: an integer is an int.
func hugoTyped(v Value) any {
	if v.Kind == Int {
		return int(v.Int)
	}
	return v.Any()
}

// lowerKeys is m with its keys, and those of the maps in it, in lower
// case, as Hugo has a page's and a site's params; nil for nil.
func lowerKeys(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if vm, ok := v.(map[string]any); ok {
			v = lowerKeys(vm)
		}
		out[strings.ToLower(k)] = v
	}
	return out
}

// Dict builds a map from key, value pairs, as Hugo's dict: the template
// function dict of site shortcode templates and of the theme's layouts
// (build/render). An odd count or a key that is not a string is an
// error, which the template reports at the call.
func Dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, errors.New("dict: odd number of arguments")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict: key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}

// warn reports a warning at the call.
func (h *hugoCall) warn(format string, args ...any) {
	h.dt.doc.report(diag.Warning, h.dt.call.Pos, format, args...)
}
