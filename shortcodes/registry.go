package shortcodes

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// ArgSpec declares one argument of a shortcode.
type ArgSpec struct {
	Name     string
	Type     Kind
	Required bool
	// Default is used when the argument is absent: a string, int64,
	// float64 or bool matching Type; nil leaves the argument out of
	// Context.Args.
	Default any
	// Position is the 1-based index at which the argument may be given
	// positionally; 0 when it may only be named.
	Position int
	// OneOf, for strings, lists the accepted values.
	OneOf []string
}

// Shortcode declares a shortcode: its arguments, its shape and how it
// renders.
type Shortcode struct {
	Name string
	Args []ArgSpec
	// AnyArgs accepts any argument, named or positional, untyped (site
	// templates).
	AnyArgs bool
	// Inner: the shortcode takes inner content and is used as a pair
	// (self-closing gives it an empty one).
	Inner bool
	// RawInner: the inner content is text as written, not markdown (a
	// highlight's code, a comment's words), read as Hugo reads a pair,
	// before any markdown: no block or span is parsed in it, and a
	// shortcode call in it is text (the markdown stage shows it as
	// written, as in code). Render finds it in Call.Inner; Context.Inner
	// is empty.
	RawInner bool
	// Block: the call must stand alone on its lines, not inside a
	// paragraph, heading or table cell.
	Block bool
	// Parent, when set, is the shortcode this one must be directly inside.
	Parent string
	// OnlyChild, when set, is the one shortcode allowed inside this one.
	OnlyChild string
	// Source is the template file defining a site shortcode; "" for a
	// built-in.
	Source string
	// ImageArg names the argument that is an image reference, checked and
	// resolved like a markdown image (markdown.Env.Image), AltArg the one
	// that is its alt text; "" when the shortcode shows no image.
	ImageArg, AltArg string
	// Alt, when set, gives the alt text the call's image gets from its
	// arguments, in AltArg's place (a figure without alt has its
	// caption's text, as in Hugo): an image is without alt text when
	// Alt gives none.
	Alt func(args map[string]any) string
	// Warning, when set, is a warning given at each call (Hugo's
	// comment, which Hugo deprecated).
	Warning string
	// InlineIf, for a Block shortcode, tells whether a call with these
	// arguments may stand in a line all the same (highlight with Hugo's
	// hl_inline), and the warning it is given there ("" for none).
	InlineIf func(args map[string]any) (ok bool, warning string)
	// Assets are the stylesheets and scripts the shortcode's HTML needs
	// (the calculators' calc.css and calc.js, tabs' tabs.js): a page that
	// holds a call links them, a page without one does not.
	Assets Assets
	Render RenderFunc
}

// Assets are the stylesheets and scripts a component's HTML needs, as
// site-absolute paths of static files of the site or its theme
// ("/css/calc.css", "/js/calc.js"). A page holding the component links
// each once (render.Page.Styles and Scripts), under its hashed name.
type Assets struct {
	Styles  []string
	Scripts []string
}

// RenderFunc writes the HTML of one call.
type RenderFunc func(w io.Writer, c *Context) error

// Context is what a RenderFunc knows about the call it renders.
type Context struct {
	Call *Call
	Spec *Shortcode
	// Args holds every declared argument that was given or has a default,
	// as string, int64, float64 or bool. For AnyArgs shortcodes it holds
	// the named arguments.
	Args map[string]any
	// Positional holds the positional values of an AnyArgs shortcode.
	Positional []any
	Lang       string
	// T returns the UI string key in the page's language; never nil.
	T func(key string) string
	// Parts looks up a part of the page's series; nil outside a series.
	Parts func(n int) (markdown.PartLink, bool)
	// SeriesParts looks up a part of any series of the site, SeriesIDs
	// lists them (markdown.Env); nil and empty on a site without series.
	SeriesParts func(id string, n int) (markdown.PartLink, bool)
	SeriesIDs   []string
	// Term looks an entry of the site's glossary up, TermIDs lists them
	// (markdown.Env); nil and empty on a site without a glossary.
	Term    func(id string) (markdown.Term, bool)
	TermIDs []string

	image  *markdown.Image
	inner  func() template.HTML
	items  func() []Item
	id     func(prefix string) string
	report func(format string, args ...any)
	// hugo is how a site template's call renders with Hugo's context;
	// nil for a built-in.
	hugo *hugoCall
}

