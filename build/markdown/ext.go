package markdown

import (
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
)

// kakehashi is the goldmark extension holding this package's parsers,
// transformers and renderers.
type kakehashi struct {
	hl *highlight.Highlighter
}

var _ goldmark.Extender = (*kakehashi)(nil)

// Extend adds the extension to m.
func (k *kakehashi) Extend(m goldmark.Markdown) {}

func toc(root ast.Node, src []byte) []Heading { return nil }

func plainText(root ast.Node, src []byte) (string, string) { return "", "" }
