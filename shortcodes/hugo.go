package shortcodes

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Site shortcode templates have Hugo's semantics, which this file gives
// them over the AST the extension makes:
//
//   - A pair's inner text is raw: its calls are rendered and put in their
//     places in the text as written, which is not read as markdown. After
//     the pairs are made, the calls inside a template's pair become its
//     only children (hugoTree), so that what the markdown made of the rest
//     of the text (headings, links) is no part of the page.
//   - The output of a {{< >}} call is HTML, as it is; that of a {{% %}}
//     call is read as markdown in its place (a block, or a paragraph's
//     content), its shortcodes as text, as Hugo reads it after its
//     shortcodes. Inside another template's inner text (Hugo's "level" >
//     0) a {{% %}} call's output is HTML, and its inner text is read as
//     markdown instead; inside a built-in, whose inner content is
//     markdown, a call is as at the top of the page.
//   - Each call knows its parent and its ordinal among the parent's calls
//     (among the page's top-level calls at the top), as Hugo's .Parent and
//     .Ordinal.

// hugoDoc is what a document's site template calls share.
type hugoDoc struct {
	// templates: the document calls a site template; hugoTree then reads
	// the calls' tree.
	templates bool
	nodes     map[*data]*hugoNode
	// noCalls: the document is the output of a {{% %}} call, read as
	// markdown: its shortcodes are text.
	noCalls bool
	// depth counts the markdown renderings this one is inside (markdown).
	depth int
	page  *TemplatePage // made once, shared with those renderings
	site  *TemplateSite
}

// hugoNode is a call's place among the calls of its document.
type hugoNode struct {
	ordinal int
	parent  *data // the call this one is inside; nil at the top
	// inRaw: the parent is a site template's pair, whose inner text holds
	// this call.
	inRaw bool
	// alone: a call that was all of its paragraph, which it stands for:
	// a {{< >}} call's output loses the paragraph's <p>, as Hugo's
	// placeholder does, a {{% %}} call's is read as blocks, as Hugo
	// reads a paragraph of it.
	alone bool
	raw   *rawInner     // a site template's pair: its inner text
	ctx   *TemplateData // the call's context, made once (TemplateData.Parent)
}

// rawInner is the inner text of a site template's pair, as hugoTree
// left it: the calls in it (the node's children, in order) by their
// spans in the source, and the raw HTML the markdown found in the rest.
type rawInner struct {
	spans [][2]int
	html  [][2]int
}

// hugoState returns d's site template state, making it.
func (d *doc) hugoState() *hugoDoc {
	if d.hugo == nil {
		d.hugo = &hugoDoc{nodes: map[*data]*hugoNode{}}
	}
	return d.hugo
}

// noCalls reports whether d's shortcodes are text (hugoDoc.noCalls).
func (d *doc) noCalls() bool { return d.hugo != nil && d.hugo.noCalls }

// templateCall records that d calls the site template s in c, warning of
// a single tag written self-closing for a template without inner
// content, which Hugo refuses.
func (d *doc) templateCall(s *Shortcode, c *Call) {
	d.hugoState().templates = true
	if c.SelfClosing && !s.Inner {
		l, r := c.Delims()
		d.report(diag.Warning, c.Pos, "shortcode %q takes no inner content (its template uses no .Inner): write %s %s %s, as Hugo refuses %s %s /%s",
			c.Name, l, c.Name, r, l, c.Name, r)
	}
}

// noInnerWhy says why the shortcode s takes no inner content, when it is
// a site template: its template uses no .Inner, which Hugo says too.
func noInnerWhy(s *Shortcode) string {
	if s.Source == "" {
		return ""
	}
	return " (its template uses no .Inner; Hugo refuses its closing tag too)"
}

// hugoTree gives each call of the document root its parent and ordinal,
// and makes the calls inside each site template's pair its only
// children, recording the rest of its inner text (rawInner).
func hugoTree(root ast.Node, d *doc) {
	h := d.hugoState()
	count := map[*data]int{}
	var stack []*data
	var alone []ast.Node // calls that stand for their paragraphs
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		dt := dataOf(n)
		if dt == nil || dt.flat {
			return ast.WalkContinue, nil
		}
		if !entering {
			stack = stack[:len(stack)-1]
			return ast.WalkContinue, nil
		}
		hn := &hugoNode{}
		if len(stack) > 0 {
			hn.parent = stack[len(stack)-1]
			hn.inRaw = h.nodes[hn.parent].raw != nil
		}
		hn.ordinal = count[hn.parent]
		count[hn.parent]++
		if dt.spec != nil && dt.spec.Source != "" && dt.call.Paired && !dt.invalid {
			hn.raw = flatten(n)
		}
		if p, ok := n.Parent().(*ast.Paragraph); ok && !hn.inRaw && dt.spec != nil && dt.spec.Source != "" &&
			p.FirstChild() == n && p.LastChild() == n && p.Parent() != nil {
			hn.alone = true
			alone = append(alone, n)
		}
		h.nodes[dt] = hn
		stack = append(stack, dt)
		return ast.WalkContinue, nil
	})
	for _, n := range alone {
		p := n.Parent()
		p.Parent().ReplaceChild(p.Parent(), p, n)
	}
}