// Item is a shortcode call directly inside the one being rendered (a tab
// in tabs).
type Item struct {
	Call  *Call
	Args  map[string]any
	Inner template.HTML
}

// Image returns the image the call shows (Shortcode.ImageArg), resolved
// against the page; ok=false when there is none.
func (c *Context) Image() (img markdown.Image, ok bool) {
	if c.image == nil {
		return img, false
	}
	return *c.image, true
}

// Inner returns the rendered inner content; empty when there is none.
func (c *Context) Inner() template.HTML {
	if c.inner == nil {
		return ""
	}
	return c.inner()
}

// Items returns the shortcode calls directly inside this one, rendered.
func (c *Context) Items() []Item {
	if c.items == nil {
		return nil
	}
	return c.items()
}

// First reports whether this is the first time a shortcode of the page
// asks about key: for what a page needs once (a diagram's stylesheet).
func (c *Context) First(key string) bool {
	return c.ID("first:"+key) == "first:"+key+"-1"
}

// ID returns an id unique in the page, "prefix-1", "prefix-2", ….
func (c *Context) ID(prefix string) string {
	if c.id == nil {
		return prefix + "-1"
	}
	return c.id(prefix)
}

// Report records an error at the call's position.
func (c *Context) Report(format string, args ...any) {
	if c.report != nil {
		c.report(format, args...)
	}
}

// String returns a string argument, "" when absent.
func (c *Context) String(name string) string { s, _ := c.Args[name].(string); return s }

// Int returns an integer argument, 0 when absent.
func (c *Context) Int(name string) int { n, _ := c.Args[name].(int64); return int(n) }

// Float returns a number argument, 0 when absent.
func (c *Context) Float(name string) float64 { f, _ := c.Args[name].(float64); return f }

// Bool returns a boolean argument, false when absent.
func (c *Context) Bool(name string) bool { b, _ := c.Args[name].(bool); return b }

// Registry is the set of shortcodes a site knows. It is a value: each
// site builds its own with NewRegistry and LoadTemplates.
type Registry struct {
	byName  map[string]*Shortcode
	builtin map[string]bool
}

// NewRegistry returns a registry holding the built-in shortcodes:
// kakehashi's part, callout, tabs, tab, topology, quorum-table and term
// (their arguments strictly typed); Hugo's details, figure, highlight, youtube,
// comment, ref, relref and param, with the arguments Hugo's templates
// take (details and figure take kakehashi's too); and the calculator
// widgets quorum, san and ha-sim. A call of one of Hugo's other built-ins
// is an error that says kakehashi does not have it.
func NewRegistry() *Registry {
	r := &Registry{byName: map[string]*Shortcode{}, builtin: map[string]bool{}}
	for _, s := range append(builtins(), newWidgets().shortcodes()...) {
		r.byName[s.Name] = s
		r.builtin[s.Name] = true
	}
	return r
}

// Add registers s, replacing any shortcode of the same name; it reports
// whether s replaced a built-in.
func (r *Registry) Add(s *Shortcode) (overrodeBuiltin bool) {
	_, had := r.byName[s.Name]
	r.byName[s.Name] = s
	return had && r.builtin[s.Name]
}

