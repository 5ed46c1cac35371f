package markdown

import (
	"fmt"
	"html"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Priorities of this package's goldmark parts. Inline parsers and
// transformers run in ascending order; the transformer runs after
// goldmark's own (footnotes: 999) and after extensions with default
// priorities. Renderers with a lower number win.
const (
	partRefPriority     = 600
	transformerPriority = 10000
	rendererPriority    = 100
)

// kakehashi is the goldmark extension holding this package's parsers,
// transformers and renderers.
type kakehashi struct {
	hl *highlight.Highlighter
}

var _ goldmark.Extender = (*kakehashi)(nil)

// Extend adds the extension to m.
func (k *kakehashi) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithInlineParsers(util.Prioritized(partRefParser{}, partRefPriority)),
		parser.WithASTTransformers(util.Prioritized(&transformer{hl: k.hl}, transformerPriority)),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(nodeRenderer{}, rendererPriority)))
}

// partRefParser parses "#N" series references.
type partRefParser struct{}

var _ parser.InlineParser = partRefParser{}

// Trigger implements parser.InlineParser.
func (partRefParser) Trigger() []byte { return []byte{'#'} }

// Parse implements parser.InlineParser.
func (partRefParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	env := EnvFrom(pc)
	if env == nil || env.Parts == nil {
		return nil
	}
	if !refBoundary(block.PrecendingCharacter(), true) {
		return nil
	}
	line, seg := block.PeekLine()
	i := 1
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == 1 || i > 7 {
		return nil
	}
	if i < len(line) {
		if r, _ := utf8.DecodeRune(line[i:]); !refBoundary(r, false) {
			return nil
		}
	}
	n, err := strconv.Atoi(string(line[1:i]))
	if err != nil {
		return nil
	}
	link, ok := env.Parts(n)
	block.Advance(i)
	return &PartRef{N: n, Start: seg.Start, Stop: seg.Start + i, Link: link, Found: ok, Mark: env.t("planned")}
}

// refBoundary reports whether r may stand right before (before=true) or
// right after a "#N" reference. Letters and digits glue the reference to a
// word ("C#7"), except Japanese and Korean letters, which need no space
// ("#2で"); before it, '#', '&' (an entity) and '/' (a URL) do too.
func refBoundary(r rune, before bool) bool {
	if before && (r == '#' || r == '&' || r == '/') {
		return false
	}
	if unicode.IsDigit(r) {
		return false
	}
	if unicode.IsLetter(r) {
		return isJapanese(r) || unicode.Is(unicode.Hangul, r)
	}
	return true
}

// isJapanese reports whether r is written in Japanese text without spaces
// around it: Han, Hiragana, Katakana, CJK punctuation and full-width forms.
func isJapanese(r rune) bool {
	switch {
	case r >= 0x3000 && r <= 0x30FF, // CJK punctuation, Hiragana, Katakana
		r >= 0x31F0 && r <= 0x31FF, // Katakana phonetic extensions
		r >= 0xFF00 && r <= 0xFF9F, // full-width forms, half-width Katakana
		r >= 0xFFE0 && r <= 0xFFEF:
		return true
	}
	return unicode.Is(unicode.Han, r)
}

// transformer rewrites the parsed document: code blocks become figures,
// tables are wrapped, headings get IDs and self-links, "#N" references are
// checked, and soft line breaks between Japanese characters are removed.
type transformer struct {
	hl *highlight.Highlighter
}

var _ parser.ASTTransformer = (*transformer)(nil)

