package markdown

import (
	"bytes"
	"fmt"
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// KindCodeFigure is the kind of CodeFigure nodes.
var KindCodeFigure = ast.NewNodeKind("CodeFigure")

// CodeFigure is a highlighted code block with its caption.
type CodeFigure struct {
	ast.BaseBlock
	Lang     string // as written, "text" when none
	Info     string // the fence's info string as written; "" for none and for indented code
	Title    string
	Code     string // the code, line endings normalised, trailing newlines trimmed
	HTML     string // highlighted <pre>
	CopyText string
	Copy     string // button label
	Copied   string // label after copying
	// LineNumbers is how the block's lines are numbered (Hugo's linenos).
	LineNumbers highlight.LineNumbers

	text string // the code as HTML shows it: Code with the trailing blank lines kept
}

var _ ast.Node = (*CodeFigure)(nil)

// Kind implements ast.Node.
func (n *CodeFigure) Kind() ast.NodeKind { return KindCodeFigure }

// Dump implements ast.Node.
func (n *CodeFigure) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Lang": n.Lang, "Title": n.Title}, nil)
}

// codeBlocks is the extension that makes fenced and indented code blocks
// highlighted figures with a caption and a copy button, reading the
// language, title, highlighted lines and line numbers from the fence's
// info string; and so the nodes that stand for code blocks of their own
// (CodeSource: the highlight shortcode).
type codeBlocks struct {
	hl *highlight.Highlighter
}

var _ goldmark.Extender = (*codeBlocks)(nil)

// Extend implements goldmark.Extender.
func (c *codeBlocks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(
		util.Prioritized(&codeSourceTransformer{hl: c.hl}, PriorityCodeSourceTransformer),
		util.Prioritized(&codeFigureTransformer{hl: c.hl}, PriorityCodeBlockTransformer)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(codeFigureRenderer{}, PriorityRenderer)))
}

// CodeSource is an AST node that stands for a code block of its own (a
// call of the highlight shortcode): the code blocks extension makes it a
// CodeFigure as it does a fenced block, before links and "#N" references
// are looked for, whose text in it is code.
type CodeSource interface {
	ast.Node
	// CodeSpec returns the block's code and how to show it; ok=false
	// leaves the node as it is (its call had errors, reported).
	CodeSpec(src []byte) (spec CodeSpec, ok bool)
}

// CodeSpec is what a CodeSource holds.
type CodeSpec struct {
	Lang string // "" for plain text
	Code string // its lines, each ending in a newline but maybe the last
	// Options are Hugo's highlighting options, "linenos=table,hl_lines=2
	// 5-7": key=value pairs separated by commas, each read as a fence's
	// attribute is (Hugo writes no quotes: a value runs to the next
	// comma); OptionsOff is their offset in the body, for problems.
	Options    string
	OptionsOff int
}

// codeSourceTransformer replaces each CodeSource with its CodeFigure.
type codeSourceTransformer struct {
	hl *highlight.Highlighter
}

var _ parser.ASTTransformer = (*codeSourceTransformer)(nil)

