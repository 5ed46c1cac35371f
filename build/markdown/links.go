package markdown

import (
	"bytes"
	"github.com/cespare/xxhash/v2"
	"html"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// LinkTarget is what Env.Link makes of a link's destination.
type LinkTarget struct {
	// Href is the destination the HTML gets; "" keeps the one written.
	Href string
	// Path is the site-absolute path of the page or file the link names
	// ("/ja/cka/02-control-plane/"), before the base URL; "" for a link
	// that is not checked (another site's) or names nothing.
	Path string
	// Fragment is the link's fragment, without its '#' and unescaped;
	// "" for none.
	Fragment string
	// Self: the link names the document's own page, whose ids its
	// fragment must name (checked once the page is rendered).
	Self bool
	// Problem, when not empty, is reported at the link with Severity.
	Problem  string
	Severity diag.Severity
}

// Link is an internal link of a document (Result.Links): one that
// Env.Link resolved to a page or a file of the site.
type Link struct {
	Dest     string // the destination as written
	Path     string // site-absolute path of the page or file it names
	Fragment string // without '#', unescaped; "" for none
	// At is the position of the link's '[' in the file (for a reference
	// link, that of its use, not of its definition): Path, Line, Col (in
	// characters) and Source are set, the rest is the reporter's to fill
	// in (Msg, Severity).
	At diag.Diagnostic
}

// BlockKind tells the kinds of Block apart.
type BlockKind int

// Kinds of Block.
const (
	BlockHeading BlockKind = iota
	BlockCode
)

// Block is one heading or code block of a document, in document order
// (Result.Outline): what a page and its translations should share.
type Block struct {
	Kind BlockKind
	// Level, ID and Text are a heading's (every level, h1–h6).
	Level int
	ID    string
	Text  string
	// Info and CodeSum are a code block's: the fence's info string as
	// written ("" for indented code) and the CodeSum of its code: what a
	// translation's block is compared by, without the code held.
	Info    string
	CodeSum uint64
	// Line and Col are the block's position in the file: its heading
	// marker or opening fence; Col counts characters.
	Line, Col int
}

// pendingLink is a link Env.Link resolved, at byte offset off of the
// body, kept until the page's ids are known.
type pendingLink struct {
	LinkTarget
	dest string
	off  int
}

// links is the extension that offers every link's destination to
// Env.Link, which may rewrite it and report a problem; without Env.Link
// links stay as written. Links in code are not links, and are not seen.
type links struct{}

var _ goldmark.Extender = links{}

// Extend implements goldmark.Extender.
func (links) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(linkTransformer{}, PriorityLinkTransformer)))
}

// linkTransformer resolves the links in document order.
type linkTransformer struct{}

var _ parser.ASTTransformer = linkTransformer{}