// Transform implements parser.ASTTransformer.
func (t *transformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	if env == nil {
		env = &Env{}
	}
	src := reader.Source()
	var (
		refs     []*PartRef
		codes    []ast.Node
		tables   []ast.Node
		headings []*ast.Heading
	)
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *PartRef:
			refs = append(refs, n)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			codes = append(codes, n)
			return ast.WalkSkipChildren, nil
		case *east.Table:
			tables = append(tables, n)
		case *ast.Heading:
			headings = append(headings, n)
		}
		return ast.WalkContinue, nil
	})
	for _, r := range refs {
		t.checkRef(r, env)
	}
	for _, c := range codes {
		if err := env.Context().Err(); err != nil {
			break
		}
		fig := t.codeFigure(c, src, env)
		c.Parent().ReplaceChild(c.Parent(), c, fig)
	}
	for _, tb := range tables {
		w := &TableWrap{}
		tb.Parent().ReplaceChild(tb.Parent(), tb, w)
		w.AppendChild(w, tb)
	}
	headingIDs(headings, src, env)
	mergeTexts(doc)
	softBreaks(doc, src)
}

// checkRef keeps r as a link or a planned mark, or turns it back into text:
// inside a link or a heading, or when the series has no such part (then
// with a warning).
func (t *transformer) checkRef(r *PartRef, env *Env) {
	for p := r.Parent(); p != nil; p = p.Parent() {
		switch p.(type) {
		case *ast.Link, *ast.AutoLink, *ast.Heading, *ast.Image:
			unwrapRef(r)
			return
		}
	}
	if !r.Found {
		env.Report(diag.Warning, r.Start, "#%d: the series has no part %d", r.N, r.N)
		unwrapRef(r)
	}
}

func unwrapRef(r *PartRef) {
	txt := ast.NewTextSegment(text.NewSegment(r.Start, r.Stop))
	r.Parent().ReplaceChild(r.Parent(), r, txt)
}

// codeFigure highlights a fenced or indented code block.
func (t *transformer) codeFigure(n ast.Node, src []byte, env *Env) *CodeFigure {
	var code strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}
	fig := &CodeFigure{Lang: "text", Copy: env.t("copy"), Copied: env.t("copied")}
	var hl []int
	if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
		info := f.Info.Segment
		fig.Lang, fig.Title, hl = parseInfo(src[info.Start:info.Stop], info.Start, lines.Len(), env)
	}
	fig.Code = strings.TrimRight(strings.ReplaceAll(code.String(), "\r\n", "\n"), "\n")
	r := t.hl.Block(highlight.Block{Lang: fig.Lang, Code: fig.Code, Title: fig.Title, Lines: hl})
	fig.HTML, fig.CopyText = r.HTML, r.CopyText
	return fig
}

// parseInfo splits a fence's info string `bash {title="x" hl_lines="2-3 5"}`
// into language, title and highlighted lines; off is the info string's
// offset in the body, nlines the block's line count. Problems are warnings.
func parseInfo(info []byte, off, nlines int, env *Env) (lang, title string, hl []int) {
	s := string(info)
	end := strings.IndexAny(s, " \t{")
	if end < 0 {
		end = len(s)
	}
	lang = s[:end]
	if lang == "" {
		lang = "text"
	}
	rest := s[end:]
	restOff := off + end
	trimmed := strings.TrimLeft(rest, " \t")
	restOff += len(rest) - len(trimmed)
	rest = strings.TrimRight(trimmed, " \t")
	if rest == "" {
		return lang, "", nil
	}
	if !strings.HasPrefix(rest, "{") || !strings.HasSuffix(rest, "}") {
		env.Report(diag.Warning, restOff, "code block: expected {key=\"value\" ...} after the language, found %q", rest)
		return lang, "", nil
	}
	attrs, ok := parseAttrs(rest[1:len(rest)-1], restOff+1, env)
	if !ok {
		return lang, "", nil
	}
	seen := map[int]bool{}
	for _, a := range attrs {
		switch a.key {
		case "title":
			title = a.val
		case "hl_lines":
			for _, l := range parseLines(a, nlines, env) {
				if !seen[l] {
					seen[l] = true
					hl = append(hl, l)
				}
			}
		default:
			env.Report(diag.Warning, a.off, "code block: unknown attribute %q (want title or hl_lines)", a.key)
		}
	}
	sort.Ints(hl)
	return lang, title, hl
}

