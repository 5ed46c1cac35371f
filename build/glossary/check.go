package glossary

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/spf13/afero"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"go.yaml.in/yaml/v3"
)

// Code is the kind of the check's diagnostics (check.Code).
const Code = "glossary"

// Page is one source file as the check reads it.
type Page struct {
	Path string
	Src  []byte
	// BodyStart is where the markdown begins in Src; the text before it
	// (front matter) is checked only in Fields.
	BodyStart int
	// NoBody: Src holds no markdown (a series file); only Fields are read.
	NoBody bool
	Lang   string
	// Original is the language of the page this one translates; "" for
	// an original.
	Original string
	// Fields are the byte offsets in Src of front matter values a reader
	// sees (a title, a description, a tag), each read to the end of its
	// line.
	Fields []int
}

// span is a run of reader text: its offset in the page's Src.
type span struct {
	off  int
	text string
}

// CheckSite loads the glossary of the site st under contentRoot (in
// fsys) and checks every page with a source file, and every series file,
// against it. A malformed glossary gives its errors; a site without one,
// nothing.
func CheckSite(ctx context.Context, fsys afero.Fs, contentRoot string, st *site.Site) diag.List {
	g, diags := Load(ctx, fsys, Path(contentRoot), st.Langs)
	if g == nil {
		return diags
	}
	return append(diags, g.Check(SitePages(st))...)
}

// SitePages lists the source files of the site st as the check reads
// them: each page's body, title, description, summary and tags, and each
// series file's text in each language.
func SitePages(st *site.Site) []Page {
	var pages []Page
	for _, sp := range st.Pages {
		src := sp.Source
		if src == nil || sp.Kind == site.KindUntranslated {
			continue
		}
		p := Page{Path: src.Path, Src: src.Src, BodyStart: src.BodyStart, Lang: sp.Lang}
		if o := st.Original(sp); o != nil && o != sp {
			p.Original = o.Lang
		}
		for _, f := range []string{"title", "description", "summary"} {
			if pos, ok := src.Meta.Pos[f]; ok {
				p.Fields = append(p.Fields, pos.Off)
			}
		}
		p.Fields = append(p.Fields, src.Meta.Pos["tags"].Items...)
		pages = append(pages, p)
	}
	for _, sr := range st.Series {
		pages = append(pages, seriesPages(sr.Path, sr.Src, st.Langs)...)
	}
	return pages
}

