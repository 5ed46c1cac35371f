// Package mdtest runs markdown tests written as data: case files in
// goldmark's testutil format (see testutil.DoTestCaseFile) and the
// CommonMark spec's examples, through a markdown.Renderer, the renderer of
// the build's markdown stage. It is for tests only.
//
// A case file is a list of cases, each a number and a description, the
// markdown and the expected HTML:
//
//	1: a planned part
//	//- - - - - - - - -//
//	詳しくは #4 を参照
//	//- - - - - - - - -//
//	<p>詳しくは <span class="part-ref planned" ...>...</span> を参照</p>
//	//= = = = = = = = = = = = = = = = = = = = = = = =//
//
// The rendered HTML is followed by the document's diagnostics, one per
// line as "<!-- case.md:LINE:COL: [warning: ]message -->", so a case pins
// its warnings and errors too.
package mdtest

import (
	"context"
	"io"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/testutil"
)

// CasePath is the path a case's markdown is rendered as, in diagnostics.
const CasePath = "case.md"

// adapter is a goldmark.Markdown whose Convert goes through a
// markdown.Renderer with one page environment.
type adapter struct {
	r   *markdown.Renderer
	env markdown.Env
}

var _ goldmark.Markdown = (*adapter)(nil)

// Markdown returns r as the goldmark.Markdown goldmark's testutil runs:
// Convert renders a document with env and writes its HTML and its
// diagnostics (see the package comment). The parser and renderer are
// not exposed: Parser and Renderer return nil and the setters do nothing.
func Markdown(r *markdown.Renderer, env markdown.Env) goldmark.Markdown {
	return &adapter{r: r, env: env}
}

// Convert implements goldmark.Markdown.
func (a *adapter) Convert(src []byte, w io.Writer, _ ...parser.ParseOption) error {
	_, err := io.WriteString(w, Render(a.r, a.env, string(src)))
	return err
}

// Parser implements goldmark.Markdown.
func (a *adapter) Parser() parser.Parser { return nil }

// SetParser implements goldmark.Markdown.
func (a *adapter) SetParser(parser.Parser) {}

// Renderer implements goldmark.Markdown.
func (a *adapter) Renderer() renderer.Renderer { return nil }

// SetRenderer implements goldmark.Markdown.
func (a *adapter) SetRenderer(renderer.Renderer) {}

// Render renders src as the document CasePath with env, and returns its
// HTML followed by its diagnostics, one comment line each.
func Render(r *markdown.Renderer, env markdown.Env, src string) string {
	res := r.Render(context.Background(), markdown.Doc{Path: CasePath, Src: []byte(src)}, env)
	var b strings.Builder
	b.Write(res.HTML)
	for _, d := range res.Diags {
		b.WriteString("<!-- " + d.Header() + " -->\n")
	}
	return b.String()
}

// RunCaseFile runs the cases of file (goldmark's case-file format)
// through r with env, failing t on each case whose output differs.
func RunCaseFile(t testutil.TestingT, r *markdown.Renderer, env markdown.Env, file string) {
	testutil.DoTestCaseFile(Markdown(r, env), file, t)
}
