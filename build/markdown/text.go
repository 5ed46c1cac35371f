package markdown

import (
	"bytes"
	"html"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"golang.org/x/text/unicode/norm"
)

func nfc(s string) string { return norm.NFC.String(s) }

// inlineText is the text of n's inline content, without markup, self-links
// or raw HTML; soft line breaks read as a space (or nothing between two
// Japanese characters).
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	writeInline(&b, n, src)
	return strings.Join(strings.Fields(b.String()), " ")
}

func writeInline(b *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.WriteString(html.UnescapeString(string(c.Value(src))))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *PartRef:
			b.Write(src[c.Start:c.Stop])
		case *HeadingAnchor, *ast.RawHTML, *east.FootnoteLink:
		default:
			writeInline(b, c, src)
		}
	}
}

// toc collects h2–h4 headings, nested by level.
func toc(root ast.Node, src []byte) []Heading {
	var flat []Heading
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if h.Level >= 2 && h.Level <= 4 {
			id, _ := explicitID(h)
			flat = append(flat, Heading{Level: h.Level, ID: id, Text: inlineText(h, src)})
		}
		return ast.WalkSkipChildren, nil
	})
	return nest(flat)
}

// nest nests flat headings: each under the closest earlier heading of a
// lower level.
func nest(flat []Heading) []Heading {
	type frame struct {
		list  *[]Heading
		level int
	}
	var root []Heading
	stack := []frame{{&root, 0}}
	for _, h := range flat {
		for len(stack) > 1 && stack[len(stack)-1].level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1]
		*top.list = append(*top.list, h)
		last := &(*top.list)[len(*top.list)-1]
		stack = append(stack, frame{&last.Children, h.Level})
	}
	return root
}

// plainText returns the text of the body without markup (code blocks
// excluded) and the text of its code blocks.
func plainText(root ast.Node, src []byte) (prose, code string) {
	var p, c strings.Builder
	p.Grow(len(src))
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *CodeFigure:
			if entering {
				if c.Len() > 0 {
					c.WriteByte('\n')
				}
				c.WriteString(n.Code)
			}
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if entering {
				if v := n.Value(src); bytes.IndexByte(v, '&') < 0 {
					p.Write(v) // nothing to unescape
				} else {
					p.WriteString(html.UnescapeString(string(v)))
				}
				if n.SoftLineBreak() || n.HardLineBreak() {
					p.WriteByte('\n')
				}
			}
		case *ast.String:
			if entering {
				p.Write(n.Value)
			}
		case *ast.AutoLink:
			if entering {
				p.Write(n.Label(src))
			}
			return ast.WalkSkipChildren, nil
		case *PartRef:
			if entering {
				p.Write(src[n.Start:n.Stop])
			}
			return ast.WalkSkipChildren, nil
		case *HeadingAnchor, *ast.RawHTML, *ast.HTMLBlock, *east.FootnoteLink, *east.FootnoteBacklink:
			return ast.WalkSkipChildren, nil
		default:
			if !entering && n.Type() == ast.TypeBlock {
				p.WriteByte('\n')
			}
		}
		return ast.WalkContinue, nil
	})
	return tidy(p.String()), c.String()
}

// tidy trims each line and drops empty ones.
func tidy(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.TrimFunc(l, unicode.IsSpace); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