// attr is one key="value" of a fence's info string.
type attr struct {
	key, val string
	off      int // of the key
	valOff   int // of the value's first character
}

// parseAttrs parses `key="value" key=value ...`; off is the offset of s.
func parseAttrs(s string, off int, env *Env) ([]attr, bool) {
	var out []attr
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
			i++
		}
		if i >= len(s) {
			return out, true
		}
		k := i
		for i < len(s) && (s[i] == '_' || s[i] == '-' || s[i] < utf8.RuneSelf && (unicode.IsLetter(rune(s[i])) || unicode.IsDigit(rune(s[i])))) {
			i++
		}
		if i == k || i >= len(s) || s[i] != '=' {
			env.Report(diag.Warning, off+k, "code block: expected key=\"value\" in the attributes")
			return out, false
		}
		a := attr{key: s[k:i], off: off + k}
		i++
		if i < len(s) && s[i] == '"' {
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				env.Report(diag.Warning, off+i, "code block: unterminated quoted value for %q", a.key)
				return out, false
			}
			a.val, a.valOff = s[i+1:i+1+j], off+i+1
			i += j + 2
		} else {
			j := i
			for i < len(s) && s[i] != ' ' && s[i] != '\t' {
				i++
			}
			a.val, a.valOff = s[j:i], off+j
		}
		out = append(out, a)
	}
}

// parseLines parses hl_lines: single numbers and ranges ("2-3"), separated
// by spaces or commas, each within 1..nlines.
func parseLines(a attr, nlines int, env *Env) []int {
	var out []int
	v := a.val
	i := 0
	for i < len(v) {
		if v[i] == ' ' || v[i] == ',' {
			i++
			continue
		}
		j := i
		for j < len(v) && v[j] != ' ' && v[j] != ',' {
			j++
		}
		item, at := v[i:j], a.valOff+i
		i = j
		lo, hi, ok := parseRange(item)
		if !ok {
			env.Report(diag.Warning, at, "code block: hl_lines: bad line or range %q", item)
			continue
		}
		if hi > nlines {
			env.Report(diag.Warning, at, "code block: hl_lines: %q is past the end of the block (%d lines)", item, nlines)
			hi = nlines
		}
		for l := lo; l <= hi; l++ {
			out = append(out, l)
		}
	}
	return out
}

func parseRange(s string) (lo, hi int, ok bool) {
	a, b, isRange := strings.Cut(s, "-")
	lo, err := strconv.Atoi(a)
	if err != nil || lo < 1 || len(a) > 6 {
		return 0, 0, false
	}
	if !isRange {
		return lo, lo, true
	}
	hi, err = strconv.Atoi(b)
	if err != nil || hi < lo || len(b) > 6 {
		return 0, 0, false
	}
	return lo, hi, true
}

// headingIDs gives every heading an ID (an explicit {#id} wins, the others
// are made unique with -1, -2 suffixes) and h2–h4 a trailing self-link.
func headingIDs(hs []*ast.Heading, src []byte, env *Env) {
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

// mergeTexts joins adjacent text nodes that are contiguous in the source
// (goldmark splits text where an inline parser was tried, and "#" in
// "&#50;" is such a place), so entities and soft breaks see whole words.
func mergeTexts(doc ast.Node) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		for c := n.FirstChild(); c != nil; {
			t, ok := c.(*ast.Text)
			next, ok2 := c.NextSibling().(*ast.Text)
			if !ok || !ok2 || t.SoftLineBreak() || t.HardLineBreak() || t.IsRaw() || next.IsRaw() ||
				t.Segment.Stop != next.Segment.Start || t.Segment.Padding != 0 || next.Segment.Padding != 0 {
				c = c.NextSibling()
				continue
			}
			t.Segment = t.Segment.WithStop(next.Segment.Stop)
			t.SetSoftLineBreak(next.SoftLineBreak())
			t.SetHardLineBreak(next.HardLineBreak())
			n.RemoveChild(n, next)
		}
		return ast.WalkContinue, nil
	})
}