// Lookup returns the shortcode called name. A Hugo inline shortcode,
// NAME.inline, whose inner text is a template written in the page, is a
// pair that renders nothing, as in Hugo without enableInlineShortcodes:
// kakehashi runs no template written in a page (the extension warns of
// each).
func (r *Registry) Lookup(name string) (*Shortcode, bool) {
	s, ok := r.byName[name]
	if !ok && isInline(name) && validName(strings.TrimSuffix(name, inlineSuffix)) {
		return &Shortcode{Name: name, AnyArgs: true, Inner: true, Render: func(io.Writer, *Context) error { return nil }}, true
	}
	return s, ok
}

// inlineMsg is the warning for a call of the inline shortcode name.
func inlineMsg(name string) string {
	base := strings.TrimSuffix(name, inlineSuffix)
	return fmt.Sprintf("inline shortcode %q renders nothing: kakehashi runs no template written in a page, as Hugo without enableInlineShortcodes; make it a site template, shortcodes/%s.html, and call it {{< %s >}}", name, base, base)
}

// Names returns the registered names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// unknown is the message for a name the registry does not know.
func (r *Registry) unknown(name string) string {
	if why := notHad(name); why != "" {
		return fmt.Sprintf("shortcode %q is one of Hugo's built-ins, which kakehashi does not have: %s; or write a site template of that name, layouts/shortcodes/%s.html", name, why, name)
	}
	if s := diag.Suggest(name, r.Names()); s != "" {
		return fmt.Sprintf("unknown shortcode %q; did you mean %q?", name, s)
	}
	return fmt.Sprintf("unknown shortcode %q", name)
}

// notHad tells why kakehashi does not have Hugo's built-in shortcode
// name (Hugo v0.169.0's, and those it removed), and what to write
// instead; "" for a name that is none of them.
func notHad(name string) string {
	switch name {
	case "gist":
		return "Hugo removed it in v0.156.0; link to the gist, or copy its code into a code block"
	case "twitter", "tweet", "twitter_simple":
		return "Hugo removed it in v0.156.0, for x; link to the post, or quote it"
	case "x", "x_simple":
		return "it embeds a post from x.com, fetched when the site is built; link to the post, or quote it"
	case "instagram", "instagram_simple":
		return "it embeds an Instagram post, fetched when the site is built; link to the post"
	case "vimeo", "vimeo_simple":
		return "it embeds a Vimeo player; link to the video"
	case "qr":
		return "it makes a QR code image when the site is built; make the image, and show it with figure"
	}
	return ""
}

// resolve checks the arguments of c against s and returns them typed, with
// defaults filled in, and the positional values of an AnyArgs shortcode.
func (s *Shortcode) resolve(c *Call) (map[string]any, []any, []*Error) {
	args := map[string]any{}
	var positional []any
	var errs []*Error
	if s.AnyArgs {
		// A site template reads its arguments by index or by name, as in
		// Hugo, where the two never meet in one call.
		for _, a := range c.Args {
			if (a.Name == "") != (c.Args[0].Name == "") {
				return nil, nil, []*Error{{Pos: a.Pos, Msg: fmt.Sprintf("positional and named arguments cannot be mixed in %q", s.Name)}}
			}
			if a.Name == "" {
				positional = append(positional, a.Value.Any())
			} else {
				args[a.Name] = a.Value.Any()
			}
		}
		return args, positional, nil
	}
	given := map[string]bool{}
	nth := 0 // positional arguments so far
	for _, a := range c.Args {
		var spec *ArgSpec
		if a.Name == "" {
			nth++
			for j := range s.Args {
				if s.Args[j].Position == nth {
					spec = &s.Args[j]
				}
			}
			if spec == nil {
				errs = append(errs, &Error{Pos: a.Pos, Msg: s.tooMany()})
				continue
			}
		} else {
			for j := range s.Args {
				if s.Args[j].Name == a.Name {
					spec = &s.Args[j]
				}
			}
			if spec == nil {
				errs = append(errs, &Error{Pos: a.Pos, Msg: s.unknownArg(a.Name)})
				continue
			}
		}
		if given[spec.Name] {
			errs = append(errs, &Error{Pos: a.Pos, Msg: fmt.Sprintf("argument %q of %q is given twice, by position and by name", spec.Name, s.Name)})
			continue
		}
		given[spec.Name] = true
		v, msg, warn := spec.check(s.Name, a.Value)
		if msg != "" {
			errs = append(errs, &Error{Pos: a.Pos, Msg: msg, warn: warn})
			if !warn {
				continue
			}
		}
		if v != nil {
			args[spec.Name] = v
		}
	}
	for _, spec := range s.Args {
		if given[spec.Name] {
			continue
		}
		if spec.Required {
			errs = append(errs, &Error{Pos: c.Pos, Msg: fmt.Sprintf("missing required argument %q for %q", spec.Name, s.Name)})
		} else if spec.Default != nil {
			args[spec.Name] = spec.Default
		}
	}
	return args, nil, errs
}

func (s *Shortcode) tooMany() string {
	n := 0
	for _, a := range s.Args {
		if a.Position > 0 {
			n++
		}
	}
	switch n {
	case 0:
		return fmt.Sprintf("%q takes no positional arguments; name them (name=\"value\")", s.Name)
	case 1:
		return fmt.Sprintf("%q takes at most 1 positional argument", s.Name)
	}
	return fmt.Sprintf("%q takes at most %d positional arguments", s.Name, n)
}

func (s *Shortcode) unknownArg(name string) string {
	names := make([]string, len(s.Args))
	for i, a := range s.Args {
		names[i] = a.Name
	}
	if len(names) == 0 {
		return fmt.Sprintf("unknown argument %q: %q takes no arguments", name, s.Name)
	}
	if sug := diag.Suggest(name, names); sug != "" {
		return fmt.Sprintf("unknown argument %q for %q; did you mean %q?", name, s.Name, sug)
	}
	return fmt.Sprintf("unknown argument %q for %q; it takes %s", name, s.Name, strings.Join(names, ", "))
}

// check converts v to the argument's type or explains why it cannot; a
// warning (warn) comes with the value the argument takes all the same
// (a HugoBool's default).
func (a *ArgSpec) check(shortcode string, v Value) (val any, msg string, warn bool) {
	article := map[Kind]string{String: "a string", Int: "an integer", Float: "a number", Bool: "a boolean",
		HugoInt: "an integer (or a string of one)"}
	switch {
	case v.Kind == a.Type:
	case a.Type == Float && v.Kind == Int:
		return float64(v.Int), "", false
	case a.Type == HugoBool:
		if b, ok := hugoBool(v); ok {
			return b, "", false
		}
		def := "none"
		if a.Default != nil {
			def = fmt.Sprint(a.Default)
		}
		return a.Default, fmt.Sprintf("argument %q of %q must be true or false (or 1 or 0, quoted or not), got %s; it keeps its default (%s), as in Hugo", a.Name, shortcode, v.Describe(), def), true
	case a.Type == HugoInt && v.Kind == Int:
		return v.Int, "", false
	case a.Type == HugoInt && v.Kind == String && numberKind(v.Str) == Int:
		if n, err := strconv.ParseInt(v.Str, 10, 64); err == nil {
			return n, "", false
		}
		return nil, fmt.Sprintf("argument %q of %q must be an integer, got %s, out of range", a.Name, shortcode, v.Describe()), false
	case a.Type == HugoString:
		if v.Kind != String {
			v = Value{Kind: String, Str: fmt.Sprint(v.Any())}
		}
	default:
		return nil, fmt.Sprintf("argument %q of %q must be %s, got %s", a.Name, shortcode, article[a.Type], v.Describe()), false
	}
	if len(a.OneOf) > 0 {
		for _, o := range a.OneOf {
			if v.Str == o {
				return v.Str, "", false
			}
		}
		msg := fmt.Sprintf("argument %q of %q must be one of %s, got %q", a.Name, shortcode, strings.Join(a.OneOf, ", "), v.Str)
		if sug := diag.Suggest(v.Str, a.OneOf); sug != "" {
			msg += fmt.Sprintf("; did you mean %q?", sug)
		}
		return nil, msg, false
	}
	return v.Any(), "", false
}

// hugoBool reads v as Hugo's built-ins read a flag: true, 1 and "true"
// are true, false, 0 and "false" false (1.0 and 0.0 too, numbers being
// compared by value); ok=false for anything else.
func hugoBool(v Value) (b, ok bool) {
	switch v.Kind {
	case Bool:
		return v.Bool, true
	case Int:
		return v.Int == 1, v.Int == 0 || v.Int == 1
	case Float:
		return v.Float == 1, v.Float == 0 || v.Float == 1
	}
	return v.Str == "true", v.Str == "true" || v.Str == "false"
}

// Validate checks calls found by Parse in src: known names, arguments,
// pairs where a shortcode needs inner content and none where it takes
// none, and parents (a tab inside tabs).
func (r *Registry) Validate(path string, src []byte, calls []Call) diag.List {
	var out diag.List
	var walk func(parent *Call, calls []Call)
	walk = func(parent *Call, calls []Call) {
		for i := range calls {
			c := &calls[i]
			for _, e := range r.check(parent, c) {
				d := diag.At(path, src, e.Pos, "%s", e.Msg)
				if e.warn {
					d = d.AsWarning()
				}
				out = append(out, d)
			}
			if s, ok := r.Lookup(c.Name); ok && s.RawInner {
				continue // its inner calls are text
			}
			walk(c, c.Children)
		}
	}
	walk(nil, calls)
	return out
}

// check validates one call in its parent (nil at the top).
func (r *Registry) check(parent *Call, c *Call) []*Error {
	s, ok := r.Lookup(c.Name)
	if !ok {
		return []*Error{{Pos: c.NamePos, Msg: r.unknown(c.Name)}}
	}
	_, _, errs := s.resolve(c)
	switch {
	case s.Inner && !c.Paired && !c.SelfClosing:
		errs = append(errs, &Error{Pos: c.Pos, Msg: unclosed(c)})
	case !s.Inner && c.Paired:
		errs = append(errs, &Error{Pos: c.Pos, Msg: fmt.Sprintf("shortcode %q takes no inner content%s", c.Name, noInnerWhy(s))})
	}
	if s.Parent != "" && (parent == nil || parent.Name != s.Parent) {
		errs = append(errs, &Error{Pos: c.Pos, Msg: notInParent(c, s)})
	}
	if parent != nil {
		if ps, ok := r.Lookup(parent.Name); ok && ps.OnlyChild != "" && c.Name != ps.OnlyChild {
			errs = append(errs, &Error{Pos: c.Pos, Msg: onlyChild(parent, ps)})
		}
	}
	return errs
}

func unclosed(c *Call) string {
	l, r := c.Delims()
	return fmt.Sprintf("unclosed shortcode %q: expected %s /%s %s", c.Name, l, c.Name, r)
}

func notInParent(c *Call, s *Shortcode) string {
	l, r := c.Delims()
	return fmt.Sprintf("shortcode %q must be directly inside %s %s %s", c.Name, l, s.Parent, r)
}

func onlyChild(parent *Call, ps *Shortcode) string {
	l, r := parent.Delims()
	return fmt.Sprintf("only %q shortcodes may appear inside %s %s %s", ps.OnlyChild, l, parent.Name, r)
}

// validName reports whether name can name a shortcode, as in Hugo: letters,
// digits, "_" and "-", starting with a letter, a digit or "_", with "/"
// between the folders of a template in a subfolder (test/hello).
func validName(name string) bool {
	for i, seg := range strings.Split(name, "/") {
		if seg == "" {
			return false
		}
		for j, r := range seg {
			if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' && (i > 0 || j > 0)) {
				return false
			}
		}
	}
	return true
}
