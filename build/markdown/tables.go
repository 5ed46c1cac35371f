package markdown

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// KindTableWrap is the kind of TableWrap nodes.
var KindTableWrap = ast.NewNodeKind("TableWrap")

// TableWrap wraps a table in a scrollable <div class="table-wrap">.
type TableWrap struct {
	ast.BaseBlock
}

var _ ast.Node = (*TableWrap)(nil)

// Kind implements ast.Node.
func (n *TableWrap) Kind() ast.NodeKind { return KindTableWrap }

// Dump implements ast.Node.
func (n *TableWrap) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// tableWraps is the extension that wraps every GFM table in a TableWrap,
// so a wide table scrolls instead of widening the page.
type tableWraps struct{}

var _ goldmark.Extender = tableWraps{}

// Extend implements goldmark.Extender.
func (tableWraps) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(tableWrapTransformer{}, PriorityTableTransformer)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(tableWrapRenderer{}, PriorityRenderer)))
}

// tableWrapTransformer puts each table into a TableWrap.
type tableWrapTransformer struct{}

var _ parser.ASTTransformer = tableWrapTransformer{}

// Transform implements parser.ASTTransformer.
func (tableWrapTransformer) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var tables []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *east.Table:
			tables = append(tables, n)
		case *ast.FencedCodeBlock, *ast.CodeBlock, *CodeFigure:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, tb := range tables {
		w := &TableWrap{}
		tb.Parent().ReplaceChild(tb.Parent(), tb, w)
		w.AppendChild(w, tb)
	}
}

// tableWrapRenderer renders TableWrap nodes.
type tableWrapRenderer struct{}

var _ renderer.NodeRenderer = tableWrapRenderer{}

// RegisterFuncs implements renderer.NodeRenderer.
func (tableWrapRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindTableWrap, renderTableWrap)
}

func renderTableWrap(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<div class=\"table-wrap\">\n")
	} else {
		_, _ = w.WriteString("</div>\n")
	}
	return ast.WalkContinue, nil
}
