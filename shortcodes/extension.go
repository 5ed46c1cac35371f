package shortcodes

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Node kinds of the shortcode AST nodes.
var (
	// KindBlock is the kind of *Block.
	KindBlock = ast.NewNodeKind("ShortcodeBlock")
	// KindInline is the kind of *Inline.
	KindInline = ast.NewNodeKind("ShortcodeInline")
	// kindCloser is the kind of *closer, which the transformer removes.
	kindCloser = ast.NewNodeKind("ShortcodeCloser")
	// kindBad is the kind of *bad, a tag that failed to parse.
	kindBad = ast.NewNodeKind("ShortcodeBad")
)

// docKey holds the *doc of the document being parsed. Keys are immutable
// once created.
var docKey = parser.NewContextKey()

// doc is what the extension knows about the document being parsed; nodes
// keep a pointer to it for rendering.
type doc struct {
	lang   string
	t      func(string) string
	parts  func(int) (markdown.PartLink, bool)
	report func(sev diag.Severity, off int, format string, args ...any)
	ids    map[string]int
	// env is the page's environment, nil outside a build's rendering:
	// the assets the page's shortcodes need are recorded there
	// (markdown.Env.Need), and checked against its files once each
	// (needed).
	env    *markdown.Env
	needed map[string]bool

	// seriesParts and seriesIDs reach the parts of any series.
	seriesParts func(string, int) (markdown.PartLink, bool)
	seriesIDs   []string
	// flat holds the names of the block pairs opened past MaxNesting, read
	// as single tags, whose closing tags are still to come (innermost last).
	flat []string
	// tooDeep: the nesting error has been reported; one per page is enough.
	tooDeep bool
	// line is the last tag parsed by blockParser.Continue: every open pair
	// reads the same line, so it is lexed once, not once per pair.
	line struct {
		start, end int
		t          tag
		err        *Error
	}
	// closings indexes the source's closing tags by name (their offsets,
	// ascending), made on first use for hasClosing; closingsOf is the
	// source it was made from.
	closings   map[string][]int
	closingsOf []byte
	// hugo is what the document's site template calls share (hugo.go);
	// nil when it has none.
	hugo *hugoDoc
}

// lineTag parses the tag at src[start:end] for Continue, once per line.
func (d *doc) lineTag(src []byte, start, end int) (tag, *Error) {
	l := &d.line
	if l.end == 0 || l.start != start || l.end != end {
		l.start, l.end = start, end
		l.t, l.err = parseTag(src, start, end)
	}
	return l.t, l.err
}

// deep reports, once per page, a pair opened past MaxNesting at off.
func (d *doc) deep(off int, name string) {
	if !d.tooDeep {
		d.tooDeep = true
		d.errorf(off, nestingMsg, name, MaxNesting)
	}
}

func (d *doc) errorf(off int, format string, args ...any) {
	d.report(diag.Error, off, format, args...)
}

func (d *doc) id(prefix string) string {
	d.ids[prefix]++
	return fmt.Sprintf("%s-%d", prefix, d.ids[prefix])
}

// need records that the page holds a call of s at off, whose assets
// (Shortcode.Assets) the page then links. An asset that is no static file
// of the site or its theme is an error at the first call that needs it
// (when the page's files are known: markdown.Env.Assets).
func (d *doc) need(s *Shortcode, off int) {
	a := s.Assets
	if d.env == nil || len(a.Styles)+len(a.Scripts) == 0 {
		return
	}
	for _, ps := range [][]string{a.Styles, a.Scripts} {
		for _, p := range ps {
			if d.needed[p] {
				continue
			}
			d.needed[p] = true
			if d.env.Assets == nil {
				continue
			}
			if _, err := d.env.Assets(p); err != nil {
				d.errorf(off, "shortcode %q needs %s, which is no file static%s of the site or its theme", s.Name, p, p)
			}
		}
	}
	d.env.Need(a.Styles, a.Scripts)
}

// docOf returns the doc of pc, making it from the markdown.Env on first use.
func docOf(pc parser.Context) *doc {
	if d, ok := pc.Get(docKey).(*doc); ok {
		return d
	}
	d := &doc{ids: map[string]int{}, needed: map[string]bool{}, report: func(diag.Severity, int, string, ...any) {}}
	if env := markdown.EnvFrom(pc); env != nil {
		d.env = env
		d.lang, d.parts, d.report = env.Lang, env.Parts, env.Report
		d.seriesParts, d.seriesIDs = env.SeriesParts, env.SeriesIDs
		d.t = translator(env.Lang, env.T)
	} else {
		d.t = translator("", nil)
	}
	pc.Set(docKey, d)
	return d
}

// data is what the block and inline nodes share.
type data struct {
	call   Call
	spec   *Shortcode // nil when the name is unknown
	args   map[string]any
	pos    []any
	doc    *doc
	closed bool // a block pair saw its closing tag
	pair   int  // wantsPair, cached: 0 unknown, 1 yes, 2 no
	// invalid: the arguments had errors (reported); the call renders
	// only its inner content.
	invalid bool
	// flat: a tag of a pair nested past MaxNesting, read as a single tag
	// that renders nothing and is not checked for its place.
	flat bool
	// image is the image the call shows (Shortcode.ImageArg), resolved
	// by ResolveImages; nil when it shows none.
	image *markdown.Image
}

var (
	_ markdown.ImageUser = (*Block)(nil)
	_ markdown.ImageUser = (*Inline)(nil)
)

