package markdown

import (
	"fmt"

	"github.com/yuin/goldmark/ast"
)

// Node kinds of this package.
var (
	// KindPartRef is the kind of PartRef nodes.
	KindPartRef = ast.NewNodeKind("PartRef")
	// KindCodeFigure is the kind of CodeFigure nodes.
	KindCodeFigure = ast.NewNodeKind("CodeFigure")
	// KindTableWrap is the kind of TableWrap nodes.
	KindTableWrap = ast.NewNodeKind("TableWrap")
	// KindHeadingAnchor is the kind of HeadingAnchor nodes.
	KindHeadingAnchor = ast.NewNodeKind("HeadingAnchor")
)

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

// CodeFigure is a highlighted code block with its caption.
type CodeFigure struct {
	ast.BaseBlock
	Lang     string // as written, "text" when none
	Title    string
	Code     string // the code, line endings normalised, trailing newline trimmed
	HTML     string // highlighted <pre>
	CopyText string
	Copy     string // button label
	Copied   string // label after copying
}

var _ ast.Node = (*CodeFigure)(nil)

// Kind implements ast.Node.
func (n *CodeFigure) Kind() ast.NodeKind { return KindCodeFigure }

// Dump implements ast.Node.
func (n *CodeFigure) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Lang": n.Lang, "Title": n.Title}, nil)
}

// TableWrap wraps a table in a scrollable <div class="table-wrap">.
type TableWrap struct {
	ast.BaseBlock
}

var _ ast.Node = (*TableWrap)(nil)

// Kind implements ast.Node.
func (n *TableWrap) Kind() ast.NodeKind { return KindTableWrap }

// Dump implements ast.Node.
func (n *TableWrap) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// HeadingAnchor is the self-link at the end of a heading.
type HeadingAnchor struct {
	ast.BaseInline
	ID    string
	Label string // aria-label
}

var _ ast.Node = (*HeadingAnchor)(nil)

// Kind implements ast.Node.
func (n *HeadingAnchor) Kind() ast.NodeKind { return KindHeadingAnchor }

// Dump implements ast.Node.
func (n *HeadingAnchor) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"ID": n.ID}, nil)
}
