package shortcodes

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// hugoToken is one token of a case of testdata/hugo-lexer: Hugo's item
// type, the byte offset of its value, the value and, for an argument
// value, the kind hugolib types it as.
type hugoToken struct {
	typ  string
	pos  int
	val  string
	kind string
}

func (t hugoToken) String() string {
	s := fmt.Sprintf("%s %d %q", t.typ, t.pos, t.val)
	if t.kind != "" {
		s += " " + t.kind
	}
	return s
}

// hugoCase is one case of testdata/hugo-lexer.
type hugoCase struct {
	file, name, input string
	line              int // of the case in its file
	tokens            []hugoToken
}

// readHugoCases reads a testdata/hugo-lexer file (its format is described
// at its top).
func readHugoCases(t *testing.T, path string) []hugoCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []hugoCase
	sc := bufio.NewScanner(f)
	n := 0
	bad := func(format string, args ...any) {
		t.Fatalf("%s:%d: %s", path, n, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "case "):
			name, err := strconv.Unquote(strings.TrimPrefix(line, "case "))
			if err != nil {
				bad("case name: %v", err)
			}
			cases = append(cases, hugoCase{file: filepath.Base(path), name: name, line: n})
		case strings.HasPrefix(line, "input "):
			in, err := strconv.Unquote(strings.TrimPrefix(line, "input "))
			if err != nil || len(cases) == 0 {
				bad("input: %v", err)
			}
			cases[len(cases)-1].input = in
		case strings.HasPrefix(line, "  "):
			typ, rest, _ := strings.Cut(strings.TrimPrefix(line, "  "), " ")
			p, rest, _ := strings.Cut(rest, " ")
			off, err := strconv.Atoi(p)
			if err != nil || len(cases) == 0 {
				bad("token offset: %v", err)
			}
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				bad("token value: %v", err)
			}
			val, _ := strconv.Unquote(q)
			kind := strings.TrimSpace(rest[len(q):])
			c := &cases[len(cases)-1]
			c.tokens = append(c.tokens, hugoToken{typ: typ, pos: off, val: val, kind: kind})
		default:
			bad("unexpected line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// kakehashiTokens lexes src as kakehashi does, tag by tag (the tag lexer,
// then Parse's pairing and the argument checks of a site template, which
// is what every name of Hugo's table stands for), and writes the result
// as Hugo's tokens: text between tags, each tag's items, EOF. It stops at
// the first error, as Hugo's lexer does, and returns the error's offset
// and its "path:line:col: message" (errAt < 0 when there is none).
func kakehashiTokens(src []byte) (toks []hugoToken, errAt int, errMsg string) {
	errAt = -1
	text := func(pos int, s string) {
		if s == "" {
			return
		}
		if k := len(toks) - 1; k >= 0 && toks[k].typ == "tText" {
			toks[k].val += s
			return
		}
		toks = append(toks, hugoToken{typ: "tText", pos: pos, val: s})
	}
	i := 0
	for {
		j := nextTag(src, i)
		if j < 0 {
			break
		}
		text(i, string(src[i:j]))
		items := lexTag(src, j, len(src))
		markdown := false
		for k, it := range items {
			switch it.typ {
			case itemError:
				return toks, it.pos, diag.At("p.md", src, it.pos, "%s", it.val).Header()
			case itemLeftDelim:
				markdown = it.val == "{{%"
				toks = append(toks, hugoToken{typ: delimType(true, markdown), pos: it.pos, val: it.val})
			case itemRightDelim:
				toks = append(toks, hugoToken{typ: delimType(false, markdown), pos: it.pos, val: it.val})
			case itemCloseMark, itemSelfClose:
				toks = append(toks, hugoToken{typ: "tScClose", pos: it.pos, val: "/"})
			case itemName:
				typ := "tScName"
				if strings.HasSuffix(it.val, ".inline") {
					typ = "tScNameInline"
				}
				toks = append(toks, hugoToken{typ: typ, pos: it.pos, val: it.val})
			case itemParam:
				toks = append(toks, hugoToken{typ: "tScParam", pos: it.pos, val: it.val})
			case itemString, itemRawString, itemWord:
				typ := "tScParam"
				if k > 0 && items[k-1].typ == itemParam {
					typ = "tScParamVal"
				}
				kind, p := "string", it.pos
				if it.typ == itemWord {
					kind = hugoKind(wordValue(it).Kind)
				} else {
					// Hugo places a quoted value after its opening quote.
					p++
					if src[it.pos] == '\\' {
						p++
					}
				}
				toks = append(toks, hugoToken{typ: typ, pos: p, val: it.val, kind: kind})
			case itemLiteral:
				text(it.pos, it.val)
			}
		}
		i = items[len(items)-1].end
	}
	text(i, string(src[i:]))
	toks = append(toks, hugoToken{typ: "tEOF", pos: len(src)})

	calls, errs := Parse("p.md", src)
	var walk func(calls []Call)
	walk = func(calls []Call) {
		for k := range calls {
			c := &calls[k]
			s := &Shortcode{Name: c.Name, AnyArgs: true}
			_, _, es := s.resolve(c)
			for _, e := range es {
				errs = append(errs, diag.At("p.md", src, e.Pos, "%s", e.Msg))
			}
			walk(c.Children)
		}
	}
	walk(calls)
	for _, d := range errs {
		if off := diag.Offset(src, d.Line, d.Col); errAt < 0 || off < errAt {
			errAt, errMsg = off, d.Header()
		}
	}
	return toks, errAt, errMsg
}

func delimType(left, markdown bool) string {
	switch {
	case left && markdown:
		return "tLeftDelimScWithMarkup"
	case left:
		return "tLeftDelimScNoMarkup"
	case markdown:
		return "tRightDelimScWithMarkup"
	}
	return "tRightDelimScNoMarkup"
}

// hugoKind names a Kind as the data files do, after Hugo's Go types.
func hugoKind(k Kind) string {
	switch k {
	case Int:
		return "int"
	case Float:
		return "float"
	case Bool:
		return "bool"
	}
	return "string"
}

// tagAt returns the offset of the last "{{<" or "{{%" at or before off, or
// -1.
func tagAt(src []byte, off int) int {
	last := -1
	for j := nextTag(src, 0); j >= 0 && j <= off; j = nextTag(src, j+2) {
		last = j
	}
	return last
}

// before returns the tokens that start before off.
func before(toks []hugoToken, off int) []hugoToken {
	var out []hugoToken
	for _, t := range toks {
		if t.pos < off {
			out = append(out, t)
		}
	}
	return out
}

func sameTokens(a, b []hugoToken) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// hugoVerdict compares kakehashi with Hugo on one case; "" when they
// agree. Without an error in Hugo, the tokens must be the same (text
// between tags compared as one token: Hugo splits off indentation and
// the pieces of a commented-out tag). With one, kakehashi must report an
// error in the same tag, the tokens before that tag must be the same,
// and inside it the tokens each read before its error must be the same
// as far as the shorter goes: Hugo stops at the first character it
// refuses, kakehashi may read the whole tag before it refuses it.
func hugoVerdict(c hugoCase) (verdict string, errMsg string) {
	src := []byte(c.input)
	var want []hugoToken
	hugoErr := -1
	for _, t := range c.tokens {
		if t.typ == "tError" {
			hugoErr = t.pos
			break
		}
		if t.typ == "tIndentation" {
			t.typ = "tText"
		}
		if k := len(want) - 1; t.typ == "tText" && k >= 0 && want[k].typ == "tText" {
			want[k].val += t.val
			continue
		}
		want = append(want, t)
	}
	got, errAt, msg := kakehashiTokens(src)
	switch {
	case hugoErr < 0 && errAt >= 0:
		return fmt.Sprintf("Hugo accepts it, kakehashi refuses it: %s", msg), msg
	case hugoErr < 0 && !sameTokens(got, want):
		return fmt.Sprintf("tokens differ:\nkakehashi %v\nHugo      %v", got, want), msg
	case hugoErr < 0:
		return "", msg
	case errAt < 0:
		return fmt.Sprintf("Hugo refuses it (%s), kakehashi accepts it: %v", c.tokens[len(c.tokens)-1].val, got), msg
	}
	tag, ourTag := tagAt(src, hugoErr), tagAt(src, errAt)
	if tag != ourTag {
		return fmt.Sprintf("errors in different tags: Hugo at offset %d, kakehashi %s", hugoErr, msg), msg
	}
	if a, b := before(got, tag), before(want, tag); !sameTokens(a, b) {
		return fmt.Sprintf("tokens before the failing tag differ:\nkakehashi %v\nHugo      %v", a, b), msg
	}
	a, b := got[len(before(got, tag)):], want[len(before(want, tag)):]
	n := min(len(a), len(b))
	if !sameTokens(a[:n], b[:n]) {
		return fmt.Sprintf("tokens in the failing tag differ:\nkakehashi %v\nHugo      %v", a, b), msg
	}
	return "", msg
}

// TestHugoLexer runs Hugo's shortcode lexer table (testdata/hugo-lexer/
// cases.txt, from Hugo v0.169.0) and inputs written for kakehashi with
// the tokens Hugo's lexer gives them (extra.txt): kakehashi lexes each as
// Hugo does, but for the differences listed in hugoDifferences, which must
// still differ (so the list stays true), and where Hugo refuses an input,
// kakehashi's message is the one hugoErrors pins.
func TestHugoLexer(t *testing.T) {
	for _, f := range []string{"cases.txt", "extra.txt"} {
		agree, total := 0, 0
		for _, c := range readHugoCases(t, filepath.Join("testdata", "hugo-lexer", f)) {
			total++
			t.Run(f+"/"+c.name, func(t *testing.T) {
				verdict, msg := hugoVerdict(c)
				if verdict == "" {
					agree++
				}
				if why, ok := hugoDifferences[c.name]; ok {
					if verdict == "" {
						t.Errorf("%s:%d: listed as a difference (%s), but kakehashi now lexes it as Hugo does", f, c.line, why)
					}
					return
				}
				if verdict != "" {
					t.Errorf("%s:%d: %q: %s", f, c.line, c.input, verdict)
				}
				hugoFails := c.tokens[len(c.tokens)-1].typ == "tError"
				if want, ok := hugoErrors[c.name]; hugoFails && (!ok || want != msg) {
					t.Errorf("%s:%d: kakehashi's message is %q, want %q", f, c.line, msg, want)
				}
			})
		}
		t.Logf("%s: %d of %d cases lex as in Hugo", f, agree, total)
	}
}

// hugoDifferences are the cases where kakehashi deliberately lexes
// differently from Hugo, each with its reason. Hugo refuses both inputs:
// no page that Hugo builds reads otherwise in kakehashi, so neither
// difference is a warning.
var hugoDifferences = map[string]string{
	// {{< sc1 a=b>}}
	"unquoted value ends at whitespace only": "an unquoted named value ends at a space or at the tag's closing delimiter; " +
		"Hugo reads \">}}\" into the value and then finds the tag unclosed",
	// {{< >}}
	"no name": "kakehashi's lexer refuses a tag without a name (\"missing shortcode name\"); " +
		"Hugo's lexer accepts it and hugolib then refuses it (\"shortcode has no name\")",
}

// hugoErrors pins kakehashi's message for each case Hugo refuses, at the
// place kakehashi reports it.
var hugoErrors = map[string]string{
	"mismatched rightDelim":                                          "p.md:1:9: shortcode opened with \"{{<\" must end with \">}}\"",
	"close, but no open":                                             "p.md:1:1: unexpected closing shortcode \"/sc1\": no {{< sc1 >}} is open",
	"close wrong":                                                    "p.md:1:12: unexpected closing shortcode \"/another\": no {{< another >}} is open",
	"close, but no open, more":                                       "p.md:1:24: unexpected closing shortcode \"/another\": no {{< another >}} is open",
	"close with extra keyword":                                       "p.md:1:21: closing shortcode \"sc1\" takes no arguments",
	"self-closing with extra keyword":                                "p.md:1:9: unexpected \"/\" in shortcode: a value holding \"/\" is quoted or named (src=a/b.png), and a self-closing shortcode ends with \"/>}}\"",
	"escaped quotes inside escaped quotes":                           "p.md:1:26: positional and named arguments cannot be mixed in \"sc1\"",
	"escaped raw string, named param":                                "p.md:1:16: invalid escape \"\\`\" in shortcode: a raw string is written `…`, with no backslash",
	"escaped raw string, positional param":                           "p.md:1:16: invalid escape \"\\`\" in shortcode: a raw string is written `…`, with no backslash",
	"unterminated quote":                                             "p.md:1:16: unterminated string",
	"unterminated raw string":                                        "p.md:1:8: unterminated raw string",
	"unterminated raw string in second argument":                     "p.md:1:21: unterminated raw string",
	"one named param, one not":                                       "p.md:1:30: positional and named arguments cannot be mixed in \"sc1\"",
	"one named param, one quoted positional param, both raw strings": "p.md:1:29: positional and named arguments cannot be mixed in \"sc1\"",
	"one named param, one quoted positional param":                   "p.md:1:30: positional and named arguments cannot be mixed in \"sc1\"",
	"one quoted positional param, one named param":                   "p.md:1:18: positional and named arguments cannot be mixed in \"sc1\"",
	"ono positional param, one not":                                  "p.md:1:16: positional and named arguments cannot be mixed in \"sc1\"",
	"commented out, missing close":                                   "p.md:1:1: unterminated shortcode comment: expected \"*/>}}\"",
	"commented out, misplaced close":                                 "p.md:1:1: unterminated shortcode comment: expected \"*/>}}\"",
	"inline with nested shortcode (not supported)":                   "p.md:1:30: shortcode \"sc1\" inside the inline shortcode \"sc1.inline\": an inline shortcode's inner text is its template, which holds no shortcode (Hugo refuses it too)",
	"inline case mismatch":                                           "p.md:1:8: unexpected \".\" in a shortcode name: only an inline shortcode's name, NAME.inline, holds one",
	"quoted string cannot span lines":                                "p.md:1:9: unterminated string",
	"escaped backquote in a quoted string":                           "p.md:1:11: invalid escape \"\\`\" in string: only \\\" is an escape",
	"named value starting with a backslash":                          "p.md:1:11: unexpected \"\\\" in the value of \"a\": a value that starts with a backslash is a string written \\\"…\\\"",
	"positional value with a slash":                                  "p.md:1:10: unexpected \"/\" in shortcode: a value holding \"/\" is quoted or named (src=a/b.png), and a self-closing shortcode ends with \"/>}}\"",
	"positional value with a hash":                                   "p.md:1:9: unexpected character '#' in shortcode; a value with characters other than letters, digits, \"-\", \"_\" and \".\" is quoted, or named (name=value)",
	"positional value with a plus":                                   "p.md:1:9: unexpected character '+' in shortcode; a value with characters other than letters, digits, \"-\", \"_\" and \".\" is quoted, or named (name=value)",
	"positional value starting with a period":                        "p.md:1:9: unexpected character '.' in shortcode; a value with characters other than letters, digits, \"-\", \"_\" and \".\" is quoted, or named (name=value)",
	"positional value with an at sign":                               "p.md:1:10: unexpected character '@' in shortcode; a value with characters other than letters, digits, \"-\", \"_\" and \".\" is quoted, or named (name=value)",
	"name starting with a hyphen":                                    "p.md:1:5: expected a shortcode name, found '-'",
	"name with a period":                                             "p.md:1:8: unexpected \".\" in a shortcode name: only an inline shortcode's name, NAME.inline, holds one",
	"unterminated at the end":                                        "p.md:1:12: unterminated shortcode: expected \">}}\"",
	"unterminated quoted string":                                     "p.md:1:9: unterminated string",
}
