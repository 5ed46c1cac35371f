package markdown

// A fence's info string and a highlight shortcode's options: what they
// ask of a code block (codeOptions), parsed with their positions for the
// diagnostics.

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/yuin/goldmark/util"
)

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
