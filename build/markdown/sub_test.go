package markdown_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// subNode stands for a source of its own rendered for the document
// (Env.Sub), as a {{% %}} shortcode's output is.
type subNode struct {
	ast.BaseInline
	src string
	at  int
}

var kindSub = ast.NewNodeKind("TestSub")

func (n *subNode) Kind() ast.NodeKind                                 { return kindSub }
func (n *subNode) Dump(source []byte, level int)                      { ast.DumpHelper(n, source, level, nil, nil) }
func (x *subExt) Trigger() []byte                                     { return []byte{'@'} }
func (x *subExt) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) { r.Register(kindSub, x.render) }

// subExt makes "@SUB" a subNode, whose source, rendered at its place,
// holds a link and a link to a section the page lacks.
type subExt struct {
	md  goldmark.Markdown
	env *markdown.Env // the document's, as Render made it
	// seen records what Env.Position says inside and outside the source.
	seen []string
}

func (x *subExt) Extend(m goldmark.Markdown) {
	x.md = m
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(x, 50)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(x, 50)))
}

func (x *subExt) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("@SUB")) || markdown.EnvFrom(pc) == nil {
		return nil
	}
	block.Advance(4)
	env := markdown.EnvFrom(pc)
	x.env = env
	p, l, c, off := env.Position(seg.Start)
	x.seen = append(x.seen, fmt.Sprintf("%s:%d:%d@%d", p, l, c, off))
	return &subNode{src: "see [s](sub.md) and [f](#nowhere)\n", at: seg.Start}
}

func (x *subExt) render(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	sn := n.(*subNode)
	env := markdown.EnvFrom(parser.NewContext()) // none: Sub on a nil Env is safe
	_, pc := env.Sub(0)
	if markdown.EnvFrom(pc) != nil {
		return ast.WalkStop, fmt.Errorf("a nil Env's Sub carries an Env")
	}
	sub, pc := x.env.Sub(sn.at)
	p, l, c, _ := sub.Position(999)
	x.seen = append(x.seen, fmt.Sprintf("sub %s:%d:%d", p, l, c))
	src := []byte(sn.src)
	root := x.md.Parser().Parse(text.NewReader(src), parser.WithContext(pc))
	return ast.WalkContinue, x.md.Renderer().Render(w, src, root)
}

// TestSub: a source rendered for the document through Env.Sub resolves
// its links with the document's Env.Link, and what it reports (a link's
// problem, a fragment of the page it lacks) lands at the place the
// source came from, in the document's result, as its links do;
// Env.Position says where an offset of the body is in the file.
func TestSub(t *testing.T) {
	src := "---\ntitle: x\n---\n# 見出し\n\n日本語 @SUB です。\n"
	body := strings.Index(src, "# 見出し")
	x := &subExt{}
	md := markdown.New(markdown.Options{Extenders: []goldmark.Extender{x}})
	env := markdown.Env{Lang: "ja", Link: func(dest string) markdown.LinkTarget {
		if strings.HasPrefix(dest, "#") {
			return markdown.LinkTarget{Path: "/ja/p/", Fragment: dest[1:], Self: true}
		}
		return markdown.LinkTarget{Href: "/new/" + dest, Path: "/ja/" + dest, Problem: "saw " + dest, Severity: diag.Warning}
	}}
	res := md.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src), BodyStart: body}, env)
	var got []string
	for _, d := range res.Diags {
		got = append(got, d.Header())
	}
	want := []string{
		`p.md:6:5: warning: saw sub.md`,
		`p.md:6:5: warning: link to "#nowhere": this page has no section "nowhere"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if len(res.Links) != 2 || res.Links[0].Path != "/ja/sub.md" || res.Links[0].At.Line != 6 || res.Links[0].At.Col != 5 {
		t.Errorf("links: %+v, want /ja/sub.md and #nowhere at 6:5", res.Links)
	}
	if h := string(res.HTML); !strings.Contains(h, `<a href="/new/sub.md">s</a>`) {
		t.Errorf("HTML:\n%s", h)
	}
	if g, w := strings.Join(x.seen, " "), "p.md:6:5@"+fmt.Sprint(strings.Index(src, "@SUB"))+" sub p.md:6:5"; g != w {
		t.Errorf("positions %s, want %s", g, w)
	}
}
