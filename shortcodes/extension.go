package shortcodes

import (
	"bytes"
	"fmt"
	"html/template"
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
	page   any
	report func(sev diag.Severity, off int, format string, args ...any)
	ids    map[string]int
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

// docOf returns the doc of pc, making it from the markdown.Env on first use.
func docOf(pc parser.Context) *doc {
	if d, ok := pc.Get(docKey).(*doc); ok {
		return d
	}
	d := &doc{ids: map[string]int{}, report: func(diag.Severity, int, string, ...any) {}}
	if env := markdown.EnvFrom(pc); env != nil {
		d.lang, d.parts, d.report = env.Lang, env.Parts, env.Report
		d.t = translator(env.Lang, env.T)
		d.page = env.Values["page"]
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
		parser.WithBlockParsers(util.Prioritized(&blockParser{x}, 150)),
		parser.WithInlineParsers(util.Prioritized(&inlineParser{x}, 150)),
		parser.WithASTTransformers(util.Prioritized(&transformer{x}, 50)),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(&nodeRenderer{x: x, md: m}, 100)))
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
	args, pos, errs := s.resolve(&c)
	for _, e := range errs {
		d.errorf(e.Pos, "%s", e.Msg)
	}
	out.args, out.pos = args, pos
	out.invalid = len(errs) > 0
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

// blockParser opens a Block for a call alone on its line.
type blockParser struct{ x *extension }

var _ parser.BlockParser = (*blockParser)(nil)

func (p *blockParser) Trigger() []byte { return []byte{'{'} }

// standalone parses the tag that fills the current line, if any.
func standalone(reader text.Reader, pc parser.Context) (tag, bool) {
	line, seg := reader.PeekLine()
	off := pc.BlockOffset()
	if off < 0 || off >= len(line) || !bytes.HasPrefix(line[off:], []byte("{{")) {
		return tag{}, false
	}
	src := reader.Source()
	start, end := seg.Start+off, lineEnd(src, seg)
	if start+3 > end || !bytes.HasPrefix(src[start:], line[off:off+3]) {
		return tag{}, false
	}
	t, err := parseTag(src, start, end)
	if err != nil || t.literal || !blank(src[t.end:end]) {
		return tag{}, false
	}
	return t, true
}

func (p *blockParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	t, ok := standalone(reader, pc)
	if !ok {
		return nil, parser.NoChildren
	}
	d := docOf(pc)
	src := reader.Source()
	if t.closing {
		// The closing tag of a pair opened past MaxNesting.
		if k := len(d.flat) - 1; k >= 0 && d.flat[k] == t.name {
			d.flat = d.flat[:k]
			n := &Block{data: data{call: t.call(), doc: d, pair: 2, invalid: true, flat: true}}
			_, seg := reader.PeekLine()
			reader.Advance(lineEnd(src, seg) - seg.Start)
			return n, parser.NoChildren
		}
		return nil, parser.NoChildren
	}
	s, known := p.x.reg.Lookup(t.name)
	c := t.call()
	container := !t.selfClosing && (known && s.Inner || !known && d.hasClosing(src, &c))
	if !container && ast.IsParagraph(pc.LastOpenedBlock().Node) {
		return nil, parser.NoChildren // an inline call on a line of a paragraph
	}
	n := &Block{data: p.x.newData(&t, d)}
	n.pair = 2
	if container && (len(d.flat) > 0 || pairDepth(pc) >= MaxNesting) {
		// Past the limit the pair is read as two single tags: the page
		// stays MaxNesting deep and its closing tag closes nothing else.
		d.deep(t.pos, t.name)
		n.flat, n.invalid = true, true
		d.flat = append(d.flat, t.name)
		container = false
	}
	if container {
		n.pair = 1
	}
	_, seg := reader.PeekLine()
	reader.Advance(lineEnd(src, seg) - seg.Start)
	if container {
		return n, parser.HasChildren
	}
	return n, parser.NoChildren
}

// MaxNesting bounds how deep shortcode pairs nest, as markdown.MaxNesting
// bounds lists and block quotes: real pages nest a few levels, and the
// parser's work on every line grows with the depth. A pair deeper than
// that is one error on the page, at its opening tag; it and the pairs
// inside it are read as single tags (their arguments still checked),
// and their closing tags close them, not the pairs around them.
const MaxNesting = markdown.MaxNesting

// pairDepth counts the shortcode pairs open around the current line.
func pairDepth(pc parser.Context) int {
	n := 0
	for _, b := range pc.OpenedBlocks() {
		if _, ok := b.Node.(*Block); ok {
			n++
		}
	}
	return n
}

func (p *blockParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*Block)
	if !n.wantsPair(reader.Source()) {
		return parser.Close
	}
	line, seg := reader.PeekLine()
	if util.IsBlank(line) {
		return parser.Continue | parser.HasChildren
	}
	if last := pc.LastOpenedBlock().Node; last != node {
		if _, code := last.(*ast.FencedCodeBlock); code {
			return parser.Continue | parser.HasChildren
		}
	}
	w, off := util.IndentWidth(line, reader.LineOffset())
	if w > 3 || !bytes.HasPrefix(line[off:], []byte("{{")) {
		return parser.Continue | parser.HasChildren
	}
	src := reader.Source()
	start, end := seg.Start+off, lineEnd(src, seg)
	t, err := n.doc.lineTag(src, start, end)
	if err != nil || !t.closing || t.name != n.call.Name || !blank(src[t.end:end]) {
		return parser.Continue | parser.HasChildren
	}
	if k := len(n.doc.flat) - 1; k >= 0 && n.doc.flat[k] == t.name {
		return parser.Continue | parser.HasChildren // it closes a pair read flat
	}
	// A deeper open pair of the same name takes this closing tag.
	deeper := false
	for _, b := range pc.OpenedBlocks() {
		if b.Node == node {
			deeper = true
			continue
		}
		if o, ok := b.Node.(*Block); ok && deeper && o.call.Name == n.call.Name && !o.call.SelfClosing && !o.flat {
			return parser.Continue | parser.HasChildren
		}
	}
	n.closed = true
	n.call.Paired = true
	n.call.InnerPos = n.call.TagEnd
	n.call.Inner = string(src[n.call.TagEnd:t.pos])
	n.call.End = t.end
	reader.Advance(end - seg.Start)
	return parser.Close
}

