package markdown

import (
	"bytes"
	"fmt"
	"html"
	"slices"
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

// codeOptions are what a fence's info string, or a highlight shortcode's
// options, ask of a code block.
type codeOptions struct {
	lang, title string
	lines       []int // to highlight, 1-based, sorted, each once
	numbers     highlight.LineNumbers
	start       int // the first line's number; 0 for 1
	// anchors: each line number links to itself (anchorlinenos), by
	// the id prefix anchorPrefix (lineanchors; "" for the block's own).
	anchors      bool
	anchorPrefix string
}

// parseInfo splits a fence's info string `bash {title="x" hl_lines="2-3 5"}`
// into the language and the block's options; off is the info string's
// offset in the body, nlines the block's line count. Problems are warnings.
// As CommonMark has it, backslash escapes and entity references in the
// info string are resolved: in the language and in each value, after the
// string is split, so an escaped `\{` or `\"` splits nothing and the
// offsets of problems are the source's.
func parseInfo(info []byte, off, nlines int, env *Env) codeOptions {
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
	o := codeOptions{lang: unescapeInfo(s[:end])}
	if o.lang == "" {
		o.lang = "text"
	}
	rest := s[end:]
	restOff := off + end
	trimmed := strings.TrimLeft(rest, " \t")
	restOff += len(rest) - len(trimmed)
	rest = strings.TrimRight(trimmed, " \t")
	if rest == "" {
		return o
	}
	if !strings.HasPrefix(rest, "{") || !strings.HasSuffix(rest, "}") {
		env.Report(diag.Warning, restOff, "code block: expected {key=\"value\" ...} after the language, found %q", rest)
		return o
	}
	attrs, ok := parseAttrs(rest[1:len(rest)-1], restOff+1, env)
	if !ok {
		return o
	}
	infoAttrs(&o, attrs, nlines, env, "a fence")
	return o
}

// infoAttrs reads a code block's options from its attributes into o; what
// names them, for a message, is "a fence" or the highlight shortcode.
// Hugo's highlighting options are read as Hugo reads them, their names
// in any case (lineNos, hl_Lines): linenos (true, false, table, inline;
// true is table unless linenumbersintable=false), linenostart,
// anchorlinenos, lineanchors, linenumbersintable, and hl_lines as a
// string ("2 5-7") or a list ([1,3] or [8,"15-17"]), counted from the
// block's first line whatever its number.
func infoAttrs(o *codeOptions, attrs []attr, nlines int, env *Env, what string) {
	seen := map[int]bool{}
	linenos, inTable := "", true
	for _, a := range attrs {
		switch key := strings.ToLower(a.key); key {
		case "title":
			o.title = a.val
		case "hl_lines":
			for _, l := range parseLines(a, nlines, env) {
				if !seen[l] {
					seen[l] = true
					o.lines = append(o.lines, l)
				}
			}
		case "linenos":
			switch v := a.val; {
			case a.list != nil:
				env.Report(diag.Warning, a.valOff, "code block: linenos takes true, false, table or inline, not a list")
			case v == "true" || v == "false" || v == "table" || v == "inline":
				linenos = v
			default:
				env.Report(diag.Warning, a.valOff, "code block: linenos takes true, false, table or inline; %q is read as true, as Hugo reads it", v)
				linenos = "true"
			}
		case "linenostart":
			n, err := strconv.Atoi(a.val)
			if err != nil || n < 0 || n > 1e9 || a.list != nil {
				env.Report(diag.Warning, a.valOff, "code block: linenostart takes the first line's number, 0 or more, not %q", a.val)
				continue
			}
			o.start = n
		case "anchorlinenos", "linenumbersintable":
			b, ok := boolAttr(a)
			if !ok {
				env.Report(diag.Warning, a.valOff, "code block: %s takes true or false, not %q", a.key, a.val)
				continue
			}
			if key == "anchorlinenos" {
				o.anchors = b
			} else {
				inTable = b
			}
		case "lineanchors":
			if a.list != nil || !isAnchorPrefix(a.val) {
				env.Report(diag.Warning, a.valOff, "code block: lineanchors takes a prefix of letters, digits, \"-\" and \"_\" for the lines' ids, not %q", a.val)
				continue
			}
			o.anchorPrefix = a.val
		default:
			if hugoHighlightOptions[key] {
				env.Report(diag.Warning, a.off, "code block: Hugo's highlight option %q is not supported and is ignored", a.key)
				continue
			}
			// A fence's attributes are options read here, never HTML
			// attributes: content sets no behaviour.
			env.Report(diag.Error, a.off, "code block: attribute %q is not allowed (%s takes title, hl_lines, linenos, linenostart, anchorlinenos, lineanchors and linenumbersintable)", a.key, what)
		}
	}
	switch linenos {
	case "table":
		o.numbers = highlight.LineNumbersTable
	case "inline":
		o.numbers = highlight.LineNumbersInline
	case "true":
		o.numbers = highlight.LineNumbersInline
		if inTable {
			o.numbers = highlight.LineNumbersTable
		}
	}
	sort.Ints(o.lines)
}

// boolAttr reads a true or false value.
func boolAttr(a attr) (v, ok bool) {
	if a.list != nil {
		return false, false
	}
	switch a.val {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// isAnchorPrefix reports whether s is made of what an id and a fragment
// take as they are: ASCII letters, digits, "-" and "_".
func isAnchorPrefix(s string) bool {
	for _, r := range s {
		if !(r == '-' || r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return s != ""
}

// hugoHighlightOptions are the options, in lower case, Hugo's fences take
// that kakehashi does not act on: a warning, so a course brought from
// Hugo builds.
var hugoHighlightOptions = map[string]bool{
	"style": true, "noclasses": true, "tabwidth": true, "guesssyntax": true,
	"codefences": true, "hl_inline": true, "wrapperclass": true,
}

// attr is one key="value" of a fence's info string.
type attr struct {
	key, val string
	off      int // of the key
	valOff   int // of the value's first character
	// list holds the items of a list value, [1, 3] or [8, "15-17"]
	// (non-nil, val empty); nil for any other value.
	list []listItem
}

// listItem is one item of a list value.
type listItem struct {
	val string
	off int
}

// parseAttrs parses `key="value" key=value key=[1,"2-3"] ...`, separated
// by spaces or commas, as Hugo's fences write them
// ({linenos=table,hl_lines=[8,"15-17"],linenostart=199}); off is the
// offset of s. A bare value ends at a space, or at a comma that a next
// key= follows (hl_lines=2,3 is one value).
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
		i = keyEnd(s, i)
		if i == k || i >= len(s) || s[i] != '=' {
			env.Report(diag.Warning, off+k, "code block: expected key=\"value\" in the attributes")
			return out, false
		}
		a := attr{key: s[k:i], off: off + k}
		i++
		switch {
		case i < len(s) && s[i] == '"':
			j := closingQuote(s, i+1)
			if j < 0 {
				env.Report(diag.Warning, off+i, "code block: unterminated quoted value for %q", a.key)
				return out, false
			}
			a.val, a.valOff = unescapeInfo(s[i+1:j]), off+i+1
			i = j + 1
		case i < len(s) && s[i] == '[':
			a.valOff = off + i
			items, end, ok := parseList(s, i+1, off)
			if !ok {
				env.Report(diag.Warning, off+i, "code block: unterminated list for %q: expected [1, 3] or [1, \"3-5\"]", a.key)
				return out, false
			}
			a.list, i = items, end
		default:
			j := i
			for i < len(s) && s[i] != ' ' && s[i] != '\t' && !(s[i] == ',' && nextKey(s, i+1)) {
				i++
			}
			a.val, a.valOff = unescapeInfo(s[j:i]), off+j
		}
		out = append(out, a)
	}
}

// keyEnd returns the end of the attribute name starting at s[i].
func keyEnd(s string, i int) int {
	for i < len(s) && (s[i] == '_' || s[i] == '-' || s[i] < utf8.RuneSelf && (unicode.IsLetter(rune(s[i])) || unicode.IsDigit(rune(s[i])))) {
		i++
	}
	return i
}

// nextKey reports whether a key= starts at s[i], after spaces.
func nextKey(s string, i int) bool {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := keyEnd(s, i)
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	return j > i && j < len(s) && s[j] == '=' && !unicode.IsDigit(rune(s[i]))
}

// parseList reads the items of a list value from s[i], just after its
// '[', to its ']': quoted strings or bare words, separated by commas or
// spaces. It returns the items (never nil) and where the list ends.
func parseList(s string, i, off int) ([]listItem, int, bool) {
	items := []listItem{}
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == ',':
			i++
		case c == ']':
			return items, i + 1, true
		case c == '"':
			j := closingQuote(s, i+1)
			if j < 0 {
				return nil, 0, false
			}
			items = append(items, listItem{val: unescapeInfo(s[i+1 : j]), off: off + i + 1})
			i = j + 1
		default:
			j := i
			for i < len(s) && !strings.ContainsRune(" \t,]", rune(s[i])) {
				i++
			}
			items = append(items, listItem{val: s[j:i], off: off + j})
		}
	}
	return nil, 0, false
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
// by spaces or commas, or the items of a list ([1, "3-5"]), each within
// 1..nlines.
func parseLines(a attr, nlines int, env *Env) []int {
	items := a.list
	if items == nil {
		v := a.val
		for i := 0; i < len(v); {
			if v[i] == ' ' || v[i] == ',' {
				i++
				continue
			}
			j := i
			for j < len(v) && v[j] != ' ' && v[j] != ',' {
				j++
			}
			items = append(items, listItem{val: v[i:j], off: a.valOff + i})
			i = j
		}
	}
	var out []int
	for _, it := range items {
		lo, hi, ok := parseRange(it.val)
		if !ok {
			env.Report(diag.Warning, it.off, "code block: hl_lines: bad line or range %q", it.val)
			continue
		}
		if hi > nlines {
			env.Report(diag.Warning, it.off, "code block: hl_lines: %q is past the end of the block (%d lines)", it.val, nlines)
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
