package shortcodes

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// TestHugoSyntaxInPages: what Hugo's lexer accepts works in a page too
// (tags over several lines, standing alone, in a paragraph, in a list,
// ending a paragraph's line with ">}}"), its positions right on later
// lines, and where a page holds what Hugo reads but kakehashi does not
// run, or what likely means other than it reads, a warning says so.
func TestHugoSyntaxInPages(t *testing.T) {
	part2 := `<a class="part-ref" href="/ja/cka/02-control-plane/">#2 コントロールプレーン</a>`
	tests := []struct {
		name, src, html string
		diags           []string
	}{
		{"a tag over several lines", "{{< figure\n  src=\"a.png\"\n  alt=\"A\"\n  caption=\"C\"\n>}}\n",
			"<figure class=\"figure\">\n<img src=\"a.png\" alt=\"A\">\n<figcaption>C</figcaption>\n</figure>\n", nil},
		{"with CRLF", "{{< figure\r\n  src=\"a.png\"\r\n  alt=\"A\"\r\n>}}\r\n",
			"<figure class=\"figure\">\n<img src=\"a.png\" alt=\"A\">\n</figure>\n", nil},
		{"after a line of a paragraph", "Before.\n{{< figure\n  src=\"a.png\"\n  alt=\"A\"\n>}}\nAfter.\n",
			"<p>Before.</p>\n<figure class=\"figure\">\n<img src=\"a.png\" alt=\"A\">\n</figure>\n<p>After.</p>\n", nil},
		{"in a paragraph", "See {{< part\n  2 >}} now.\n", "<p>See " + part2 + " now.</p>\n", nil},
		{"in a paragraph, >}} starting a line", "See {{< part\n  2\n>}} now.\n", "<p>See " + part2 + " now.</p>\n", nil},
		{"in a paragraph, >}} alone on a line", "See {{< part\n  2\n>}}\nnext line.\n", "<p>See " + part2 + "\nnext line.</p>\n", nil},
		{"a pair whose opening tag spans lines", "{{% callout\n  kind=\"tip\" %}}\n*inner*\n{{% /callout %}}\n",
			"<aside class=\"callout callout-tip\" role=\"note\">\n<p class=\"callout-title\">ヒント</p>\n<p><em>inner</em></p>\n</aside>\n", nil},
		{"a closing tag over two lines", "{{% callout %}}\ninner\n{{% /callout\n%}}\n",
			"<aside class=\"callout callout-note\" role=\"note\">\n<p class=\"callout-title\">メモ</p>\n<p>inner</p>\n</aside>\n", nil},
		{"in list items", "- item {{< part\n  2 >}}\n- {{< figure\n    src=\"a.png\" alt=\"A\" >}}\n",
			"<ul>\n<li>item " + part2 + "</li>\n<li>\n<figure class=\"figure\">\n<img src=\"a.png\" alt=\"A\">\n</figure>\n</li>\n</ul>\n", nil},
		{"a literal over two lines", "a {{</* part\n  2 */>}} b\n", "<p>a {{&lt; part\n2 &gt;}} b</p>\n", nil},
		{"Hugo's argument syntax", "{{< figure src=img/a.png alt=`the \"A\"` caption=\"say \\\"hi\\\"\" >}}\n",
			"<figure class=\"figure\">\n<img src=\"img/a.png\" alt=\"the &#34;A&#34;\">\n<figcaption>say &#34;hi&#34;</figcaption>\n</figure>\n", nil},
		// Hugo's parser/pageparser/pageparser_intro_test.go (v0.169.0),
		// "Summary and shortcode, no space" and "Summary and shortcode
		// only": the divider renders nothing, the calls are kept (a call
		// alone on its line stands apart, as everywhere in kakehashi).
		{"a shortcode right after the summary divider", "Some text.\n<!--more-->{{< part 2 >}}\nSome text.\n",
			"<p>Some text.</p>\n" + part2 + "<p>Some text.</p>\n", nil},
		{"a shortcode and text after the summary divider", "Some text.\n<!--more-->{{< part 2 >}} and more.\n",
			"<p>Some text.</p>\n<p>" + part2 + " and more.</p>\n", nil},
		{"shortcodes around the summary divider", "{{< part 2 >}}\n<!--more-->\n{{< part 2 >}}", part2 + part2, nil},
		{"an error on a later line", "text\n\n{{< figure\n  src=\"a.png\"\n  alt=\"A\" # >}}\n", "<p>text</p>\n<p>{{&lt; figure\nsrc=&quot;a.png&quot;\nalt=&quot;A&quot; # &gt;}}</p>\n",
			[]string{`p.md:5:11: unexpected character '#' in shortcode; a value with characters other than letters, digits, "-", "_" and "." is quoted, or named (name=value)`}},
		{"an argument error on a later line", "{{< figure\n  src=\"a.png\"\n  width=\"wide\" >}}\n", "",
			[]string{`p.md:3:3: argument "width" of "figure" must be an integer (or a string of one), got string "wide"`}},
		{"across a blank line", "a {{< part\n\n2 >}} b\n", "<p>a {{&lt; part</p>\n<p>2 &gt;}} b</p>\n",
			[]string{`p.md:1:11: unterminated shortcode: expected ">}}" before the end of the paragraph: a tag may span lines, but not a blank line (Hugo's may) nor the start of another block`}},
		{"a raw string across a blank line", "a {{< part `x\n\ny` >}}\n", "<p>a {{&lt; part `x</p>\n<p>y` &gt;}}</p>\n",
			[]string{"p.md:1:12: unterminated raw string before the end of the paragraph: a tag may span lines, but not a blank line (Hugo's may) nor the start of another block"}},
		{"an argument given twice", "a {{< part n=7 n=2 >}}\n", "<p>a " + part2 + "</p>\n",
			[]string{`p.md:1:16: warning: argument "n" is given twice; the last value counts, as in Hugo`}},
		{"an inline shortcode", "{{< hi.inline \"x\" >}}Hi {{ .Get 0 }}{{< /hi.inline >}}\n\n{{< hi.inline \"y\" />}}\n", "<p></p>\n",
			[]string{
				`p.md:1:1: warning: inline shortcode "hi.inline" renders nothing: kakehashi runs no template written in a page, as Hugo without enableInlineShortcodes; make it a site template, shortcodes/hi.html, and call it {{< hi >}}`,
				`p.md:3:1: warning: inline shortcode "hi.inline" renders nothing: kakehashi runs no template written in a page, as Hugo without enableInlineShortcodes; make it a site template, shortcodes/hi.html, and call it {{< hi >}}`}},
		{"a shortcode inside an inline shortcode", "{{< x.inline >}}\n{{< part 2 >}}\n{{< /x.inline >}}\n", "",
			[]string{
				`p.md:1:1: warning: inline shortcode "x.inline" renders nothing: kakehashi runs no template written in a page, as Hugo without enableInlineShortcodes; make it a site template, shortcodes/x.html, and call it {{< x >}}`,
				`p.md:2:1: shortcode "part" inside the inline shortcode "x.inline": an inline shortcode's inner text is its template, which holds no shortcode (Hugo refuses it too)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := render(t, NewRegistry(), "ja", tt.src)
			if got := headers(res); strings.Join(got, "\n") != strings.Join(tt.diags, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.diags, "\n"))
			}
			if tt.html != "" && string(res.HTML) != tt.html {
				t.Errorf("HTML:\n%s\nwant:\n%s", res.HTML, tt.html)
			}
		})
	}
}

// TestHugoLexerCasesInPages renders as a page every input of the lexer
// cases (testdata/hugo-lexer) that Hugo accepts, each name a site
// template: kakehashi accepts it too, and calls the templates with the
// arguments Hugo reads, but where hugoPageDifferences says why not.
func TestHugoLexerCasesInPages(t *testing.T) {
	agree, total := 0, 0
	for _, f := range []string{"cases.txt", "extra.txt"} {
		for _, c := range readHugoCases(t, filepath.Join("testdata", "hugo-lexer", f)) {
			if c.tokens[len(c.tokens)-1].typ == "tError" {
				continue
			}
			total++
			t.Run(f+"/"+c.name, func(t *testing.T) {
				got, want := pageCalls(t, c)
				why, differs := hugoPageDifferences[c.name]
				switch {
				case got == want && differs:
					t.Errorf("%s:%d: listed as a difference (%s), but the page now reads as in Hugo", f, c.line, why)
				case got == want:
					agree++
				case !differs:
					t.Errorf("%s:%d: %q as a page:\n%s\nwant (Hugo's calls)\n%s", f, c.line, c.input, got, want)
				}
			})
		}
	}
	t.Logf("%d of %d inputs Hugo accepts read as in Hugo in a page", agree, total)
	if n := len(hugoPageDifferences); total-agree != n {
		t.Errorf("%d inputs differ, %d differences listed: each listed one names an input Hugo accepts", total-agree, n)
	}
}

// hugoPageDifferences are the lexer cases Hugo accepts that a page reads
// otherwise, each with its reason.
var hugoPageDifferences = map[string]string{
	"indented on first line": "a first line indented by four spaces is an indented code block, which shows its shortcodes as written",
	"no name":                "kakehashi refuses a tag without a name (so does hugolib, after its lexer)",
}

// pageCalls renders the input of c as a page in which every shortcode
// name of c is a site template, and returns the calls the page made, each
// with its arguments and their kinds, and its errors; and the calls that
// Hugo's tokens stand for.
func pageCalls(t *testing.T, c hugoCase) (got, want string) {
	t.Helper()
	names := map[string]bool{} // name → takes inner content
	var calls []string
	var cur []string
	for i, tk := range c.tokens {
		switch tk.typ {
		case "tScName", "tScNameInline":
			if i > 0 && c.tokens[i-1].typ == "tScClose" {
				names[tk.val] = true // a closing tag
				cur = nil
				continue
			}
			if _, ok := names[tk.val]; !ok {
				names[tk.val] = false
			}
			cur = []string{tk.val}
		case "tScParam", "tScParamVal":
			if tk.kind == "" {
				cur = append(cur, tk.val+"=")
			} else {
				cur = append(cur, hugoValue(tk.val, tk.kind))
			}
		case "tRightDelimScNoMarkup", "tRightDelimScWithMarkup":
			if cur != nil && !isInline(cur[0]) {
				calls = append(calls, strings.Join(cur, " "))
			}
			cur = nil
		}
	}
	reg := NewRegistry()
	var made []string
	for name, inner := range names {
		if isInline(name) {
			continue
		}
		reg.Add(&Shortcode{Name: name, AnyArgs: true, Inner: inner, Render: func(w io.Writer, ctx *Context) error {
			parts := []string{name}
			for _, a := range ctx.Call.Args {
				if a.Name != "" {
					parts = append(parts, a.Name+"=")
				}
				parts = append(parts, fmt.Sprintf("%v:%s", a.Value.Any(), hugoKind(a.Value.Kind)))
			}
			made = append(made, strings.Join(parts, " "))
			_, err := io.WriteString(w, string(ctx.Inner()))
			return err
		}})
	}
	res := render(t, reg, "ja", c.input)
	for _, d := range res.Diags {
		if d.Severity == diag.Error {
			made = append(made, d.Header())
		}
	}
	return strings.Join(made, "\n"), strings.Join(calls, "\n")
}

// hugoValue prints a value of Hugo's tokens as pageCalls prints kakehashi's.
func hugoValue(val, kind string) string {
	switch kind {
	case "int":
		n, _ := strconv.ParseInt(val, 10, 64)
		return fmt.Sprintf("%d:int", n)
	case "float":
		f, _ := strconv.ParseFloat(val, 64)
		return fmt.Sprintf("%v:float", f)
	}
	return val + ":" + kind
}
