package markdown

import (
	"fmt"
	"html"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// KindPartRef is the kind of PartRef nodes.
var KindPartRef = ast.NewNodeKind("PartRef")

// PartRef is a "#N" reference to part N of the page's series.
type PartRef struct {
	ast.BaseInline
	N     int
	Start int // byte offset of '#' in the body
	Stop  int // byte offset after the digits
	Link  PartLink
	Found bool   // the series has part N
	Mark  string // the "planned" label
}

var _ ast.Node = (*PartRef)(nil)

// Kind implements ast.Node.
func (n *PartRef) Kind() ast.NodeKind { return KindPartRef }

// Dump implements ast.Node.
func (n *PartRef) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"N": fmt.Sprint(n.N)}, nil)
}

// partLinks is the extension that links "#N" in prose to part N of the
// page's series (Env.Parts), or marks it planned.
type partLinks struct{}

var _ goldmark.Extender = partLinks{}

// Extend implements goldmark.Extender.
func (partLinks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithInlineParsers(util.Prioritized(partRefParser{}, PriorityPartLinkParser)),
		parser.WithASTTransformers(util.Prioritized(partRefTransformer{}, PriorityPartLinkTransformer)),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(partRefRenderer{}, PriorityRenderer)))
}

// partRefParser parses "#N" series references.
type partRefParser struct{}

var _ parser.InlineParser = partRefParser{}

// Trigger implements parser.InlineParser.
func (partRefParser) Trigger() []byte { return []byte{'#'} }

// Parse implements parser.InlineParser.
func (partRefParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	env := EnvFrom(pc)
	if env == nil || env.Parts == nil {
		return nil
	}
	if !refBoundary(block.PrecendingCharacter(), true) {
		return nil
	}
	line, seg := block.PeekLine()
	i := 1
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == 1 || i > 7 {
		return nil
	}
	if i < len(line) {
		if r, _ := utf8.DecodeRune(line[i:]); !refBoundary(r, false) {
			return nil
		}
	}
	n, err := strconv.Atoi(string(line[1:i]))
	if err != nil {
		return nil
	}
	link, ok := env.Parts(n)
	block.Advance(i)
	return &PartRef{N: n, Start: seg.Start, Stop: seg.Start + i, Link: link, Found: ok, Mark: env.t("planned")}
}

// refBoundary reports whether r may stand right before (before=true) or
// right after a "#N" reference. Letters and digits glue the reference to a
// word ("C#7"), except Japanese and Korean letters, which need no space
// ("#2で"); before it, '#', '&' (an entity) and '/' (a URL) do too.
func refBoundary(r rune, before bool) bool {
	if before && (r == '#' || r == '&' || r == '/') {
		return false
	}
	if unicode.IsDigit(r) {
		return false
	}
	if unicode.IsLetter(r) {
		return isJapanese(r) || unicode.Is(unicode.Hangul, r)
	}
	return true
}

// partRefTransformer keeps each "#N" as a link or a planned mark, or turns
// it back into text.
type partRefTransformer struct{}

var _ parser.ASTTransformer = partRefTransformer{}

// Transform implements parser.ASTTransformer.
func (partRefTransformer) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	if env == nil {
		env = &Env{}
	}
	var refs []*PartRef
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *PartRef:
			refs = append(refs, n)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, r := range refs {
		checkRef(r, env)
	}
}

// checkRef keeps r as a link or a planned mark, or turns it back into text:
// inside a link or a heading, or when the series has no such part (then
// with an error: a link to a part the series does not list is a mistake).
func checkRef(r *PartRef, env *Env) {
	for p := r.Parent(); p != nil; p = p.Parent() {
		switch p.(type) {
		case *ast.Link, *ast.AutoLink, *ast.Heading, *ast.Image:
			unwrapRef(r)
			return
		}
	}
	if !r.Found {
		env.Report(diag.Error, r.Start, "#%d: the series has no part %d", r.N, r.N)
		unwrapRef(r)
	}
}

func unwrapRef(r *PartRef) {
	txt := ast.NewTextSegment(text.NewSegment(r.Start, r.Stop))
	r.Parent().ReplaceChild(r.Parent(), r, txt)
}

// partRefRenderer renders PartRef nodes.
type partRefRenderer struct{}

var _ renderer.NodeRenderer = partRefRenderer{}

// RegisterFuncs implements renderer.NodeRenderer.
func (partRefRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindPartRef, renderPartRef)
}

func renderPartRef(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*PartRef)
	esc := html.EscapeString
	if n.Link.Published {
		fmt.Fprintf(w, `<a class="part-ref" href="%s" title="%s">#%d</a>`, esc(n.Link.Href), esc(n.Link.Title), n.N)
	} else {
		fmt.Fprintf(w, `<span class="part-ref planned" title="%s">#%d<span class="planned-mark">%s</span></span>`, esc(n.Link.Title), n.N, esc(n.Mark))
	}
	return ast.WalkSkipChildren, nil
}