func (p *blockParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	n := node.(*Block)
	if n.wantsPair(reader.Source()) && !n.closed && n.spec != nil {
		n.doc.errorf(n.call.Pos, "%s", unclosed(&n.call))
	}
}

func (p *blockParser) CanInterruptParagraph() bool { return true }

func (p *blockParser) CanAcceptIndentedLine() bool { return false }

// inlineParser reads a call inside a line.
type inlineParser struct{ x *extension }

var _ parser.InlineParser = (*inlineParser)(nil)

func (p *inlineParser) Trigger() []byte { return []byte{'{'} }

func (p *inlineParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) < 3 || line[0] != '{' || line[1] != '{' || (line[2] != '<' && line[2] != '%') {
		return nil
	}
	src := block.Source()
	start, end := seg.Start, lineEnd(src, seg)
	if start+3 > end || src[start] != '{' {
		return nil
	}
	d := docOf(pc)
	t, err := parseTag(src, start, end)
	if err != nil {
		d.errorf(err.Pos, "%s", err.Msg)
		stop := min(resume(src, start, err.Pos), end)
		block.Advance(stop - start)
		return &bad{seg: text.NewSegment(start, stop)}
	}
	block.Advance(t.end - start)
	switch {
	case t.literal:
		return ast.NewString([]byte(t.text))
	case t.closing:
		return &closer{t: t}
	}
	n := &Inline{data: p.x.newData(&t, d)}
	if n.spec != nil && n.spec.Block {
		l, r := delims(t.markdown)
		d.errorf(t.pos, "shortcode %q must stand alone on its line (%s %s %s … on a line of its own)", t.name, l, t.name, r)
	}
	return n
}

// transformer pairs inline tags and checks where shortcodes sit.
type transformer struct{ x *extension }

var _ parser.ASTTransformer = (*transformer)(nil)

func (tr *transformer) Transform(root *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var d *doc
	docFor := func() *doc {
		if d == nil {
			d = docOf(pc)
		}
		return d
	}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if n.HasChildren() {
			pairInline(n, src, docFor)
		}
		tr.checkPlace(n, src)
		return ast.WalkContinue, nil
	})
}

// pairInline moves the siblings between an inline opening tag and its
// closing tag into the opener, and reports closing tags that close nothing
// and pairs left open.
func pairInline(parent ast.Node, src []byte, docFor func() *doc) {
	var stack []*Inline
	var unclosedOpeners []*Inline
	var flat []string // names of the pairs opened past MaxNesting, read as single tags
	depth := -1       // pairs around parent, counted on the first opener
	for c := parent.FirstChild(); c != nil; {
		next := c.NextSibling()
		switch c := c.(type) {
		case *Inline:
			// A pair made when its parent's siblings were paired is done.
			if c.call.Paired || !c.wantsPair(src) {
				break
			}
			if depth < 0 {
				depth = pairsAround(parent)
			}
			if len(flat) > 0 || depth+len(stack) >= MaxNesting {
				c.doc.deep(c.call.Pos, c.call.Name)
				c.flat, c.invalid, c.pair = true, true, 2
				flat = append(flat, c.call.Name)
				break
			}
			stack = append(stack, c)
		case *closer:
			if k := len(flat) - 1; k >= 0 && flat[k] == c.t.name {
				flat = flat[:k]
				parent.RemoveChild(parent, c)
				break
			}
			k := len(stack) - 1
			for k >= 0 && stack[k].call.Name != c.t.name {
				k--
			}
			if k < 0 {
				l, r := delims(c.t.markdown)
				docFor().errorf(c.t.pos, "unexpected closing shortcode %q: no %s %s %s is open", "/"+c.t.name, l, c.t.name, r)
				parent.ReplaceChild(parent, c, &bad{seg: text.NewSegment(c.t.pos, c.t.end)})
				break
			}
			op := stack[k]
			unclosedOpeners = append(unclosedOpeners, stack[k+1:]...)
			stack = stack[:k]
			for s := op.NextSibling(); s != nil && s != ast.Node(c); {
				ns := s.NextSibling()
				parent.RemoveChild(parent, s)
				op.AppendChild(op, s)
				s = ns
			}
			op.call.Paired = true
			op.call.InnerPos = op.call.TagEnd
			op.call.Inner = string(src[op.call.TagEnd:c.t.pos])
			op.call.End = c.t.end
			parent.RemoveChild(parent, c)
		}
		c = next
	}
	for _, op := range append(unclosedOpeners, stack...) {
		if op.spec != nil {
			op.doc.errorf(op.call.Pos, "%s", unclosed(&op.call))
		}
	}
}