// ResolveImages resolves the image a call shows, when its shortcode names
// an image argument (Shortcode.ImageArg), at that argument's position.
func (d *data) ResolveImages(e *markdown.Env) {
	if d.spec == nil || d.spec.ImageArg == "" || d.invalid || d.flat {
		return
	}
	ref, ok := d.args[d.spec.ImageArg].(string)
	if !ok {
		return
	}
	alt, _ := d.args[d.spec.AltArg].(string)
	if d.spec.Alt != nil {
		alt = d.spec.Alt(d.args)
	}
	off := d.call.Pos
	for _, a := range d.call.Args {
		if a.Name == d.spec.ImageArg {
			off = a.Pos
		}
	}
	img := e.Image(ref, alt, off)
	d.image = &img
}

// Call returns the call the node stands for. For a pair, Inner is the raw
// source between the tags.
func (d *data) Call() *Call { return &d.call }

// wantsPair tells whether the call opens a pair.
func (d *data) wantsPair(src []byte) bool {
	if d.pair == 0 {
		d.pair = 2
		if d.computePair(src) {
			d.pair = 1
		}
	}
	return d.pair == 1
}

func (d *data) computePair(src []byte) bool {
	if d.call.SelfClosing {
		return false
	}
	if d.spec != nil {
		return d.spec.Inner
	}
	return d.doc.hasClosing(src, &d.call)
}

// hasClosing tells whether a closing tag named like c follows c in src.
// The closing tags are indexed once per source: a page of many calls of
// unknown names asks this for each, and scanning the rest of the page
// every time made such a page quadratic (20,000 calls took 83 s).
func (d *doc) hasClosing(src []byte, c *Call) bool {
	if d.closings == nil || len(d.closingsOf) != len(src) || len(src) > 0 && &d.closingsOf[0] != &src[0] {
		d.closings, d.closingsOf = map[string][]int{}, src
		for i := 0; ; {
			j := nextTag(src, i)
			if j < 0 {
				break
			}
			t, err := parseTag(src, j, len(src))
			if err == nil && t.closing {
				d.closings[t.name] = append(d.closings[t.name], j)
			}
			i = j + 2
		}
	}
	offs := d.closings[c.Name]
	return sort.SearchInts(offs, c.TagEnd) < len(offs)
}

// Block is a shortcode call standing alone on its lines; a pair's inner
// markdown is parsed into its children.
type Block struct {
	ast.BaseBlock
	data
}

var _ ast.Node = (*Block)(nil)

// Kind implements ast.Node.
func (n *Block) Kind() ast.NodeKind { return KindBlock }

// Dump implements ast.Node.
func (n *Block) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.call.Name}, nil)
}

// Inline is a shortcode call inside a paragraph, heading or table cell; a
// pair's inner content becomes its children. It has no text of its own, so
// nothing of it reaches heading IDs or the table of contents.
type Inline struct {
	ast.BaseInline
	data
}

var _ ast.Node = (*Inline)(nil)

// Kind implements ast.Node.
func (n *Inline) Kind() ast.NodeKind { return KindInline }

// Dump implements ast.Node.
func (n *Inline) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.call.Name}, nil)
}

// closer is an inline closing tag awaiting its opener.
type closer struct {
	ast.BaseInline
	t tag
}

var _ ast.Node = (*closer)(nil)

func (n *closer) Kind() ast.NodeKind { return kindCloser }

func (n *closer) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// bad is a tag that failed to parse; it renders as its source text.
type bad struct {
	ast.BaseInline
	seg text.Segment
}

var _ ast.Node = (*bad)(nil)

func (n *bad) Kind() ast.NodeKind { return kindBad }

func (n *bad) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// extension plugs a Registry into goldmark.
type extension struct {
	reg *Registry
}

var _ goldmark.Extender = (*extension)(nil)

// Extension returns the goldmark extension that makes every shortcode call
// an AST node and renders it with reg. Per-page data (language, UI
// strings, series parts, diagnostics) comes from markdown.EnvFrom.
func Extension(reg *Registry) goldmark.Extender { return &extension{reg: reg} }

// Extend implements goldmark.Extender.
func (x *extension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(util.Prioritized(&blockParser{x}, markdown.PriorityShortcodeBlock)),
		parser.WithInlineParsers(util.Prioritized(&inlineParser{x}, markdown.PriorityShortcodeInline)),
		parser.WithASTTransformers(util.Prioritized(&transformer{x}, markdown.PriorityShortcodeTransformer)),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(&nodeRenderer{x: x, md: m}, markdown.PriorityRenderer)))
}

// newData resolves a parsed tag against the registry, reporting problems.
func (x *extension) newData(t *tag, d *doc) data {
	c := t.call()
	out := data{call: c, doc: d}
	s, ok := x.reg.Lookup(c.Name)
	if !ok {
		d.errorf(c.NamePos, "%s", x.reg.unknown(c.Name))
		return out
	}
	out.spec = s
	if s.Warning != "" {
		d.report(diag.Warning, c.Pos, "%s", s.Warning)
	}
	if s.Source != "" {
		d.templateCall(s, &c)
	}
	args, pos, errs := s.resolve(&c)
	for _, e := range errs {
		if e.warn {
			d.report(diag.Warning, e.Pos, "%s", e.Msg)
			continue
		}
		d.errorf(e.Pos, "%s", e.Msg)
		out.invalid = true
	}
	out.args, out.pos = args, pos
	return out
}

// lineEnd returns the end of the line holding seg, without "\r\n".
func lineEnd(src []byte, seg text.Segment) int {
	end := min(seg.Stop, len(src))
	for end > seg.Start && (src[end-1] == '\n' || src[end-1] == '\r') {
		end--
	}
	return end
}

func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }
