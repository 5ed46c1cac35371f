package hugoimport

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gtext "github.com/yuin/goldmark/text"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// refRe matches a ref or relref shortcode's path: positional or named,
// in double quotes or backquotes.
var refRe = regexp.MustCompile("\\{\\{[<%]-?\\s*(ref|relref)\\s+(?:path\\s*=\\s*)?(\"[^\"\\n]*\"|`[^`]*`)")

// logical is a page's path as Hugo's ref and GetPage name it, without
// its language and extension: "cka/intro", a bundle's folder, a
// section's folder ("" for the home), in lower case.
func logical(p *hpage) string {
	if p.branch {
		return strings.ToLower(p.dir)
	}
	return strings.ToLower(path.Join(p.dir, p.name))
}

// byLogical indexes the imported groups by their pages' logical paths.
func (cv *converter) byLogical() map[string]*group {
	if cv.logical != nil {
		return cv.logical
	}
	cv.logical = map[string]*group{}
	for _, g := range cv.set.groups {
		for _, p := range g.pages {
			cv.logical[logical(p)] = g
		}
	}
	return cv.logical
}

// resolve finds the page a ref or a link of the page p names, as Hugo
// does: relative to the page's folder (a bundle's, or the one holding
// it), else from the content folder's root, else by a base name only
// one page has. It returns the target's group and the fragment
// ("#section") the reference ends with.
func (cv *converter) resolve(p *hpage, target string) (*group, string) {
	target, frag, _ := strings.Cut(target, "#")
	if frag != "" {
		frag = "#" + frag
	}
	t := strings.ToLower(strings.ReplaceAll(target, `\`, "/"))
	for _, ext := range markdownExts {
		t = strings.TrimSuffix(t, ext)
	}
	if i := strings.LastIndex(t, "."); i >= 0 && !strings.Contains(t[i:], "/") && cv.cfg.hasLang(t[i+1:]) {
		t = t[:i]
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "/_index"), "/index")
	if t == "_index" || t == "index" {
		t = ""
	}
	idx := cv.byLogical()
	clean := func(s string) string { return strings.Trim(path.Clean("/"+s), "/") }
	var tries []string
	if strings.HasPrefix(t, "/") {
		tries = append(tries, clean(t))
	} else {
		if p.bundle != "" {
			tries = append(tries, clean(path.Join(strings.ToLower(p.bundle), t)))
		}
		tries = append(tries, clean(path.Join(strings.ToLower(p.dir), t)), clean(t))
	}
	for _, try := range tries {
		if g := idx[try]; g != nil {
			return g, frag
		}
	}
	if t == "" || strings.Contains(t, "/") {
		return nil, frag
	}
	var found *group
	for k, g := range idx {
		if path.Base(k) == t {
			if found != nil && found != g {
				return nil, frag // ambiguous
			}
			found = g
		}
	}
	return found, frag
}

// rewriteBody is the page's body with its references to other pages
// renamed: the path of each ref and relref call (outside code) becomes
// the kakehashi page's, from the language's content folder; each link
// to a markdown file of a page becomes a link to the kakehashi page's
// file, relative to the page's. Each is reported at its place.
func (cv *converter) rewriteBody(k *kpage) []byte {
	p := k.h
	body := p.text[p.body:]
	code, links := cv.scan(body)
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	at := func(off int) (int, int) { return diag.Position(p.text, p.body+off) }
	for _, m := range refRe.FindAllSubmatchIndex(body, -1) {
		if inSpans(code, m[0]) {
			continue
		}
		name, quoted := string(body[m[2]:m[3]]), string(body[m[4]:m[5]])
		target := quoted[1 : len(quoted)-1]
		line, col := at(m[0])
		g, frag := cv.resolve(p, target)
		if g == nil || g.out == "" {
			cv.report.addAt(NotConverted, p.src, line, col, "%s %q names no page of the Hugo site the importer can find: left as it is", name, target)
			continue
		}
		to := "/" + g.out + frag
		if to == target {
			continue
		}
		edits = append(edits, edit{m[4], m[5], `"` + to + `"`})
		cv.report.addAt(Converted, p.src, line, col, "%s %q is %s %q, the kakehashi page's path", name, target, name, to)
	}
	for _, l := range links {
		dest := string(body[l.start:l.end])
		g, frag := cv.resolve(p, dest)
		line, col := at(l.start)
		if g == nil {
			cv.report.addAt(NotConverted, p.src, line, col, "the link to %q names no page of the Hugo site the importer can find: left as it is", dest)
			continue
		}
		file := g.files[p.lang]
		if file == "" {
			file = g.files[g.first(cv.cfg.codes()).lang]
		}
		to := relPath(path.Dir(k.out), file) + frag
		if to == dest {
			continue
		}
		edits = append(edits, edit{l.start, l.end, to})
		cv.report.addAt(Converted, p.src, line, col, "the link to %q is one to %q, the kakehashi page's file", dest, to)
	}
	if len(edits) == 0 {
		return body
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue
		}
		b.Write(body[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(body[last:])
	return b.Bytes()
}

// span is a byte range of a body.
type span struct{ start, end int }

// inSpans tells whether off is in one of the spans.
func inSpans(spans []span, off int) bool {
	for _, s := range spans {
		if s.start <= off && off < s.end {
			return true
		}
	}
	return false
}

// scan parses a body as markdown and returns where its code is (blocks
// and spans, in which nothing is rewritten) and the destinations of its
// links to markdown files.
func (cv *converter) scan(body []byte) (code, links []span) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(gtext.NewReader(body))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			lines := n.Lines()
			if lines.Len() > 0 {
				start, end := lines.At(0).Start, lines.At(lines.Len()-1).Stop
				// From the line before the first (the fence) to the end.
				if i := bytes.LastIndexByte(body[:start], '\n'); i >= 0 {
					if j := bytes.LastIndexByte(body[:i], '\n'); j >= 0 {
						start = j + 1
					} else {
						start = 0
					}
				}
				code = append(code, span{start, end})
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			if c := n.FirstChild(); c != nil {
				if t, ok := c.(*ast.Text); ok {
					last := n.LastChild().(*ast.Text)
					code = append(code, span{max(0, t.Segment.Start-1), min(len(body), last.Segment.Stop+1)})
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			dest := string(n.Destination)
			if !isPageLink(dest) {
				return ast.WalkContinue, nil
			}
			if s, ok := destSpan(n, body, dest); ok {
				links = append(links, s)
			}
		}
		return ast.WalkContinue, nil
	})
	return code, links
}

// isPageLink tells whether a link's destination names a markdown file
// of the site: no scheme, a path ending in a markdown extension.
func isPageLink(dest string) bool {
	if strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") || strings.HasPrefix(dest, "#") {
		return false
	}
	p, _, _ := strings.Cut(dest, "#")
	return slices.Contains(markdownExts, path.Ext(strings.ToLower(p)))
}

// destSpan finds where a link's destination is written: after the "]("
// that follows its text.
func destSpan(n *ast.Link, body []byte, dest string) (span, bool) {
	end := -1
	for c := n.LastChild(); c != nil && end < 0; c = c.PreviousSibling() {
		if t, ok := c.(*ast.Text); ok {
			end = t.Segment.Stop
		}
	}
	if end < 0 {
		return span{}, false
	}
	i := bytes.Index(body[end:], []byte("]("))
	if i < 0 {
		return span{}, false
	}
	start := end + i + 2
	for start < len(body) && (body[start] == ' ' || body[start] == '<') {
		start++
	}
	if !bytes.HasPrefix(body[start:], []byte(dest)) {
		return span{}, false
	}
	return span{start, start + len(dest)}, true
}

// relPath is the path of the file to, relative to the folder from (both
// slash-separated from the site root).
func relPath(from, to string) string {
	f, t := strings.Split(from, "/"), strings.Split(to, "/")
	i := 0
	for i < len(f) && i < len(t)-1 && f[i] == t[i] {
		i++
	}
	var parts []string
	for range f[i:] {
		parts = append(parts, "..")
	}
	return strings.Join(append(parts, t[i:]...), "/")
}