// flatten makes the calls under n its only children and returns what
// they leave of its inner text.
func flatten(n ast.Node) *rawInner {
	ri := &rawInner{}
	var kids []ast.Node
	var walk func(p ast.Node)
	walk = func(p ast.Node) {
		for c := p.FirstChild(); c != nil; c = c.NextSibling() {
			if cd := dataOf(c); cd != nil {
				kids = append(kids, c)
				ri.spans = append(ri.spans, [2]int{cd.call.Pos, cd.call.End})
				continue
			}
			switch c := c.(type) {
			case *ast.RawHTML:
				for i := 0; i < c.Segments.Len(); i++ {
					s := c.Segments.At(i)
					ri.html = append(ri.html, [2]int{s.Start, s.Stop})
				}
			case *ast.HTMLBlock:
				lines := c.Lines()
				if lines.Len() > 0 {
					end := lines.At(lines.Len() - 1).Stop
					if c.HasClosure() {
						end = c.ClosureLine.Stop
					}
					ri.html = append(ri.html, [2]int{lines.At(0).Start, end})
				}
			}
			walk(c)
		}
	}
	walk(n)
	n.RemoveChildren(n)
	for _, k := range kids {
		if p := k.Parent(); p != nil {
			p.RemoveChild(p, k)
		}
		n.AppendChild(n, k)
	}
	slices.SortFunc(ri.html, func(a, b [2]int) int { return a[0] - b[0] })
	return ri
}

// inRawInner reports whether the call is in a site template's raw inner
// text: its place there is its text (a built-in ref's, param's), not a
// paragraph nor a link.
func (d *data) inRawInner() bool {
	h := d.doc.hugo
	if h == nil {
		return false
	}
	hn := h.nodes[d]
	return hn != nil && hn.inRaw
}

// hugoCall is what rendering a site template's call needs beyond its
// Context: where it is in the AST, to render the calls in its inner text.
type hugoCall struct {
	r      *nodeRenderer
	n      ast.Node
	source []byte
	dt     *data
}

// hugoCallOf is the hugoCall of the node n rendered by r, for a site
// template's call; nil for any other.
func hugoCallOf(r *nodeRenderer, n ast.Node, source []byte, dt *data) *hugoCall {
	if dt.spec == nil || dt.spec.Source == "" {
		return nil
	}
	return &hugoCall{r: r, n: n, source: source, dt: dt}
}

// node is the call's place (a zero one when hugoTree did not see it).
func (h *hugoCall) node() *hugoNode {
	if hd := h.dt.doc.hugo; hd != nil {
		if hn := hd.nodes[h.dt]; hn != nil {
			return hn
		}
	}
	return &hugoNode{}
}

// pageInfo is the page's markdown.PageInfo; nil outside a build.
func (h *hugoCall) pageInfo() *markdown.PageInfo {
	if e := h.dt.doc.env; e != nil {
		return e.Page
	}
	return nil
}

// hostRooted warns, for relURL and absURL of a path p with a leading
// "/" on a site that is not at its host's root, that Hugo reads it from
// the host's root, where kakehashi reads it from the site's.
func (h *hugoCall) hostRooted(fn, p string) {
	info := h.pageInfo()
	if !strings.HasPrefix(p, "/") || info == nil {
		return
	}
	base := info.BaseURL
	if i := strings.Index(base, "://"); i >= 0 {
		base = base[i+3:]
		if j := strings.IndexByte(base, '/'); j >= 0 {
			base = base[j:]
		} else {
			base = "/"
		}
	}
	if base == "/" || base == "" {
		return
	}
	h.warn("%s %q is read from the site's root, %s, as every site path in kakehashi; Hugo reads a leading \"/\" from the host's root (write %q for both)",
		fn, p, base, strings.TrimPrefix(p, "/"))
}