// Transform implements parser.ASTTransformer.
func (linkTransformer) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	if env == nil || env.Link == nil || env.st == nil {
		return
	}
	st := env.st
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			dest := string(n.Destination)
			t := env.Link(dest)
			if t.Href != "" {
				n.Destination = []byte(t.Href)
			}
			off := env.offset(nodeOffset(n)) // where a Sub source came from
			if t.Problem != "" {
				env.Report(t.Severity, off, "%s", t.Problem)
			}
			if t.Path != "" || t.Self {
				st.links = append(st.links, pendingLink{LinkTarget: t, dest: dest, off: off})
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// nodeOffset is the byte offset of n in the body: its own position (a
// link's '['), else that of its first text, else its parent's.
func nodeOffset(n ast.Node) int {
	for m := n; m != nil; m = m.Parent() {
		if p := m.Pos(); p >= 0 {
			return p
		}
		if t, ok := m.FirstChild().(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	return 0
}

// finishLinks checks the fragments of the links to the page itself
// against its ids, reporting a warning for each that names none, and
// returns the document's internal links with their positions.
func finishLinks(e *Env, ids []string) []Link {
	st := e.st
	if len(st.links) == 0 {
		return nil
	}
	out := make([]Link, 0, len(st.links))
	pos := newPositions(st.full)
	for _, l := range st.links {
		if l.Self && l.Fragment != "" && l.Fragment != "top" && !slices.Contains(ids, l.Fragment) {
			msg := "link to %q: this page has no section %q"
			if near := diag.Suggest(l.Fragment, ids); near != "" {
				e.Report(diag.Warning, l.off, msg+"; did you mean %q?", l.dest, l.Fragment, near)
			} else {
				e.Report(diag.Warning, l.off, msg, l.dest, l.Fragment)
			}
		}
		if l.Path == "" {
			continue
		}
		at := diag.Diagnostic{Path: st.path}
		var start, end int
		at.Line, at.Col, start, end = pos.at(st.bodyStart + l.off)
		at.Source = string(bytes.TrimSuffix(st.full[start:end], []byte("\r")))
		out = append(out, Link{Dest: l.dest, Path: l.Path, Fragment: l.Fragment, At: at})
	}
	return out
}

// positions turns byte offsets of one source into lines and columns,
// counting on from the last offset asked for: cheap for offsets in
// document order.
type positions struct {
	src         []byte
	off         int // the last offset asked for
	line, start int // its line, and the offset where that line starts
}

func newPositions(src []byte) *positions { return &positions{src: src, line: 1} }

// at returns the 1-based line and character column of offset off, and the
// bounds of its line (without the newline).
func (p *positions) at(off int) (line, col, start, end int) {
	off = min(max(off, 0), len(p.src))
	if off < p.off {
		p.off, p.line, p.start = 0, 1, 0
	}
	for {
		i := bytes.IndexByte(p.src[p.off:off], '\n')
		if i < 0 {
			break
		}
		p.line++
		p.off += i + 1
		p.start = p.off
	}
	p.off = off
	end = len(p.src)
	if i := bytes.IndexByte(p.src[off:], '\n'); i >= 0 {
		end = off + i
	}
	return p.line, utf8.RuneCount(p.src[p.start:off]) + 1, p.start, end
}

// HTMLIDs lists the ids that the elements of an HTML text define, in
// order: the values of its id="…" attributes, unescaped. It reads HTML
// that an HTML writer escaped (the renderer's, html/template's), where
// ` id="` occurs only as an attribute.
func HTMLIDs(h []byte) []string {
	var ids []string
	marker := []byte(` id="`)
	for i := 0; ; {
		j := bytes.Index(h[i:], marker)
		if j < 0 {
			return ids
		}
		s := i + j + len(marker)
		k := bytes.IndexByte(h[s:], '"')
		if k < 0 {
			return ids
		}
		v := h[s : s+k]
		if bytes.IndexByte(v, '&') >= 0 {
			ids = append(ids, html.UnescapeString(string(v)))
		} else {
			ids = append(ids, string(v))
		}
		i = s + k + 1
	}
}

// UnescapeFragment is a link's fragment as an id: percent-decoded when it
// is percent-encoded (and valid), else as written.
func UnescapeFragment(frag string) string {
	if f, err := url.PathUnescape(frag); err == nil {
		return f
	}
	return frag
}

// outline lists the headings and code blocks of the document, in order.
func outline(root ast.Node, e *Env) []Block {
	st := e.st
	var out []Block
	pos := newPositions(st.full)
	at := func(n ast.Node) (int, int) {
		l, c, _, _ := pos.at(st.bodyStart + nodeOffset(n))
		return l, c
	}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			b := Block{Kind: BlockHeading, Level: n.Level, Text: inlineText(n, st.body)}
			b.ID, _ = explicitID(n)
			b.Line, b.Col = at(n)
			out = append(out, b)
			return ast.WalkSkipChildren, nil
		case *CodeFigure:
			b := Block{Kind: BlockCode, Info: n.Info, CodeSum: CodeSum(n.Code)}
			b.Line, b.Col = at(n)
			out = append(out, b)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// CodeSum is a 64-bit hash of a code block's CodeLines: two blocks the
// same but for their comments, trailing whitespace and empty lines (a
// translation translates the comments) have the same sum.
func CodeSum(code string) uint64 {
	h := xxhash.New()
	for _, line := range CodeLines(code) {
		h.WriteString(line)
		h.WriteString("\n")
	}
	return h.Sum64()
}

// CodeLines are the lines of code without their comments and trailing
// whitespace, empty lines dropped.
func CodeLines(code string) []string {
	var out []string
	for line := range strings.SplitSeq(code, "\n") {
		line = strings.TrimRight(stripComment(line), " \t\r")
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// stripComment cuts line at the comment it holds: "#" or "//" at the
// start of the line (after indentation) or after a space or tab.
func stripComment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] != '#' && !(line[i] == '/' && i+1 < len(line) && line[i+1] == '/') {
			continue
		}
		if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' {
			return line[:i]
		}
	}
	return line
}
