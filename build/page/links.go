package page

import (
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// PartLinks resolves "#N" in the prose of a page of series sr in lang: the
// part's title in lang, and a link when the part has a page. Links are
// relative to the page at the site-absolute path from (naming a folder's
// index.html when explicit, see render.Link), or site-absolute when from is
// "" (a fragment that has no page of its own). Both the build and
// Builder.RenderDoc use it.
func PartLinks(st *site.Site, sr *source.Series, lang, from string, explicit bool) func(int) (markdown.PartLink, bool) {
	return func(n int) (markdown.PartLink, bool) {
		part, ok := sr.Part(n)
		if !ok {
			return markdown.PartLink{}, false
		}
		l := markdown.PartLink{Title: part.Title[lang]}
		if q := st.PartPage(lang, sr.ID, n); q != nil {
			l.Href, l.Published = q.URL, true
			if from != "" {
				l.Href = render.Link(from, q.URL, explicit)
			}
		}
		return l, true
	}
}

// ExplicitIndexLinks is the goldmark extension that makes every relative
// link and image of the markdown that names a folder name its index.html
// (render.ExplicitIndex), the form the rest of an exported page links in
// (build.Options.ExplicitIndex).
func ExplicitIndexLinks() goldmark.Extender { return explicitIndexLinks{} }

type explicitIndexLinks struct{}

var (
	_ goldmark.Extender     = explicitIndexLinks{}
	_ parser.ASTTransformer = explicitIndexLinks{}
)

// Extend implements goldmark.Extender.
func (x explicitIndexLinks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(x, 1000)))
}

// Transform implements parser.ASTTransformer.
func (explicitIndexLinks) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch l := n.(type) {
			case *ast.Link:
				l.Destination = []byte(render.ExplicitIndex(string(l.Destination)))
			case *ast.Image:
				l.Destination = []byte(render.ExplicitIndex(string(l.Destination)))
			}
		}
		return ast.WalkContinue, nil
	})
}