// softBreaks removes the soft line break between two Japanese characters;
// every other soft break (Korean, Latin, mixed) stays a newline.
func softBreaks(doc ast.Node, src []byte) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*ast.Text)
		if !entering || !ok || !t.SoftLineBreak() {
			return ast.WalkContinue, nil
		}
		v := t.Value(src)
		if len(v) == 0 {
			return ast.WalkContinue, nil
		}
		last, _ := utf8.DecodeLastRune(v)
		next, ok := nextRune(t, src)
		if ok && isJapanese(last) && isJapanese(next) {
			t.SetSoftLineBreak(false)
		}
		return ast.WalkContinue, nil
	})
}

// nextRune returns the first character of the inline text that follows n
// within its block.
func nextRune(n ast.Node, src []byte) (rune, bool) {
	cur := n
	for cur.NextSibling() == nil {
		cur = cur.Parent()
		if cur == nil || cur.Type() != ast.TypeInline {
			return 0, false
		}
	}
	cur = cur.NextSibling()
	for {
		switch c := cur.(type) {
		case *ast.Text:
			v := c.Value(src)
			if len(v) == 0 {
				return 0, false
			}
			r, _ := utf8.DecodeRune(v)
			return r, true
		case *ast.String:
			if len(c.Value) == 0 {
				return 0, false
			}
			r, _ := utf8.DecodeRune(c.Value)
			return r, true
		case *PartRef:
			return '#', true
		}
		if cur.FirstChild() == nil {
			return 0, false
		}
		cur = cur.FirstChild()
	}
}

// nodeRenderer renders this package's nodes.
type nodeRenderer struct{}

var _ renderer.NodeRenderer = nodeRenderer{}

// RegisterFuncs implements renderer.NodeRenderer.
func (nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindPartRef, renderPartRef)
	reg.Register(KindCodeFigure, renderCodeFigure)
	reg.Register(KindTableWrap, renderTableWrap)
	reg.Register(KindHeadingAnchor, renderHeadingAnchor)
}

func renderPartRef(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*PartRef)
	esc := html.EscapeString
	if n.Link.Published {
		fmt.Fprintf(w, `<a class="part-ref" href="%s" title="%s">#%d</a>`, esc(n.Link.Href), esc(n.Link.Title), n.N)
	} else {
		fmt.Fprintf(w, `<span class="part-ref planned" title="%s">#%d<span class="planned-mark">%s</span></span>`, esc(n.Link.Title), n.N, esc(n.Mark))
	}
	return ast.WalkSkipChildren, nil
}

func renderCodeFigure(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*CodeFigure)
	esc := html.EscapeString
	fmt.Fprintf(w, `<figure class="code" data-lang="%s"`, esc(n.Lang))
	if n.CopyText != n.Code {
		fmt.Fprintf(w, ` data-copy="%s"`, esc(n.CopyText))
	}
	_, _ = w.WriteString(">\n<figcaption class=\"code-head\">")
	if n.Title != "" {
		fmt.Fprintf(w, `<span class="code-title">%s</span>`, esc(n.Title))
	}
	fmt.Fprintf(w, `<span class="code-lang">%s</span><button type="button" class="code-copy" data-label-copied="%s">%s</button></figcaption>`+"\n",
		esc(n.Lang), esc(n.Copied), esc(n.Copy))
	_, _ = w.WriteString(n.HTML)
	_, _ = w.WriteString("\n</figure>\n")
	return ast.WalkSkipChildren, nil
}

func renderTableWrap(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<div class=\"table-wrap\">\n")
	} else {
		_, _ = w.WriteString("</div>\n")
	}
	return ast.WalkContinue, nil
}

func renderHeadingAnchor(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*HeadingAnchor)
	fmt.Fprintf(w, `<a class="anchor" href="#%s" aria-label="%s">#</a>`, html.EscapeString(n.ID), html.EscapeString(n.Label))
	return ast.WalkSkipChildren, nil
}
