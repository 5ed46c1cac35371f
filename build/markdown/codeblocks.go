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
// language, title and highlighted lines from the fence's info string.
type codeBlocks struct {
	hl *highlight.Highlighter
}

var _ goldmark.Extender = (*codeBlocks)(nil)

// Extend implements goldmark.Extender.
func (c *codeBlocks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(
		util.Prioritized(&codeFigureTransformer{hl: c.hl}, PriorityCodeBlockTransformer)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(codeFigureRenderer{}, PriorityRenderer)))
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
	var codes []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			codes = append(codes, n)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	src := reader.Source()
	for _, c := range codes {
		if err := env.Context().Err(); err != nil {
			break
		}
		fig := t.codeFigure(c, src, env)
		c.Parent().ReplaceChild(c.Parent(), c, fig)
	}
}

// codeFigure highlights a fenced or indented code block.
func (t *codeFigureTransformer) codeFigure(n ast.Node, src []byte, env *Env) *CodeFigure {
	var code strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}
	fig := &CodeFigure{Lang: "text", Copy: env.t("copy"), Copied: env.t("copied")}
	fig.SetPos(n.Pos()) // the fence's, or the indented block's first line
	var hl []int
	if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
		info := f.Info.Segment
		fig.Info = string(src[info.Start:info.Stop])
		fig.Lang, fig.Title, hl = parseInfo(src[info.Start:info.Stop], info.Start, lines.Len(), env)
	}
	text := shownCode(strings.ReplaceAll(code.String(), "\r\n", "\n"))
	fig.Code = strings.TrimRight(text, "\n")
	r := t.hl.Block(highlight.Block{Lang: fig.Lang, Code: text, Title: fig.Title, Lines: hl})
	fig.HTML, fig.CopyText, fig.text = r.HTML, r.CopyText, text
	return fig
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

// parseInfo splits a fence's info string `bash {title="x" hl_lines="2-3 5"}`
// into language, title and highlighted lines; off is the info string's
// offset in the body, nlines the block's line count. Problems are warnings.
// As CommonMark has it, backslash escapes and entity references in the
// info string are resolved: in the language and in each value, after the
// string is split, so an escaped `\{` or `\"` splits nothing and the
// offsets of problems are the source's.
func parseInfo(info []byte, off, nlines int, env *Env) (lang, title string, hl []int) {
	s := string(info)
	end := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]) {
			i++
			continue
		}
		if s[i] == ' ' || s[i] == '\t' || s[i] == '{' {
			end = i
			break
		}
	}
	lang = unescapeInfo(s[:end])
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
	title, hl = infoAttrs(attrs, nlines, env)
	return lang, title, hl
}

// infoAttrs reads the title and the highlighted lines (sorted, each once)
// from a fence's attributes.
func infoAttrs(attrs []attr, nlines int, env *Env) (title string, hl []int) {
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
			if hugoHighlightOptions[a.key] {
				env.Report(diag.Warning, a.off, "code block: Hugo's highlight option %q is not supported yet and is ignored", a.key)
				continue
			}
			// A fence's attributes are options read here, never HTML
			// attributes: content sets no behaviour.
			env.Report(diag.Error, a.off, "code block: attribute %q is not allowed (a fence takes title and hl_lines)", a.key)
		}
	}
	sort.Ints(hl)
	return title, hl
}

// hugoHighlightOptions are the options Hugo's fences take that kakehashi
// does not act on yet: a warning, so a course brought from Hugo builds.
var hugoHighlightOptions = map[string]bool{
	"linenos": true, "linenostart": true, "anchorlinenos": true, "lineanchors": true,
	"lineNos": true, "lineNoStart": true, "anchorLineNos": true, "lineAnchors": true,
	"style": true, "noclasses": true, "noClasses": true, "tabwidth": true, "tabWidth": true,
	"guessSyntax": true, "codeFences": true, "hl_inline": true, "hlInline": true,
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
			j := closingQuote(s, i+1)
			if j < 0 {
				env.Report(diag.Warning, off+i, "code block: unterminated quoted value for %q", a.key)
				return out, false
			}
			a.val, a.valOff = unescapeInfo(s[i+1:j]), off+i+1
			i = j + 1
		} else {
			j := i
			for i < len(s) && s[i] != ' ' && s[i] != '\t' {
				i++
			}
			a.val, a.valOff = unescapeInfo(s[j:i]), off+j
		}
		out = append(out, a)
	}
}

// closingQuote returns the index of the first '"' in s from i that no
// backslash escapes, -1 when there is none.
func closingQuote(s string, i int) int {
	for ; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]):
			i++
		case s[i] == '"':
			return i
		}
	}
	return -1
}

// unescapeInfo resolves the backslash escapes of ASCII punctuation and the
// entity and numeric character references in a piece of an info string,
// in one pass, as CommonMark does: `foo\+bar` is "foo+bar", `f&ouml;` is
// "fö", `\&ouml;` stays "&ouml;". A reference to code point 0 or to one
// that is not a valid character is U+FFFD.
func unescapeInfo(s string) string {
	if !strings.ContainsAny(s, "\\&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]) {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c == '&' {
			if v, n := charRef(s[i:]); n > 0 {
				b.WriteString(v)
				i += n - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// charRef reads the entity or numeric character reference s starts with
// (`&ouml;`, `&#35;`, `&#x22;`): its characters and its length, 0 when s
// does not start with one.
func charRef(s string) (string, int) {
	semi := strings.IndexByte(s, ';')
	if semi < 2 {
		return "", 0
	}
	body := s[1:semi]
	if body[0] != '#' {
		// HTML5's longest name has 31 letters and digits.
		if len(body) > 32 || !isAlnum(body) {
			return "", 0
		}
		e, ok := util.LookUpHTML5EntityByName(body)
		if !ok {
			return "", 0
		}
		return string(e.Characters), semi + 1
	}
	digits, base, most := body[1:], 10, 7
	if digits != "" && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base, most = digits[1:], 16, 6
	}
	if digits == "" || len(digits) > most {
		return "", 0
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if err != nil {
		return "", 0
	}
	r := rune(v)
	if r == 0 || !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	return string(r), semi + 1
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
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
	if n.CopyText != n.text {
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
