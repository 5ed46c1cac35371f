package shortcodes

import (
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"reflect"
	"strings"
	"unicode"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/i18n"
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

// templateFuncs are the functions of a site shortcode template, Hugo's
// names for them, bound to one call (nil while the templates are parsed).
type templateFuncs struct {
	h *hugoCall
	c *Context
}

// funcMap returns the functions.
func (f templateFuncs) funcMap() template.FuncMap {
	return template.FuncMap{
		"T":            f.t,
		"i18n":         f.t,
		"errorf":       f.errorf,
		"warnf":        f.warnf,
		"markdownify":  f.markdownify,
		"relURL":       f.relURL,
		"absURL":       f.absURL,
		"safeHTML":     func(s any) template.HTML { return template.HTML(toText(s)) },         // the template's word
		"safeHTMLAttr": func(s any) template.HTMLAttr { return template.HTMLAttr(toText(s)) }, // the template's word
		"safeURL":      func(s any) template.URL { return template.URL(toText(s)) },           // the template's word
		"safeCSS":      func(s any) template.CSS { return template.CSS(toText(s)) },           // the template's word
		"safeJS":       func(s any) template.JS { return template.JS(toText(s)) },             // the template's word
		"urlize":       func(s any) string { return urlize(toText(s)) },
		"default":      hugoDefault,
		"dict":         Dict,
		"slice":        func(v ...any) []any { return v },
		"lower":        func(s any) string { return strings.ToLower(toText(s)) },
		"upper":        func(s any) string { return strings.ToUpper(toText(s)) },
		"trim":         func(s any, cut string) string { return strings.Trim(toText(s), cut) },
		"replace": func(s any, old, new string, n ...int) string {
			if len(n) > 0 {
				return strings.Replace(toText(s), old, new, n[0])
			}
			return strings.ReplaceAll(toText(s), old, new)
		},
		"plainify":   func(s any) string { return plainify(template.HTML(toText(s))) },
		"htmlEscape": func(s any) string { return template.HTMLEscapeString(toText(s)) },
	}
}

// toText is v as a template prints it.
func toText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case template.HTML:
		return string(v)
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

// t is T and i18n: a UI string of the page's language. With Hugo's
// count, a number or a map whose Count is one, it is the plural form of
// the string for the count (i18n's counts: key.one, key.other), the
// count put in its %d, as the strings kakehashi import hugo writes read
// Hugo's {{ .Count }}; any other argument is a warning at the call.
func (f templateFuncs) t(key any, args ...any) string {
	if f.c == nil {
		return ""
	}
	return f.translate(toText(key), args)
}

// translate is t for a key the template gave: the template's keys are
// checked where templates are read (render.ShortcodeKeys), not here.
func (f templateFuncs) translate(k string, args []any) string {
	if len(args) == 0 {
		return f.c.T(k)
	}
	n, ok := hugoCount(args[0])
	if !ok || len(args) > 1 {
		if f.h != nil {
			f.h.warn("T %q: the argument after the key is not used: it is Hugo's count, a number or a map with Count, or nothing", k)
		}
		return f.c.T(k)
	}
	s := f.c.T(i18n.Count(k, n))
	if strings.Contains(s, "%") {
		s = fmt.Sprintf(s, n)
	}
	return s
}

// hugoCount is the count of Hugo's T argument v: a whole number, or a
// map's Count.
func hugoCount(v any) (int, bool) {
	if m, ok := v.(map[string]any); ok {
		for k, c := range m {
			if strings.EqualFold(k, "count") {
				v = c
			}
		}
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(rv.Int()), true
	case reflect.Float32, reflect.Float64:
		if f := rv.Float(); f == float64(int(f)) {
			return int(f), true
		}
	}
	return 0, false
}

// errorf reports an error at the call, which fails the build, as Hugo's
// errorf does; it prints nothing.
func (f templateFuncs) errorf(format string, args ...any) string {
	if f.c != nil {
		f.c.Report(format, args...)
	}
	return ""
}

// warnf reports a warning at the call, as Hugo's warnf; it prints
// nothing.
func (f templateFuncs) warnf(format string, args ...any) string {
	if f.h != nil {
		f.h.warn(format, args...)
	}
	return ""
}

// markdownify renders s as markdown, as the page's body is rendered
// (links checked, shortcodes called), and gives one paragraph's worth of
// it without its <p>, as Hugo's markdownify.
func (f templateFuncs) markdownify(s any) template.HTML {
	text := toText(s)
	if f.h == nil || text == "" {
		return template.HTML(template.HTMLEscapeString(text))
	}
	return template.HTML(trimShortHTML(f.h.markdown(text, true))) // our renderer's, in safe mode
}

// trimShortHTML drops the <p> around h when h is one paragraph, as
// Hugo's TrimShortHTML.
func trimShortHTML(h string) string {
	if strings.Count(h, "<p>") != 1 {
		return h
	}
	t := strings.TrimSpace(h)
	if strings.HasPrefix(t, "<p>") && strings.HasSuffix(t, "</p>") {
		return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "<p>"), "</p>"))
	}
	return h
}

