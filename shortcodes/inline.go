package shortcodes

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

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
	if d.noCalls() {
		return nil
	}
	t, err := parseTag(src, start, end)
	if err != nil && err.short {
		// The tag may go on over the next lines of the paragraph.
		sc := scanOf(pc, src)
		lim := sc.limit(end)
		t, err = sc.parseTag(start, end)
		var para int
		if err == nil || err.short {
			para = sc.blockEnd(parent, block)
		}
		if err == nil && t.end > para || err != nil && err.short {
			// Hugo reads a tag before markdown, over blank lines too.
			at, msg := start, "unterminated shortcode"
			if err != nil {
				at, msg = err.Pos, err.Msg
			}
			if strings.HasPrefix(msg, "unterminated shortcode") {
				_, r := delims(src[start+2] == '%')
				at, msg = min(para, lim), fmt.Sprintf("unterminated shortcode: expected %q", r)
			}
			d.errorf(at, "%s before the end of the paragraph: a tag may span lines, but not a blank line (Hugo's may) nor the start of another block", msg)
			block.Advance(end - start)
			return &bad{seg: text.NewSegment(start, end)}
		}
	}
	if err != nil {
		d.errorf(err.Pos, "%s", err.Msg)
		stop := min(resume(src, start, err.Pos), end)
		block.Advance(stop - start)
		return &bad{seg: text.NewSegment(start, stop)}
	}
	advanceTo(block, t.end)
	switch {
	case t.literal:
		// Over several lines it reads as the lines of its paragraph do,
		// without their indentation.
		return ast.NewString(lineIndent.ReplaceAll([]byte(t.text), []byte("\n")))
	case t.closing:
		return &closer{t: t}
	}
	n := &Inline{data: p.x.newData(&t, d)}
	tagNotes(d, &t)
	if n.spec != nil && n.spec.Block {
		ok, warning := false, ""
		if n.spec.InlineIf != nil && !n.invalid {
			ok, warning = n.spec.InlineIf(n.args)
		}
		switch {
		case !ok:
			l, r := delims(t.markdown)
			d.errorf(t.pos, "shortcode %q must stand alone on its line (%s %s %s … on a line of its own)", t.name, l, t.name, r)
		case warning != "":
			d.report(diag.Warning, t.pos, "%s", warning)
		}
	}
	if n.spec != nil && n.spec.RawInner && !t.selfClosing {
		rawInline(n, parent, block, pc)
	}
	return n
}

// rawInline reads the inner text of the inline pair n, whose shortcode
// takes it raw (Shortcode.RawInner), as text up to its closing tag in the
// paragraph, and moves the reader past that tag. Without one, n stays an
// opening tag, which pairInline reports unclosed.
func rawInline(n *Inline, parent ast.Node, block text.Reader, pc parser.Context) {
	src := block.Source()
	end := scanOf(pc, src).blockEnd(parent, block)
	for i := n.call.TagEnd; i < end; i += 2 {
		j := bytes.Index(src[i:end], []byte("{{"))
		if j < 0 {
			return
		}
		i += j
		t, err := parseTag(src, i, end)
		if err != nil || !t.closing || t.name != n.call.Name {
			continue
		}
		n.call.Paired, n.call.InnerPos, n.call.Inner, n.call.End = true, n.call.TagEnd, string(src[n.call.TagEnd:i]), t.end
		n.pair = 2
		advanceTo(block, t.end)
		return
	}
}

// lineIndent is a line break and the next line's indentation.
var lineIndent = regexp.MustCompile(`\r?\n[ \t]*`)

// advanceTo moves the reader of a block to the offset off of the source,
// over the lines of the block.
func advanceTo(block text.Reader, off int) {
	for {
		line, seg := block.PeekLine()
		if line == nil {
			return
		}
		if off <= seg.Stop {
			block.Advance(off - seg.Start)
			return
		}
		block.AdvanceLine()
	}
}

// tagNotes reports what a tag holds that Hugo reads as written but the
// author likely meant otherwise (an argument given twice), and a Hugo
// inline shortcode, which kakehashi does not run.
func tagNotes(d *doc, t *tag) {
	for _, w := range t.warnings {
		d.report(diag.Warning, w.Pos, "%s", w.Msg)
	}
	if isInline(t.name) && !t.closing {
		d.report(diag.Warning, t.pos, "%s", inlineMsg(t.name))
	}
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
			pairInline(n, src, docFor, tr.x.reg.Lookup)
		}
		tr.checkPlace(n, src)
		return ast.WalkContinue, nil
	})
	if d, ok := pc.Get(docKey).(*doc); ok && d.hugo != nil && d.hugo.templates {
		hugoTree(root, d) // site templates: parents, ordinals, raw inner texts
	}
}

// pairInline moves the siblings between an inline opening tag and its
// closing tag into the opener, and reports closing tags that close nothing
// and pairs left open.
func pairInline(parent ast.Node, src []byte, docFor func() *doc, lookup func(string) (*Shortcode, bool)) {
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
				if s, ok := lookup(c.t.name); ok && !s.Inner {
					docFor().errorf(c.t.pos, "unexpected closing shortcode %q: %q takes no inner content%s", "/"+c.t.name, c.t.name, noInnerWhy(s))
				} else {
					docFor().errorf(c.t.pos, "unexpected closing shortcode %q: no %s %s %s is open", "/"+c.t.name, l, c.t.name, r)
				}
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
	if p := dataOf(n.Parent()); p != nil && isInline(p.call.Name) {
		dt.doc.errorf(dt.call.Pos, "%s", nestedInInline(&dt.call, &p.call))
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