// Transform implements parser.ASTTransformer.
func (t *codeSourceTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	if env == nil {
		env = &Env{}
	}
	src := reader.Source()
	type found struct {
		n    ast.Node
		spec CodeSpec
	}
	var codes []found
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			return ast.WalkSkipChildren, nil
		case CodeSource:
			if spec, ok := n.CodeSpec(src); ok {
				codes = append(codes, found{n, spec})
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	numbered := false
	for i, c := range codes {
		text := literalText(strings.ReplaceAll(c.spec.Code, "\r\n", "\n"), c.n.Pos(), env)
		nlines := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
		o := codeOptions{lang: c.spec.Lang}
		if o.lang == "" {
			o.lang = "text"
		}
		infoAttrs(&o, hugoOptions(c.spec.Options, c.spec.OptionsOff), nlines, env, "the highlight shortcode")
		fig := newCodeFigure(t.hl, text, o, fmt.Sprintf("highlight-%d", i), env)
		fig.SetPos(c.n.Pos())
		c.n.Parent().ReplaceChild(c.n.Parent(), c.n, fig)
		if fig.LineNumbers != highlight.NoLineNumbers && !numbered {
			numbered = true
			needLineNumbers(env, max(fig.Pos(), 0))
		}
	}
}

// hugoOptions splits Hugo's highlighting options, "linenos=table,
// hl_lines=2 5-7", at their commas into attributes, as Hugo does; off is
// the offset of s. A piece without "=" is an attribute without a value,
// which infoAttrs reports.
func hugoOptions(s string, off int) []attr {
	var out []attr
	for start := 0; start <= len(s); {
		end := strings.IndexByte(s[start:], ',')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		piece := s[start:end]
		lead := len(piece) - len(strings.TrimLeft(piece, " "))
		if k, v, ok := strings.Cut(piece[lead:], "="); ok || strings.TrimSpace(piece) != "" {
			a := attr{key: strings.TrimSpace(k), val: v, off: off + start + lead}
			a.valOff = a.off + len(k) + 1
			out = append(out, a)
		}
		start = end + 1
	}
	return out
}

// codeFigureTransformer replaces each code block with its CodeFigure.
type codeFigureTransformer struct {
	hl *highlight.Highlighter
}

var _ parser.ASTTransformer = (*codeFigureTransformer)(nil)

// Transform implements parser.ASTTransformer.
func (t *codeFigureTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	if env == nil {
		env = &Env{}
	}
	src := reader.Source()
	var codes []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			codes = append(codes, n)
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			spanLiterals(n, src, env)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	fenced, numbered := 0, false
	for _, c := range codes {
		if err := env.Context().Err(); err != nil {
			break
		}
		// As Hugo names them, the fenced blocks' line ids are hl-0-1, …:
		// the block's ordinal among the page's fenced blocks, its line.
		fig := t.codeFigure(c, src, fmt.Sprintf("hl-%d", fenced), env)
		if _, ok := c.(*ast.FencedCodeBlock); ok {
			fenced++
		}
		c.Parent().ReplaceChild(c.Parent(), c, fig)
		if fig.LineNumbers != highlight.NoLineNumbers && !numbered {
			numbered = true
			needLineNumbers(env, max(fig.Pos(), 0))
		}
	}
}

// codeFigure highlights a fenced or indented code block; anchors is the
// prefix of its lines' ids, unless its info string names one.
func (t *codeFigureTransformer) codeFigure(n ast.Node, src []byte, anchors string, env *Env) *CodeFigure {
	var code strings.Builder
	lines := n.Lines()
	segs := make([]text.Segment, lines.Len())
	for i := range segs {
		segs[i] = lines.At(i)
	}
	for _, seg := range codeLiterals(src, segs, env) {
		code.Write(seg.Value(src))
	}
	o := codeOptions{lang: "text"}
	info := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
		seg := f.Info.Segment
		info = string(src[seg.Start:seg.Stop])
		o = parseInfo(src[seg.Start:seg.Stop], seg.Start, lines.Len(), env)
	}
	fig := newCodeFigure(t.hl, strings.ReplaceAll(code.String(), "\r\n", "\n"), o, anchors, env)
	fig.Info = info
	fig.SetPos(n.Pos()) // the fence's, or the indented block's first line
	return fig
}

// newCodeFigure highlights lines, a code block's, as o asks; anchors is
// the prefix of its lines' ids, unless o names one.
func newCodeFigure(hl *highlight.Highlighter, lines string, o codeOptions, anchors string, env *Env) *CodeFigure {
	fig := &CodeFigure{Lang: o.lang, Title: o.title, LineNumbers: o.numbers, Copy: env.t("copy"), Copied: env.t("copied")}
	text := shownCode(lines)
	fig.Code = strings.TrimRight(text, "\n")
	b := highlight.Block{Lang: fig.Lang, Code: text, Title: fig.Title, Lines: o.lines, LineNumbers: o.numbers, LineStart: o.start}
	if o.anchors && o.numbers != highlight.NoLineNumbers {
		b.Anchors = anchors
		if o.anchorPrefix != "" {
			b.Anchors = o.anchorPrefix
		}
	}
	r := hl.Block(b)
	fig.HTML, fig.CopyText, fig.text = r.HTML, r.CopyText, text
	return fig
}

