package shortcodes

import (
	"bytes"
	"html/template"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// nodeRenderer renders shortcode nodes through their RenderFunc.
type nodeRenderer struct {
	x  *extension
	md goldmark.Markdown
}

var _ renderer.NodeRenderer = (*nodeRenderer)(nil)

// RegisterFuncs implements renderer.NodeRenderer.
func (r *nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindBlock, r.render)
	reg.Register(KindInline, r.render)
	reg.Register(kindBad, r.renderBad)
	reg.Register(kindCloser, r.renderBad)
}

func (r *nodeRenderer) renderBad(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	var seg text.Segment
	switch n := n.(type) {
	case *bad:
		seg = n.seg
	case *closer:
		seg = text.NewSegment(n.t.pos, n.t.end)
	}
	if seg.Start >= 0 && seg.Stop <= len(source) && seg.Start <= seg.Stop {
		template.HTMLEscape(w, source[seg.Start:seg.Stop])
	}
	return ast.WalkContinue, nil
}

// children renders the children of n.
func (r *nodeRenderer) children(source []byte, n ast.Node) template.HTML {
	var buf bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if err := r.md.Renderer().Render(&buf, source, c); err != nil {
			if d := dataOf(n); d != nil {
				d.doc.errorf(d.call.Pos, "rendering inside %q: %v", d.call.Name, err)
			}
		}
	}
	return template.HTML(buf.String())
}

func (r *nodeRenderer) render(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	dt := dataOf(n)
	if dt.spec == nil || dt.spec.Render == nil || dt.invalid {
		return ast.WalkContinue, nil // reported: show the inner content
	}
	d := dt.doc
	d.need(dt.spec, dt.call.Pos)
	c := &Context{
		Call: &dt.call, Spec: dt.spec, Args: dt.args, Positional: dt.pos,
		Lang: d.lang, T: d.t, Parts: d.parts, SeriesParts: d.seriesParts, SeriesIDs: d.seriesIDs, image: dt.image,
		Term: d.term(), TermIDs: d.termIDs(),
		inner: func() template.HTML { return r.children(source, n) },
		items: func() []Item {
			var items []Item
			for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
				if cd := dataOf(ch); cd != nil {
					items = append(items, Item{Call: &cd.call, Args: cd.args, Inner: r.children(source, ch)})
				}
			}
			return items
		},
		id:     d.id,
		report: func(format string, args ...any) { d.errorf(dt.call.Pos, format, args...) },
		hugo:   hugoCallOf(r, n, source, dt),
	}
	if err := dt.spec.Render(w, c); err != nil {
		d.errorf(dt.call.Pos, "shortcode %q: %v", dt.call.Name, err)
	}
	return ast.WalkSkipChildren, nil
}
