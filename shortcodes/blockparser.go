package shortcodes

import (
	"bytes"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

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
