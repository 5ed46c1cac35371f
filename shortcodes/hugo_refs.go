package shortcodes

import (
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Hugo's ref, relref and param, whose content comes from the page's
// environment: the markdown stage has each call resolve it
// (markdown.Resolver), and it stands in the call's place, as text.
//
// ref and relref name a page by its file, as a markdown link does:
// relative to the page, or from its language's content folder with a
// leading "/" ({{< ref "/cka/05-ha-cluster.md" >}}); without ".md" as
// Hugo takes it too ("cka/05-ha-cluster", a bundle's index.md, a
// section's _index.md); lang names the page's translation in that
// language. A page that is not there is an error at the call. Both give
// the link relative to the page, which works under any base URL and from
// file://, where Hugo's ref gives the absolute permalink. A call that
// is a link's destination, [text]({{< ref "p.md" >}}), makes that link a
// link to the page, checked as the body's links are.
//
// param is the page's front matter param of that name, else the site's
// (markdown.Env.Param); one that neither has is an error at the call.

// hugoRefs returns ref, relref and param.
func hugoRefs() []*Shortcode {
	ref := func(name string) *Shortcode {
		return &Shortcode{
			Name: name,
			Args: []ArgSpec{
				{Name: "path", Type: HugoString, Required: true, Position: 1},
				{Name: "lang", Type: HugoString},
				{Name: "outputFormat", Type: HugoString, OneOf: []string{"html"}},
			},
			Render: func(io.Writer, *Context) error { return nil }, // resolved in its place
		}
	}
	return []*Shortcode{ref("ref"), ref("relref"), {
		Name:   "param",
		Args:   []ArgSpec{{Name: "name", Type: HugoString, Required: true, Position: 1}},
		Render: func(io.Writer, *Context) error { return nil },
	}}
}

var (
	_ markdown.Resolver = (*Inline)(nil)
	_ markdown.Resolver = (*Block)(nil)
)

// Resolve implements markdown.Resolver for the built-in ref, relref and
// param: the call gives its place to their text, or, as a link's
// destination, to the link.
func (n *Inline) Resolve(e *markdown.Env, src []byte) {
	if t, ok := n.resolved(e); ok {
		if n.inRawInner() && n.Parent() != nil {
			n.Parent().ReplaceChild(n.Parent(), n, rawText(t.text)) // text in a site template's inner text
			return
		}
		if n.call.Name != "param" && refLink(n, t.dest, src) {
			return
		}
		n.refAsText(e, t.text, src)
		if n.Parent() != nil {
			n.Parent().ReplaceChild(n.Parent(), n, rawText(t.text))
		}
	}
}

// Resolve implements markdown.Resolver; a call alone on its line is a
// paragraph of its text.
func (n *Block) Resolve(e *markdown.Env, src []byte) {
	if t, ok := n.resolved(e); ok && n.Parent() != nil {
		if n.inRawInner() {
			n.Parent().ReplaceChild(n.Parent(), n, rawText(t.text)) // text in a site template's inner text
			return
		}
		n.refAsText(e, t.text, src)
		p := ast.NewParagraph()
		p.AppendChild(p, rawText(t.text))
		n.Parent().ReplaceChild(n.Parent(), n, p)
	}
}

// refAsText warns that the call of ref or relref, which stands as text
// (not as a link's destination), shows the reader the page's URL as
// kakehashi writes it, href, which is not Hugo's; src is the body.
func (d *data) refAsText(e *markdown.Env, href string, src []byte) {
	if d.call.Name == "param" || href == "" {
		return
	}
	hugo := "its permalink (https://…)"
	if d.call.Name == "relref" {
		hugo = "its path from the site's root (/…)"
	}
	tag := d.call.Name
	if d.call.Pos >= 0 && d.call.TagEnd <= len(src) {
		tag = string(src[d.call.Pos:d.call.TagEnd])
	}
	p, _ := d.args["path"].(string)
	e.Report(diag.Warning, d.call.Pos, "%s %q stands as text, %s: kakehashi writes the page's URL relative to this page, where Hugo's %s writes %s; as a link's destination, [text](%s), it links to the page in both",
		d.call.Name, p, href, d.call.Name, hugo, tag)
}

// rawText is a text node of s, escaped as it is written.
func rawText(s string) *ast.String {
	t := ast.NewString([]byte(s))
	t.SetRaw(true)
	return t
}

// resolution is what a call of ref, relref or param stands for: its
// text; a ref's, the destination its page has as a markdown link's.
type resolution struct{ text, dest string }

// resolved resolves a call of the built-in ref, relref or param, whose
// arguments were good, reporting a problem at the call; ok=false for
// any other call, and for one that failed (its place is then empty).
func (d *data) resolved(e *markdown.Env) (resolution, bool) {
	if d.spec == nil || d.spec.Source != "" || d.invalid || d.flat {
		return resolution{}, false
	}
	switch d.call.Name {
	case "ref", "relref":
		p, _ := d.args["path"].(string)
		lang, _ := d.args["lang"].(string)
		return d.ref(e, p, lang)
	case "param":
		key, _ := d.args["name"].(string)
		if e.Param != nil {
			if v, ok := e.Param(key); ok {
				return resolution{text: paramText(v)}, true
			}
		}
		e.Report(diag.Error, d.call.Pos, "param %q: neither the page's front matter params nor the site's [params] have it", key)
		return resolution{}, true
	}
	return resolution{}, false
}

// ref resolves the page a call of ref or relref names, written p, in
// language lang ("" for the page's).
func (d *data) ref(e *markdown.Env, p, lang string) (resolution, bool) {
	dest := refDest(e, p, lang)
	if e.Link == nil {
		return resolution{text: p, dest: dest}, true
	}
	// As Hugo, a path without ".md" may name a page's file, a bundle's
	// index.md or a section's _index.md.
	tries := []string{dest}
	file, frag, _ := strings.Cut(dest, "#")
	if frag != "" {
		frag = "#" + frag
	}
	if path.Ext(file) == "" && !strings.Contains(file, "://") {
		f := strings.TrimSuffix(file, "/")
		tries = []string{f + ".md" + frag, f + "/index.md" + frag, f + "/_index.md" + frag, dest}
	}
	var first markdown.LinkTarget
	for i, try := range tries {
		t := e.Link(try)
		if i == 0 {
			first = t
		}
		if t.Problem == "" {
			href := t.Href
			if href == "" {
				href = try
			}
			return resolution{text: href, dest: try}, true
		}
	}
	e.Report(diag.Error, d.call.Pos, "%s %q: %s", d.call.Name, p, first.Problem)
	return resolution{}, true
}

// refDest is the destination, as a markdown link of the page writes it,
// of the page a ref names p in language lang: a path from the content
// folder of the page's language ("/cka/a.md") becomes one from the site's
// folder ("/content/ja/cka/a.md"), and another language's is its
// translation's.
func refDest(e *markdown.Env, p, lang string) string {
	if strings.Contains(p, "://") || strings.HasPrefix(p, "#") {
		return p
	}
	page := e.Path()
	dirs := strings.Split(path.Dir(page), "/")
	at := -1 // the page's language folder, among its path's folders
	for i, s := range dirs {
		if s == e.Lang {
			at = i
			break
		}
	}
	if at < 0 {
		return p
	}
	root := strings.Join(dirs[:at], "/")
	if lang == "" {
		lang = e.Lang
	}
	if strings.HasPrefix(p, "/") {
		return "/" + path.Join(root, lang, p)
	}
	if lang == e.Lang {
		return p
	}
	// Another language's: the translation's file, from the site's folder.
	return "/" + path.Join(root, lang, path.Join(dirs[at+1:]...), p)
}

// paramText prints a parameter's value as Hugo's param does.
func paramText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// refLink makes the link whose destination the call n is,
// [text]({{< ref "p.md" >}}), a link to dest, the page the call names,
// in n's place and the label's: it reports whether n is one.
func refLink(n *Inline, dest string, src []byte) bool {
	start, end := n.call.Pos, n.call.End
	if start < 2 || end >= len(src) || string(src[start-2:start]) != "](" || src[end] != ')' {
		return false
	}
	before, ok := n.PreviousSibling().(*ast.Text)
	after, ok2 := n.NextSibling().(*ast.Text)
	if !ok || !ok2 || before.Segment.Stop != start || after.Segment.Start != end {
		return false
	}
	// The label's '[': the nearest one not closed, in the text before.
	var open *ast.Text
	at, depth := -1, 0
	for s := ast.Node(before); s != nil && open == nil; s = s.PreviousSibling() {
		t, isText := s.(*ast.Text)
		if !isText {
			continue
		}
		stop := t.Segment.Stop
		if t == before {
			stop -= 2 // its "]("
		}
		for i := stop - 1; i >= t.Segment.Start; i-- {
			if i > 0 && src[i-1] == '\\' {
				continue
			}
			switch src[i] {
			case ']':
				depth++
			case '[':
				if depth == 0 {
					open, at = t, i
				}
				depth--
			}
			if open != nil {
				break
			}
		}
	}
	if open == nil {
		return false
	}
	parent := n.Parent()
	link := ast.NewLink()
	link.Destination = []byte(dest)
	// The label is what lies between the '[' and the "](".
	label := text.NewSegment(at+1, open.Segment.Stop)
	if open == before {
		label.Stop = start - 2
	}
	if !label.IsEmpty() {
		link.AppendChild(link, ast.NewTextSegment(label))
	}
	if open != before {
		for s := open.NextSibling(); s != nil && s != ast.Node(before); {
			next := s.NextSibling()
			link.AppendChild(link, s) // moves s
			s = next
		}
		if seg := text.NewSegment(before.Segment.Start, start-2); !seg.IsEmpty() {
			link.AppendChild(link, ast.NewTextSegment(seg))
		}
		parent.RemoveChild(parent, before)
	}
	open.Segment = open.Segment.WithStop(at)
	parent.InsertAfter(parent, open, link)
	if open.Segment.IsEmpty() {
		parent.RemoveChild(parent, open)
	}
	after.Segment = after.Segment.WithStart(end + 1)
	if after.Segment.IsEmpty() {
		parent.RemoveChild(parent, after)
	}
	parent.RemoveChild(parent, n)
	return true
}