// pairsAround counts the shortcode pairs n is inside.
func pairsAround(n ast.Node) int {
	k := 0
	for ; n != nil; n = n.Parent() {
		if d := dataOf(n); d != nil && !d.flat && n.HasChildren() {
			k++
		}
	}
	return k
}

// dataOf returns the shortcode data of n, or nil.
func dataOf(n ast.Node) *data {
	switch n := n.(type) {
	case *Block:
		return &n.data
	case *Inline:
		return &n.data
	}
	return nil
}

// checkPlace reports a shortcode outside the parent it needs and content
// other than the one child a shortcode allows.
func (tr *transformer) checkPlace(n ast.Node, src []byte) {
	dt := dataOf(n)
	if dt == nil || dt.spec == nil || dt.flat {
		return
	}
	if dt.spec.Parent != "" {
		p := dataOf(n.Parent())
		if p == nil || p.call.Name != dt.spec.Parent {
			dt.doc.errorf(dt.call.Pos, "%s", notInParent(&dt.call, dt.spec))
		}
	}
	if dt.spec.OnlyChild == "" {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if cd := dataOf(c); cd != nil && (cd.call.Name == dt.spec.OnlyChild || cd.flat) {
			continue
		}
		off := dt.call.Pos
		if cd := dataOf(c); cd != nil {
			off = cd.call.Pos
		} else if c.Pos() >= 0 {
			off = c.Pos()
		}
		dt.doc.errorf(off, "%s", onlyChild(&dt.call, dt.spec))
	}
}

// nodeRenderer renders shortcode nodes through their RenderFunc.
type nodeRenderer struct {
	x  *extension
	md goldmark.Markdown
}

var _ renderer.NodeRenderer = (*nodeRenderer)(nil)

// RegisterFuncs implements renderer.NodeRenderer.
func (r *nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindBlock, r.render)
	reg.Register(KindInline, r.render)
	reg.Register(kindBad, r.renderBad)
	reg.Register(kindCloser, r.renderBad)
}

func (r *nodeRenderer) renderBad(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	var seg text.Segment
	switch n := n.(type) {
	case *bad:
		seg = n.seg
	case *closer:
		seg = text.NewSegment(n.t.pos, n.t.end)
	}
	if seg.Start >= 0 && seg.Stop <= len(source) && seg.Start <= seg.Stop {
		template.HTMLEscape(w, source[seg.Start:seg.Stop])
	}
	return ast.WalkContinue, nil
}

// children renders the children of n.
func (r *nodeRenderer) children(source []byte, n ast.Node) template.HTML {
	var buf bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if err := r.md.Renderer().Render(&buf, source, c); err != nil {
			if d := dataOf(n); d != nil {
				d.doc.errorf(d.call.Pos, "rendering inside %q: %v", d.call.Name, err)
			}
		}
	}
	return template.HTML(buf.String())
}

func (r *nodeRenderer) render(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	dt := dataOf(n)
	if dt.spec == nil || dt.spec.Render == nil || dt.invalid {
		return ast.WalkContinue, nil // reported: show the inner content
	}
	d := dt.doc
	c := &Context{
		Call: &dt.call, Spec: dt.spec, Args: dt.args, Positional: dt.pos,
		Lang: d.lang, Page: d.page, T: d.t, Parts: d.parts,
		inner: func() template.HTML { return r.children(source, n) },
		items: func() []Item {
			var items []Item
			for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
				if cd := dataOf(ch); cd != nil {
					items = append(items, Item{Call: &cd.call, Args: cd.args, Inner: r.children(source, ch)})
				}
			}
			return items
		},
		id:     d.id,
		report: func(format string, args ...any) { d.errorf(dt.call.Pos, format, args...) },
	}
	if err := dt.spec.Render(w, c); err != nil {
		d.errorf(dt.call.Pos, "shortcode %q: %v", dt.call.Name, err)
	}
	return ast.WalkSkipChildren, nil
}
