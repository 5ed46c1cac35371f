package markdown

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Divider is Hugo's summary divider: a page's summary is what comes
// before the first one (Summary). It renders as nothing; what follows it
// on its line is read as if it began the line.
const Divider = "<!--more-->"

// Priorities of the divider's parsers: before goldmark's HTML blocks
// (900) and raw HTML (400), which would read it as raw HTML, omitted, and
// with it the rest of its line.
const (
	PriorityDividerBlock  = 850
	PriorityDividerInline = 350
)

// KindDivider is the kind of *DividerBlock and *DividerInline.
var KindDivider = ast.NewNodeKind("SummaryDivider")

// DividerBlock is a summary divider where a block may begin: it holds the
// blocks that the rest of its line begins, so "<!--more-->{{< sc >}}"
// keeps its shortcode.
type DividerBlock struct{ ast.BaseBlock }

// DividerInline is a summary divider inside a line.
type DividerInline struct{ ast.BaseInline }

var (
	_ ast.Node = (*DividerBlock)(nil)
	_ ast.Node = (*DividerInline)(nil)
)

// Kind implements ast.Node.
func (n *DividerBlock) Kind() ast.NodeKind { return KindDivider }

// Dump implements ast.Node.
func (n *DividerBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// Kind implements ast.Node.
func (n *DividerInline) Kind() ast.NodeKind { return KindDivider }

// Dump implements ast.Node.
func (n *DividerInline) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// dividers is the extension reading summary dividers.
type dividers struct{}

var _ goldmark.Extender = dividers{}

// Extend implements goldmark.Extender.
func (dividers) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(util.Prioritized(dividerBlock{}, PriorityDividerBlock)),
		parser.WithInlineParsers(util.Prioritized(dividerInline{}, PriorityDividerInline)),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(dividerRenderer{}, PriorityRenderer)))
}

// dividerBlock opens a divider at the start of a line.
type dividerBlock struct{}

var _ parser.BlockParser = dividerBlock{}

func (dividerBlock) Trigger() []byte { return []byte{'<'} }

func (dividerBlock) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	off := pc.BlockOffset()
	if off < 0 || off >= len(line) || !bytes.HasPrefix(line[off:], []byte(Divider)) {
		return nil, parser.NoChildren
	}
	// As Hugo, skip the spaces after it; the rest of the line opens the
	// divider's children.
	n := off + len(Divider)
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	reader.Advance(n)
	if rest, _ := reader.PeekLine(); util.IsBlank(rest) {
		return &DividerBlock{}, parser.NoChildren
	}
	return &DividerBlock{}, parser.HasChildren
}

func (dividerBlock) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	return parser.Close // its children go on as lazy continuation lines
}

func (dividerBlock) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

func (dividerBlock) CanInterruptParagraph() bool { return true }

func (dividerBlock) CanAcceptIndentedLine() bool { return false }

// dividerInline reads a divider inside a line.
type dividerInline struct{}

var _ parser.InlineParser = dividerInline{}

func (dividerInline) Trigger() []byte { return []byte{'<'} }

func (dividerInline) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte(Divider)) {
		return nil
	}
	block.Advance(len(Divider))
	return &DividerInline{}
}

// dividerRenderer renders a divider as its children alone.
type dividerRenderer struct{}

var _ renderer.NodeRenderer = dividerRenderer{}

// RegisterFuncs implements renderer.NodeRenderer.
func (dividerRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindDivider, func(util.BufWriter, []byte, ast.Node, bool) (ast.WalkStatus, error) {
		return ast.WalkContinue, nil
	})
}

// summaryParser reads what Summary needs: CommonMark, GFM's tables and
// the dividers.
var summaryParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, dividers{})).Parser()

// shortcodeTag matches a shortcode tag in text: a summary keeps the text
// around and between tags, not the tags. The literal form, {{</* x */>}},
// is the tag it shows.
var (
	shortcodeTag = regexp.MustCompile(`(?s)\{\{([<%])/\*(.*?)\*/([>%])\}\}|\{\{[<%].*?[>%]\}\}`)
	summaryLines = regexp.MustCompile(`\r?\n`)
)

// Summary returns the summary of a page's markdown body, as Hugo makes
// it from a summary divider: the content before the first Divider that is
// not in code, as plain text (its lines joined with spaces, its shortcode
// tags left out); ok is false when the body has no divider.
func Summary(body []byte) (summary string, ok bool) {
	if !bytes.Contains(body, []byte(Divider)) {
		return "", false
	}
	root := summaryParser.Parse(text.NewReader(body))
	var b strings.Builder
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *DividerBlock, *DividerInline:
			ok = true
			return ast.WalkStop, nil
		case *ast.Text:
			if entering {
				b.Write(n.Value(body))
				if n.SoftLineBreak() || n.HardLineBreak() {
					b.WriteByte('\n')
				}
			}
		case *ast.String:
			if entering {
				b.Write(n.Value)
			}
		case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			if entering {
				b.Write(n.Label(body))
			}
			return ast.WalkSkipChildren, nil
		default:
			if !entering && n.Type() == ast.TypeBlock {
				b.WriteByte('\n')
			}
		}
		return ast.WalkContinue, nil
	})
	if !ok {
		return "", false
	}
	s := shortcodeTag.ReplaceAllStringFunc(b.String(), func(tag string) string {
		if m := shortcodeTag.FindStringSubmatch(tag); m[1] != "" {
			return "{{" + m[1] + m[2] + m[3] + "}}"
		}
		return ""
	})
	return joinLines(html.UnescapeString(s)), true
}

// joinLines makes text of one line: its lines are joined by a space, or
// by nothing between two Han or Kana characters (Japanese has no spaces
// between words), runs of spaces made one.
func joinLines(s string) string {
	var b strings.Builder
	for _, l := range summaryLines.Split(s, -1) {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			last, _ := utf8.DecodeLastRuneInString(b.String())
			first, _ := utf8.DecodeRuneInString(l)
			if !(noSpace(last) && noSpace(first)) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// noSpace reports a character that a line break next to another such
// joins without a space: Han, Hiragana, Katakana and their punctuation.
func noSpace(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}