// context makes the TemplateData of the call dt, without its Inner.
func (h *hugoCall) context(dt *data) *TemplateData {
	d := dt.doc
	hd := d.hugoState()
	hn := hd.nodes[dt]
	if hn == nil {
		hn = &hugoNode{}
	}
	if hn.ctx != nil {
		return hn.ctx
	}
	td := &TemplateData{Name: dt.call.Name, Args: dt.args, Pos: dt.pos, Markdown: dt.call.Markdown, Lang: d.lang,
		Ordinal: hn.ordinal, indent: indentOf(h.source, dt.call.Pos)}
	td.Params, td.IsNamedParams = hugoParams(&dt.call, hn.parent == nil)
	if td.Args == nil {
		td.Args = map[string]any{}
	}
	td.Page, td.Site = h.page()
	if e := d.env; e != nil {
		p, line, col, off := e.Position(dt.call.Pos)
		td.Position = Position{Filename: p, Offset: off, LineNumber: line, ColumnNumber: col}
	}
	if hn.parent != nil {
		td.Parent = h.context(hn.parent)
	}
	hn.ctx = td
	hd.nodes[dt] = hn
	return td
}

// indentOf is the white space before off on its line, when nothing else
// is before it there.
func indentOf(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:min(off, len(src))], '\n') + 1
	if in := src[start:min(off, len(src))]; len(bytes.Trim(in, " \t")) == 0 {
		return string(in)
	}
	return ""
}

// page makes the page's and the site's TemplatePage and TemplateSite,
// once for the document.
func (h *hugoCall) page() (*TemplatePage, *TemplateSite) {
	d := h.dt.doc
	hd := d.hugoState()
	if hd.page != nil {
		return hd.page, hd.site
	}
	lang := &TemplateLanguage{Lang: d.lang}
	site := &TemplateSite{Language: lang, BaseURL: "/"}
	page := &TemplatePage{Lang: d.lang, Language: lang, Site: site, RelPermalink: "./"}
	if e := d.env; e != nil {
		page.param = e.Param
		if info := e.Page; info != nil {
			page.Title, page.Params, page.Permalink = info.Title, lowerKeys(info.Params), info.Permalink
			site.Title, site.Params, site.BaseURL = info.SiteTitle, lowerKeys(info.SiteParams), info.BaseURL
			if info.Rel != nil {
				page.RelPermalink = info.Rel(info.URL)
			}
		}
	}
	if page.Params == nil {
		page.Params = map[string]any{}
	}
	if site.Params == nil {
		site.Params = map[string]any{}
	}
	hd.page, hd.site = page, site
	return page, site
}

// inner is the call's inner text as its template gets it (TemplateData.Inner).
func (h *hugoCall) inner() string {
	hn := h.node()
	if hn.raw == nil {
		return ""
	}
	call := &h.dt.call
	raw := h.rawInner(hn.raw, !call.Markdown)
	if call.Markdown && hn.inRaw {
		// Hugo's level > 0: the inner text is read as markdown, one
		// line of it without its <p>.
		html := h.markdown(raw, false)
		if !strings.Contains(raw, "\n") {
			if t, ok := strings.CutPrefix(html, "<p>"); ok && strings.HasSuffix(t, "</p>\n") {
				html = strings.TrimSuffix(t, "</p>\n")
			}
		}
		return html
	}
	return raw
}

// rawInner is the inner text ri of the call, with the calls in it (the
// node's children) rendered in their places; omitHTML: raw HTML written
// in it is omitted, as in a page (a {{< >}} call's).
func (h *hugoCall) rawInner(ri *rawInner, omitHTML bool) string {
	call := &h.dt.call
	var b strings.Builder
	pos, end := call.InnerPos, call.InnerPos+len(call.Inner)
	i := 0
	for c := h.n.FirstChild(); c != nil && i < len(ri.spans); c = c.NextSibling() {
		sp := ri.spans[i]
		i++
		b.WriteString(h.text(ri, pos, sp[0], omitHTML))
		var buf bytes.Buffer
		if err := h.r.md.Renderer().Render(&buf, h.source, c); err != nil {
			h.dt.doc.errorf(sp[0], "rendering inside %q: %v", call.Name, err)
		}
		b.Write(buf.Bytes())
		pos = sp[1]
	}
	b.WriteString(h.text(ri, pos, end, omitHTML))
	return b.String()
}

// omitted is what stands for raw HTML a page may not hold, as goldmark
// writes it.
const omitted = "<!-- raw HTML omitted -->"

// text is the inner text between from and to, raw HTML omitted when
// omitHTML.
func (h *hugoCall) text(ri *rawInner, from, to int, omitHTML bool) string {
	if from >= to {
		return ""
	}
	if !omitHTML {
		return h.literals(from, to)
	}
	var b strings.Builder
	pos := from
	for _, r := range ri.html {
		s, e := max(r[0], pos), min(r[1], to)
		if s >= e {
			continue
		}
		b.WriteString(h.literals(pos, s))
		b.WriteString(omitted)
		l, rd := h.dt.call.Delims()
		h.dt.doc.report(diag.Warning, s, "raw HTML in the inner text of %s %s %s is omitted: kakehashi lets no raw HTML through from a page, where Hugo's %s %s does",
			l, h.dt.call.Name, rd, l, rd)
		pos = e
	}
	b.WriteString(h.literals(pos, to))
	return b.String()
}

