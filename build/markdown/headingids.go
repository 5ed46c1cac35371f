package markdown

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// KindHeadingAnchor is the kind of HeadingAnchor nodes.
var KindHeadingAnchor = ast.NewNodeKind("HeadingAnchor")

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

// headingIDs is the extension that gives every heading an ID that works
// in every script (Slug) and h2–h4 a self-link. An explicit {#id} (goldmark's
// attribute syntax, enabled in New) wins.
type headingIDs struct{}

var _ goldmark.Extender = headingIDs{}

// Extend implements goldmark.Extender.
func (headingIDs) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(headingIDTransformer{}, PriorityHeadingIDTransformer)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(headingAnchorRenderer{}, PriorityRenderer)))
}

// headingIDTransformer sets the headings' IDs and appends their self-links.
type headingIDTransformer struct{}

var _ parser.ASTTransformer = headingIDTransformer{}

// Transform implements parser.ASTTransformer.
func (headingIDTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	if env == nil {
		env = &Env{}
	}
	var hs []*ast.Heading
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			hs = append(hs, n)
		case *ast.FencedCodeBlock, *ast.CodeBlock, *CodeFigure:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	filterAttributes(hs, reader.Source(), env)
	setHeadingIDs(hs, reader.Source(), env)
}

// setHeadingIDs gives every heading an ID (an explicit {#id} wins, the
// others are made unique with -1, -2 suffixes) and h2–h4 a trailing
// self-link.
func setHeadingIDs(hs []*ast.Heading, src []byte, env *Env) {
	used := map[string]bool{}
	for _, h := range hs {
		if id, ok := explicitID(h); ok {
			used[id] = true
		}
	}
	next := map[string]int{} // the next suffix to try for a base
	for _, h := range hs {
		id, ok := explicitID(h)
		if !ok {
			base := Slug(inlineText(h, src))
			id = base
			for i := max(next[base], 1); used[id]; i++ {
				id = base + "-" + strconv.Itoa(i)
				next[base] = i + 1
			}
			used[id] = true
			h.SetAttributeString("id", []byte(id))
		}
		if h.Level >= 2 && h.Level <= 4 {
			h.AppendChild(h, &HeadingAnchor{ID: id, Label: env.t("anchor")})
		}
	}
}

func explicitID(h *ast.Heading) (string, bool) {
	v, ok := h.AttributeString("id")
	if !ok {
		return "", false
	}
	switch v := v.(type) {
	case []byte:
		return string(v), len(v) > 0
	case string:
		return v, v != ""
	}
	return "", false
}

// Slug turns heading text into an ID: letters, digits and marks of every
// script are kept (NFC, lower-cased), every run of anything else becomes a
// single '-', and leading and trailing '-' are trimmed. Empty text gives
// "section".
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range nfc(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "section"
	}
	return b.String()
}

// headingAnchorRenderer renders HeadingAnchor nodes.
type headingAnchorRenderer struct{}

var _ renderer.NodeRenderer = headingAnchorRenderer{}

// RegisterFuncs implements renderer.NodeRenderer.
func (headingAnchorRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindHeadingAnchor, renderHeadingAnchor)
}

func renderHeadingAnchor(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*HeadingAnchor)
	fmt.Fprintf(w, `<a class="anchor" href="#%s" aria-label="%s">#</a>`, html.EscapeString(n.ID), html.EscapeString(n.Label))
	return ast.WalkSkipChildren, nil
}