// LineNumbersStyle is the stylesheet of the code blocks with numbered
// lines, a static file of the theme: a page that has one links it
// (Result.Styles).
const LineNumbersStyle = "/css/linenos.css"

// needLineNumbers records that the document has a code block with
// numbered lines, the first of those a transformer made at off: the page
// links LineNumbersStyle, which must be a static file of the site or its
// theme (when the page's files are known, Env.Assets).
func needLineNumbers(env *Env, off int) {
	env.Need([]string{LineNumbersStyle}, nil)
	if env.Assets == nil {
		return
	}
	if _, err := env.Assets(LineNumbersStyle); err != nil {
		env.Report(diag.Error, off, "code block: numbered lines need %s, which is no file static%s of the site or its theme", LineNumbersStyle, LineNumbersStyle)
	}
}

// shownCode is the text of a code block's lines as its <pre> shows it.
// The newline that ends the last line is dropped, as a <pre> shows none
// for it, unless that line is blank: then the block ends in blank lines,
// which CommonMark keeps (GFM 0.29's example 298, CommonMark 0.31.2's
// 318), and every newline stays, for the <pre> to show each of them.
func shownCode(lines string) string {
	if lines == "\n" || strings.HasSuffix(lines, "\n\n") {
		return lines
	}
	return strings.TrimSuffix(lines, "\n")
}

// codeFigureRenderer renders CodeFigure nodes.
type codeFigureRenderer struct{}

var _ renderer.NodeRenderer = codeFigureRenderer{}

// RegisterFuncs implements renderer.NodeRenderer.
func (codeFigureRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindCodeFigure, renderCodeFigure)
}

func renderCodeFigure(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*CodeFigure)
	esc := html.EscapeString
	fmt.Fprintf(w, `<figure class="code" data-lang="%s"`, esc(n.Lang))
	// The copy button copies the code element's text unless told what
	// else: line numbers inline are text of it.
	if n.CopyText != n.text || n.LineNumbers == highlight.LineNumbersInline {
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

// Hugo's shortcode syntax in code. Hugo reads shortcodes before markdown,
// in code too: {{</* name */>}} (and {{%/* name */%}}) is its way of
// showing a call as text, everywhere, and shows {{< name >}}; a plain
// call it expands, in code as well. kakehashi expands no shortcode in
// code, where a course shows them: it shows the literal form as Hugo
// does, and warns of a plain call, which Hugo would expand.

// literalCuts finds the literal shortcodes of b, {{</* … */>}} and
// {{%/* … */%}}, and returns the byte ranges of their comment markers,
// which Hugo does not show, in order; and the index in b of the first
// plain call ({{< name …, {{% /name …), -1 when there is none.
func literalCuts(b []byte) (cuts [][2]int, plain int) {
	plain = -1
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("{{"))
		if j < 0 {
			return cuts, plain
		}
		j += i
		i = j + 2
		if j+2 >= len(b) || b[j+2] != '<' && b[j+2] != '%' {
			continue
		}
		right := byte('>') // the delimiter that closes the tag
		if b[j+2] == '%' {
			right = '%'
		}
		if bytes.HasPrefix(b[j+3:], []byte("/*")) {
			k := bytes.Index(b[j+5:], []byte{'*', '/', right, '}', '}'})
			if k < 0 {
				continue // Hugo: "comment must be closed"; shown as written
			}
			k += j + 5
			cuts = append(cuts, [2]int{j + 3, j + 5}, [2]int{k, k + 2})
			i = k + 4
			continue
		}
		if plain < 0 && callName(b[j+3:]) != "" {
			plain = j
		}
	}
}

