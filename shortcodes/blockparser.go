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

func (p *blockParser) Trigger() []byte { return []byte{'{', '>'} }

// standalone parses the tag that starts the current line and ends a line,
// this one or a later one (a tag may span lines, as in Hugo, though not a
// blank line), if any; end is the end of the tag's last line.
func standalone(reader text.Reader, pc parser.Context) (t tag, end int, ok bool) {
	line, seg := reader.PeekLine()
	off := pc.BlockOffset()
	if off < 0 || off >= len(line) || !bytes.HasPrefix(line[off:], []byte("{{")) {
		return tag{}, 0, false
	}
	src := reader.Source()
	start, stop := seg.Start+off, lineEnd(src, seg)
	if start+3 > stop || !bytes.HasPrefix(src[start:], line[off:off+3]) {
		return tag{}, 0, false
	}
	t, err := parseTag(src, start, stop)
	if err != nil && err.short {
		t, err = scanOf(pc, src).parseTag(start, stop)
	}
	if err != nil || t.literal {
		return tag{}, 0, false
	}
	end = endOfLine(src, t.end)
	if !blank(src[t.end:end]) {
		return tag{}, 0, false
	}
	return t, end, true
}

// endOfLine returns the end of the line holding off, without "\r\n".
func endOfLine(src []byte, off int) int {
	end := len(src)
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		end = off + i
	}
	if end > off && src[end-1] == '\r' {
		end--
	}
	return end
}

func (p *blockParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	if off := pc.BlockOffset(); off >= 0 && off < len(line) && line[off] == '>' {
		continueTag(reader, pc)
		return nil, parser.NoChildren
	}
	t, end, ok := standalone(reader, pc)
	if !ok {
		return nil, parser.NoChildren
	}
	d := docOf(pc)
	if d.noCalls() {
		return nil, parser.NoChildren
	}
	src := reader.Source()
	if t.closing {
		// The closing tag of a pair opened past MaxNesting.
		if k := len(d.flat) - 1; k >= 0 && d.flat[k] == t.name {
			d.flat = d.flat[:k]
			n := &Block{data: data{call: t.call(), doc: d, pair: 2, invalid: true, flat: true}}
			reader.Advance(end - seg.Start)
			return n, parser.NoChildren
		}
		return nil, parser.NoChildren
	}
	s, known := p.x.reg.Lookup(t.name)
	c := t.call()
	container := !t.selfClosing && (known && s.Inner || !known && d.hasClosing(src, &c))
	// A call on one line of a paragraph is inline in it; one over several
	// lines stands apart (its last line, ">}}", would begin a block quote).
	if !container && end <= lineEnd(src, seg) && ast.IsParagraph(pc.LastOpenedBlock().Node) {
		return nil, parser.NoChildren
	}
	n := &Block{data: p.x.newData(&t, d)}
	tagNotes(d, &t)
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
	reader.Advance(end - seg.Start)
	if container && !(known && s.RawInner) { // an unknown name has no declaration
		return n, parser.HasChildren
	}
	return n, parser.NoChildren // a raw inner text's lines are Continue's
}

// continueTag keeps a line that starts with ">}}" in the paragraph above
// when it ends a tag opened on one of the paragraph's lines, where it
// would otherwise begin a block quote: it adds the tag's part of the line
// to the paragraph and moves the reader past it, so that no block quote
// opens and the paragraph takes the rest of the line.
func continueTag(reader text.Reader, pc parser.Context) {
	para, ok := pc.LastOpenedBlock().Node.(*ast.Paragraph)
	if !ok || para.Lines().Len() == 0 {
		return
	}
	line, seg := reader.PeekLine()
	off := pc.BlockOffset()
	if !bytes.HasPrefix(line[off:], []byte(">}}")) {
		return
	}
	src := reader.Source()
	sc := scanOf(pc, src)
	lines := para.Lines()
	to := lines.At(lines.Len() - 1).Stop
	stop := lineEnd(src, seg)
	// The paragraph is read from where the last look left off: a tag
	// that ended, or failed other than for want of lines, before it holds
	// no tag this line could end.
	from, ok := sc.paraFrom[para]
	if !ok {
		from = lines.At(0).Start
	}
	for i := nextTag(src, from); i >= 0 && i < to; i = nextTag(src, from) {
		t, err := sc.parseTagIn(i, to)
		switch {
		case err == nil:
			from = t.end
			continue
		case !err.short:
			from = i + 2
			continue
		}
		sc.paraFrom[para] = from
		t, err = sc.parseTagIn(i, stop)
		if err != nil || t.end <= seg.Start+off {
			return
		}
		sc.paraFrom[para] = t.end
		// The paragraph takes the line from the tag's last "}" on, so
		// that what follows it keeps its spaces (a paragraph's line loses
		// its leading ones) and a line with nothing after the tag goes on
		// with the paragraph (a blank rest would end it).
		lines.Append(text.NewSegment(seg.Start, t.end-1))
		para.SetLines(lines)
		reader.Advance(t.end - 1 - seg.Start)
		return
	}
	sc.paraFrom[para] = from
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
	if n.spec != nil && n.spec.RawInner && !n.flat {
		return continueRaw(n, reader)
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
	if err != nil && err.short {
		t, err = n.doc.lineTag(src, start, scanOf(pc, src).limit(end))
	}
	if err != nil || !t.closing || t.name != n.call.Name {
		return parser.Continue | parser.HasChildren
	}
	if end = endOfLine(src, t.end); !blank(src[t.end:end]) {
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

// continueRaw reads a line of the raw inner text of n (Shortcode.
// RawInner), as text, up to n's closing tag, which may end any line of
// it: what precedes the tag on its line is inner text; what follows it
// is lost, an error.
func continueRaw(n *Block, reader text.Reader) parser.State {
	_, seg := reader.PeekLine()
	src := reader.Source()
	stop := lineEnd(src, seg)
	for i := seg.Start; i < stop; i += 2 {
		j := bytes.Index(src[i:stop], []byte("{{"))
		if j < 0 {
			break
		}
		i += j
		t, err := parseTag(src, i, stop)
		if err != nil || !t.closing || t.name != n.call.Name {
			continue
		}
		end := endOfLine(src, t.end)
		if !blank(src[t.end:end]) {
			l, r := delims(t.markdown)
			n.doc.errorf(t.end, "text after %s /%s %s is lost: the closing tag of %q ends its line", l, t.name, r, t.name)
		}
		n.closed = true
		n.call.Paired = true
		n.call.InnerPos = n.call.TagEnd
		n.call.Inner = string(src[n.call.TagEnd:t.pos])
		n.call.End = t.end
		reader.Advance(end - seg.Start)
		return parser.Close
	}
	return parser.Continue | parser.NoChildren
}

func (p *blockParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	n := node.(*Block)
	if n.wantsPair(reader.Source()) && !n.closed && n.spec != nil {
		n.doc.errorf(n.call.Pos, "%s", unclosed(&n.call))
	}
}

func (p *blockParser) CanInterruptParagraph() bool { return true }

func (p *blockParser) CanAcceptIndentedLine() bool { return false }