// relURL is the URL of the site path p relative to the page, which
// works under any base URL and from file:// (Hugo's is the path from the
// host, "/docs/p"). p is read from the site's root, with or without its
// leading "/"; where Hugo reads a leading "/" from the host's root and
// the site is not at it, a warning says so. A URL with a scheme stays.
func (f templateFuncs) relURL(p any) string {
	s := toText(p)
	if f.h == nil || isAbsURL(s) {
		return s
	}
	f.h.hostRooted("relURL", s)
	info := f.h.pageInfo()
	if info == nil || info.Rel == nil {
		return s
	}
	return info.Rel("/" + strings.TrimPrefix(s, "/"))
}

// absURL is the absolute URL of the site path p under the site's base
// URL, as Hugo's, but that a leading "/" is read from the site's root,
// not the host's (warned of where they differ). A URL with a scheme
// stays.
func (f templateFuncs) absURL(p any) string {
	s := toText(p)
	if f.h == nil || isAbsURL(s) {
		return s
	}
	f.h.hostRooted("absURL", s)
	info := f.h.pageInfo()
	if info == nil || info.Abs == nil {
		return s
	}
	return info.Abs("/" + strings.TrimPrefix(s, "/"))
}

// isAbsURL reports whether s has a scheme or is protocol-relative.
func isAbsURL(s string) bool {
	if strings.HasPrefix(s, "//") {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme != ""
}

// urlize is s made a URL path as Hugo's urlize makes it: in lower case,
// spaces as "-", only letters, digits and . / \ _ # + ~ - @ %XX kept.
func urlize(s string) string {
	var b strings.Builder
	pendingHyphen, wasHyphen := false, false
	for i, r := range s {
		ok := r != ' ' && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("./\\_#+~-@", r) || unicode.IsMark(r) ||
			r == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]))
		switch {
		case ok:
			wasHyphen = r == '-'
			if pendingHyphen && !wasHyphen {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(r)
		case b.Len() > 0 && !wasHyphen && unicode.IsSpace(r):
			pendingHyphen = true
		}
	}
	out := strings.ToLower(b.String())
	if u, err := url.Parse(out); err == nil {
		return u.String()
	}
	return out
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// hugoDefault is Hugo's default: given when it is set (a non-zero
// number, a non-empty string, slice or map, any boolean, a non-nil
// value), else def.
func hugoDefault(def any, given ...any) (any, error) {
	if len(given) == 0 {
		return def, nil
	}
	if len(given) != 1 {
		return nil, fmt.Errorf("wrong number of args for default: want 2 got %d", len(given)+1)
	}
	g := reflect.ValueOf(given[0])
	if !g.IsValid() {
		return def, nil
	}
	set := true
	switch g.Kind() {
	case reflect.Bool, reflect.Struct:
	case reflect.String, reflect.Array, reflect.Slice, reflect.Map:
		set = g.Len() != 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		set = g.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		set = g.Uint() != 0
	case reflect.Float32, reflect.Float64:
		set = g.Float() != 0
	case reflect.Complex64, reflect.Complex128:
		set = g.Complex() != 0
	default:
		set = !g.IsNil()
	}
	if set {
		return given[0], nil
	}
	return def, nil
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