// callName returns the name a shortcode call's tag starts with, after
// its "{{<" and spaces: "part" for " part 3 >}}", "/tabs" for a closing
// tag; "" when b starts no call.
func callName(b []byte) string {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	if j < len(b) && b[j] == '/' {
		j++
	}
	k := j
	for k < len(b) && (b[k] == '_' || b[k] == '-' || b[k] == '/' || b[k] == '.' || b[k] < utf8.RuneSelf && (unicode.IsLetter(rune(b[k])) || unicode.IsDigit(rune(b[k])))) {
		k++
	}
	if k == j || !(b[j] == '_' || b[j] < utf8.RuneSelf && unicode.IsLetter(rune(b[j]))) {
		return ""
	}
	return string(b[i:k])
}

// codeLiterals cuts the comment markers of the literal shortcodes out of
// segs, the pieces of src that make a code block's or a code span's text,
// in order, and warns of the first plain call among them.
func codeLiterals(src []byte, segs []text.Segment, env *Env) []text.Segment {
	var b []byte
	for _, s := range segs {
		b = append(b, s.Value(src)...)
	}
	if !bytes.Contains(b, []byte("{{")) {
		return segs
	}
	cuts, plain := literalCuts(b)
	// at maps an index of b to its offset in src (a segment's padding,
	// the spaces a tab became, to the segment's start).
	at := func(i int) int {
		for _, s := range segs {
			if n := len(s.Value(src)); i < n {
				return min(s.Start+max(i-s.Padding, 0), s.Stop)
			}
			i -= len(s.Value(src))
		}
		return -1
	}
	if plain >= 0 {
		warnPlainCall(env, at(plain), b[plain:])
	}
	if len(cuts) == 0 {
		return segs
	}
	var out []text.Segment
	base, c := 0, 0 // b's index of the segment's value; the next cut
	for _, s := range segs {
		n := len(s.Value(src)) // with its padding and a forced newline
		piece := s             // what is left of s to write
		for ; c < len(cuts) && cuts[c][1] <= base+n; c++ {
			cs, ce := s.Start+cuts[c][0]-base-s.Padding, s.Start+cuts[c][1]-base-s.Padding
			if cs < piece.Start {
				continue // a marker across two pieces, or in the padding, is none
			}
			if cs > piece.Start || piece.Padding > 0 {
				head := piece
				head.Stop, head.ForceNewline = cs, false
				out = append(out, head)
			}
			piece.Start, piece.Padding = ce, 0
		}
		if piece.Start < piece.Stop || piece.Padding > 0 {
			out = append(out, piece)
		}
		base += n
	}
	return out
}

// spanLiterals cuts the comment markers of the literal shortcodes out of
// a code span's text, and warns of a plain call in it.
func spanLiterals(n *ast.CodeSpan, src []byte, env *Env) {
	var segs []text.Segment
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok {
			return
		}
		segs = append(segs, t.Segment)
	}
	out := codeLiterals(src, segs, env)
	if len(out) == len(segs) && slices.Equal(out, segs) {
		return
	}
	n.RemoveChildren(n)
	for _, s := range out {
		n.AppendChild(n, ast.NewRawTextSegment(s))
	}
}

// literalText cuts the comment markers of the literal shortcodes out of
// code, the text of a CodeSource, and warns, at off, of a plain call.
func literalText(code string, off int, env *Env) string {
	if !strings.Contains(code, "{{") {
		return code
	}
	cuts, plain := literalCuts([]byte(code))
	if plain >= 0 {
		warnPlainCall(env, off, []byte(code[plain:]))
	}
	var b strings.Builder
	last := 0
	for _, c := range cuts {
		b.WriteString(code[last:c[0]])
		last = c[1]
	}
	b.WriteString(code[last:])
	return b.String()
}

// warnPlainCall warns, at off, of the plain call that tag starts.
func warnPlainCall(env *Env, off int, tag []byte) {
	l, r := "{{<", ">}}"
	if tag[2] == '%' {
		l, r = "{{%", "%}}"
	}
	name := callName(tag[3:])
	env.Report(diag.Warning, max(off, 0), "shortcode %s %s %s in code is shown as written: kakehashi expands no shortcode in code, where Hugo expands it; write %s/* %s */%s to show it in Hugo too",
		l, name, r, l, name, r)
}