// seriesPages gives a series file's texts, one Page per language: every
// value of a mapping key that is one of the site's languages.
func seriesPages(p string, src []byte, langs []string) []Page {
	var root yaml.Node
	if yaml.Unmarshal(src, &root) != nil {
		return nil
	}
	by := map[string]*Page{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if v.Kind == yaml.ScalarNode && slices.Contains(langs, k.Value) {
					pg := by[k.Value]
					if pg == nil {
						pg = &Page{Path: p, Src: src, NoBody: true, Lang: k.Value}
						by[k.Value] = pg
					}
					pg.Fields = append(pg.Fields, diag.Offset(src, v.Line, v.Column))
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
	var out []Page
	for _, l := range langs {
		if pg := by[l]; pg != nil {
			out = append(out, *pg)
		}
	}
	return out
}

// Check reports, as warnings at the place of each, a forbidden variant
// (Entry.Avoid) of the page's language, and, in a translation, the
// original's term where the glossary gives the translation's its own.
// It reads the reader's text alone: not code (fenced, indented, spans),
// raw HTML, links' URLs and autolinks, shortcode calls, nor front matter
// but its Fields.
func (g *Glossary) Check(pages []Page) diag.List {
	var out diag.List
	type at struct {
		path      string
		line, col int
	}
	seen := map[at]bool{} // fields read to their line's end overlap
	for _, p := range pages {
		x := diag.NewIndex(p.Src)
		for _, s := range Spans(p) {
			for _, e := range g.Entries {
				for _, d := range e.check(p, s, x) {
					if k := (at{d.Path, d.Line, d.Col}); !seen[k] {
						seen[k] = true
						out = append(out, d)
					}
				}
			}
		}
	}
	return out
}

func (e *Entry) check(p Page, s span, x *diag.Index) diag.List {
	var out diag.List
	own := e.Terms[p.Lang]
	// Occurrences of the preferred term, and of a variant written in
	// brackets right after it ("컨트롤 플레인(control plane)"), are fine.
	ok := func(i, n int) bool {
		for _, j := range Find(s.text, own) {
			if i >= j && i+n <= j+len(own) {
				return true
			}
			if rest := s.text[j+len(own):]; (strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "（")) && i == j+len(own)+len(firstRune(rest)) {
				return true
			}
		}
		return false
	}
	seen := map[int]bool{}
	for _, v := range e.Avoid[p.Lang] {
		for _, i := range Find(s.text, v) {
			if own != "" && ok(i, len(v)) || seen[i] {
				continue
			}
			seen[i] = true
			var d diag.Diagnostic
			if own != "" {
				d = x.At(p.Path, s.off+i, "glossary: %q is written %q in %s (glossary entry %s)", s.text[i:i+len(v)], own, p.Lang, e.ID)
			} else {
				d = x.At(p.Path, s.off+i, "glossary: %q is not to be used in %s (glossary entry %s)", s.text[i:i+len(v)], p.Lang, e.ID)
			}
			out = append(out, d.AsWarning().WithCode(Code))
		}
	}
	orig := e.Terms[p.Original]
	if p.Original == "" || orig == "" || own == "" || fold(orig) == fold(own) {
		return out
	}
	for _, i := range Find(s.text, orig) {
		if ok(i, len(orig)) || seen[i] {
			continue
		}
		d := x.At(p.Path, s.off+i, "glossary: the original's term %q is left in this %s translation; the glossary's %s term is %q (glossary entry %s)", s.text[i:i+len(orig)], p.Lang, p.Lang, own, e.ID)
		out = append(out, d.AsWarning().WithCode(Code))
	}
	return out
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

// md parses a body as the site's markdown does, for its text's places.
var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// Spans returns the runs of the reader's text of p, each with its offset
// in p.Src: the markdown's text (not its code, raw HTML, autolinks, links'
// URLs nor its shortcode calls' {{< … >}}) and each field's line.
func Spans(p Page) []span {
	var out []span
	for _, off := range p.Fields {
		if off < 0 || off >= len(p.Src) {
			continue
		}
		end := bytes.IndexByte(p.Src[off:], '\n')
		if end < 0 {
			end = len(p.Src) - off
		}
		out = append(out, span{off, string(p.Src[off : off+end])})
	}
	if p.NoBody {
		return out
	}
	body := p.Src[p.BodyStart:]
	doc := md.Parser().Parse(text.NewReader(body))
	calls := shortcodeCalls(body)
	var cur *span // the run being gathered: contiguous text nodes
	flush := func() {
		if cur != nil {
			out = append(out, cut(*cur, calls, p.BodyStart)...)
			cur = nil
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() != ast.TypeInline {
				flush()
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML, *ast.AutoLink:
			flush()
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			seg := n.Segment
			t := string(seg.Value(body))
			if cur != nil && cur.off+len(cur.text) == p.BodyStart+seg.Start {
				cur.text += t
			} else {
				flush()
				cur = &span{p.BodyStart + seg.Start, t}
			}
			if n.SoftLineBreak() || n.HardLineBreak() {
				flush()
			}
		default:
			if n.Type() != ast.TypeInline {
				flush()
			}
		}
		return ast.WalkContinue, nil
	})
	flush()
	return out
}

// shortcodeCalls finds the {{< … >}} and {{% … %}} of body, as byte
// ranges.
func shortcodeCalls(body []byte) [][2]int {
	var out [][2]int
	for i := 0; i+3 <= len(body); {
		j := bytes.Index(body[i:], []byte("{{"))
		if j < 0 || i+j+2 >= len(body) {
			break
		}
		start := i + j
		d := body[start+2]
		var closer []byte
		switch d {
		case '<':
			closer = []byte(">}}")
		case '%':
			closer = []byte("%}}")
		default:
			i = start + 2
			continue
		}
		k := bytes.Index(body[start+3:], closer)
		if k < 0 {
			break
		}
		end := start + 3 + k + len(closer)
		out = append(out, [2]int{start, end})
		i = end
	}
	return out
}

// cut removes the shortcode calls (ranges of the body, which begins at
// base in the page) from s.
func cut(s span, calls [][2]int, base int) []span {
	var out []span
	for _, c := range calls {
		cs, ce := c[0]+base, c[1]+base
		if ce <= s.off || cs >= s.off+len(s.text) {
			continue
		}
		if cs > s.off {
			out = append(out, span{s.off, s.text[:cs-s.off]})
		}
		if ce >= s.off+len(s.text) {
			return out
		}
		s = span{ce, s.text[ce-s.off:]}
	}
	return append(out, s)
}

// SiteEntries is the glossary as the site's pages show it (site.Options):
// nil for no glossary.
func (g *Glossary) SiteEntries() []site.GlossaryEntry {
	if g == nil {
		return nil
	}
	out := make([]site.GlossaryEntry, len(g.Entries))
	for i, e := range g.Entries {
		out[i] = site.GlossaryEntry{ID: e.ID, Terms: e.Terms, Definition: e.Definition}
	}
	return out
}
