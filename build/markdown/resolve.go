package markdown

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Resolver is an AST node whose content comes from the page's
// environment (a call of the ref, relref or param shortcode: a page's
// URL, a parameter's value). The resolvers extension calls Resolve on
// each, once, in document order, before the links are resolved: a node
// may then put a link in its place, which Env.Link resolves as it does
// the body's.
type Resolver interface {
	ast.Node
	Resolve(e *Env, src []byte)
}

// resolvers is the extension that has the Resolver nodes resolve.
type resolvers struct{}

var _ goldmark.Extender = resolvers{}

// Extend implements goldmark.Extender.
func (resolvers) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(resolveTransformer{}, PriorityResolveTransformer)))
}

// resolveTransformer calls Resolve on each Resolver node.
type resolveTransformer struct{}

var _ parser.ASTTransformer = resolveTransformer{}

// Transform implements parser.ASTTransformer.
func (resolveTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	if env == nil {
		env = &Env{}
	}
	// Gathered first: a node may replace itself and its neighbours.
	var rs []Resolver
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.CodeSpan, *CodeFigure:
			return ast.WalkSkipChildren, nil
		case Resolver:
			rs = append(rs, n)
		}
		return ast.WalkContinue, nil
	})
	for _, r := range rs {
		r.Resolve(env, reader.Source())
	}
}