// literals is the source between from and to with each literal tag
// {{</* x */>}} shown as {{< x >}}, as Hugo shows it; another tag there
// is one the markdown read as code, which kakehashi does not call and
// Hugo does: it is shown as written, with a warning.
func (h *hugoCall) literals(from, to int) string {
	src := h.source[:to]
	var b strings.Builder
	i := from
	for {
		j := nextTag(src, i)
		if j < 0 {
			b.Write(src[i:])
			return b.String()
		}
		t, err := parseTag(src, j, to)
		if err != nil {
			b.Write(src[i : j+2])
			i = j + 2
			continue
		}
		b.Write(src[i:j])
		if t.literal {
			b.WriteString(t.text)
		} else {
			b.Write(src[j:t.end])
			l, r := delims(t.markdown)
			slash := ""
			if t.closing {
				slash = "/"
			}
			h.dt.doc.report(diag.Warning, j, "shortcode %s %s%s %s in code is shown as written: kakehashi expands no shortcode in code, where Hugo expands it; write %s/* %s%s */%s to show it in Hugo too",
				l, slash, t.name, r, l, slash, t.name, r)
		}
		i = t.end
	}
}

// output is what the call's template wrote, where it goes: a {{% %}}
// call's read as markdown, but inside another template's inner text.
func (h *hugoCall) output(out string) string {
	call := &h.dt.call
	hn := h.node()
	_, inline := h.n.(*Inline)
	switch {
	case hn.inRaw:
		return out
	case !call.Markdown && (!inline || hn.alone):
		// As Hugo's placeholder in a paragraph of its own, <p>X</p>
		// less its tags.
		return out + "\n"
	case !call.Markdown:
		return out
	}
	html, root := h.render(out, false)
	if inline && !hn.alone {
		html = trimShortHTML(html)
	}
	l, r := call.Delims()
	if strings.Contains(html, omitted) {
		h.warn("the output of %s %s %s holds raw HTML, which its markdown omits, as Hugo's does: call it {{< %s >}} for its HTML", l, call.Name, r, call.Name)
	}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if hg, ok := n.(*ast.Heading); ok && entering && hg.Level >= 2 && hg.Level <= 4 {
			h.warn("a heading in the output of %s %s %s is no part of the page's table of contents, where Hugo's is", l, call.Name, r)
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return html
}

// markdown renders src as markdown for the page, as its body is: links
// checked, shortcodes called when calls (markdownify's string; a
// template's output and an inner text with its calls rendered are read
// without), diagnostics at the call.
func (h *hugoCall) markdown(src string, calls bool) string {
	html, _ := h.render(src, calls)
	return html
}

// render is markdown, with the document it parsed.
func (h *hugoCall) render(src string, calls bool) (string, ast.Node) {
	d := h.dt.doc
	hd := d.hugoState()
	at := h.dt.call.Pos
	if hd.depth >= MaxNesting {
		d.errorf(at, "shortcode %q: markdown rendered inside markdown more than %d deep", h.dt.call.Name, MaxNesting)
		return template.HTMLEscapeString(src), ast.NewDocument()
	}
	env, pc := d.env.Sub(at)
	sd := &doc{lang: d.lang, t: d.t, parts: d.parts, ids: d.ids, needed: d.needed, env: env,
		seriesParts: d.seriesParts, seriesIDs: d.seriesIDs,
		report: func(sev diag.Severity, _ int, format string, args ...any) { d.report(sev, at, format, args...) }}
	page, site := h.page()
	sd.hugo = &hugoDoc{nodes: map[*data]*hugoNode{}, noCalls: !calls, depth: hd.depth + 1, page: page, site: site}
	pc.Set(docKey, sd)
	b := []byte(src)
	root := h.r.md.Parser().Parse(text.NewReader(b), parser.WithContext(pc))
	var buf bytes.Buffer
	if err := h.r.md.Renderer().Render(&buf, b, root); err != nil {
		d.errorf(at, "shortcode %q: %v", h.dt.call.Name, err)
	}
	return buf.String(), root
}

// run runs a site template for the call in c, as Hugo runs a shortcode
// template (exec: with its context and functions), and writes what it
// gives, where it goes, to w.
func (h *hugoCall) run(w *bytes.Buffer, c *Context, exec func(*bytes.Buffer, *TemplateData, templateFuncs) error) error {
	td := *h.context(h.dt)
	td.Inner = template.HTML(h.inner()) // as written, rendered calls in it: Hugo's .Inner
	var out bytes.Buffer
	if err := exec(&out, &td, templateFuncs{h: h, c: c}); err != nil {
		return err
	}
	w.WriteString(h.output(out.String()))
	return nil
}

var _ fmt.Stringer = Position{}
