package markdown

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// TestInfoString pins how a fence's info string is read: CommonMark's
// backslash escapes and character references resolved in the language and
// in the attributes' values, and the attributes still found.
func TestInfoString(t *testing.T) {
	tests := []struct {
		info, lang, title string
		hl                []int
		warn              string // a warning's text, "" for none
	}{
		{info: "", lang: "text"},
		{info: `foo\+bar`, lang: "foo+bar"},
		{info: "f&ouml;&ouml;", lang: "föö"},
		{info: `\&ouml;`, lang: "&ouml;"},
		{info: "&#35;&#x41;&#0;&nosuch;", lang: "#A\uFFFD&nosuch;"},
		{info: `c\d`, lang: `c\d`}, // a letter is not escaped
		{info: `bash {title="join.sh" hl_lines="2-3"}`, lang: "bash", title: "join.sh", hl: []int{2, 3}},
		{info: `bash{title=x.sh}`, lang: "bash", title: "x.sh"},
		{info: `a\{b {title="x"}`, lang: "a{b", title: "x"},
		{info: `sh {title="say \"hi\" &amp; go" hl_lines="1"}`, lang: "sh", title: `say "hi" & go`, hl: []int{1}},
		{info: `sh {title=a\_b}`, lang: "sh", title: "a_b"},
		{info: `sh {title="C:\Users\"}`, lang: "sh", warn: "unterminated quoted value"},
		{info: `ruby startline=3`, lang: "ruby", warn: "expected {key="},
	}
	for _, tt := range tests {
		src := "```" + tt.info + "\na\nb\nc\n```\n"
		var res Result
		env := Env{Lang: "en"}
		res = New(Options{}).Render(context.Background(), Doc{Path: "x.md", Src: []byte(src)}, env)
		var warns []string
		for _, d := range res.Diags {
			warns = append(warns, d.Error())
		}
		if w := strings.Join(warns, "; "); tt.warn == "" && w != "" || !strings.Contains(w, tt.warn) {
			t.Errorf("%s: warnings %q, want %q", tt.info, w, tt.warn)
		}
		e := &env
		e.st = &docState{ctx: context.Background(), path: "x.md", full: []byte(src), body: []byte(src)}
		o := parseInfo([]byte(tt.info), 3, 3, e)
		if o.lang != tt.lang || o.title != tt.title || !slices.Equal(o.lines, tt.hl) {
			t.Errorf("parseInfo(%s) = %q, %q, %v; want %q, %q, %v", tt.info, o.lang, o.title, o.lines, tt.lang, tt.title, tt.hl)
		}
	}
}

// TestTrailingBlankLines pins that a fenced block keeps the blank lines
// it ends with (GFM spec example 298), in its <pre> and in what the
// copy button copies, while a block ending in code gains no newline.
func TestTrailingBlankLines(t *testing.T) {
	tests := []struct {
		src, code, copy string // copy: data-copy, "" for none
	}{
		{src: "```\naaa\n```\n", code: "aaa"},
		{src: "```\naaa\n\n```\n", code: "aaa\n\n", copy: "aaa"},
		{src: "```\naaa\n\n\n```\n", code: "aaa\n\n\n", copy: "aaa"},
		{src: "```\n\n  \n```\n", code: "\n  "},
		{src: "```\n\n```\n", code: "\n", copy: ""},
		{src: "```\n```\n", code: ""},
		{src: "```go\nx\n\n```\n", code: `<span class="nx">x</span><span class="w">` + "\n</span><span class=\"w\">\n</span>", copy: "x"},
		{src: "    aaa\n    \n", code: "aaa"}, // indented: trailing blank lines are not part of it
	}
	for _, tt := range tests {
		res := New(Options{}).Render(context.Background(), Doc{Path: "x.md", Src: []byte(tt.src)}, Env{Lang: "en"})
		h := string(res.HTML)
		_, rest, _ := strings.Cut(h, "<code>")
		code, _, _ := strings.Cut(rest, "</code>")
		if code != tt.code {
			t.Errorf("%q: <code> holds %q, want %q", tt.src, code, tt.code)
		}
		_, attr, hasCopy := strings.Cut(h, ` data-copy="`)
		attr, _, _ = strings.Cut(attr, `"`)
		if want := tt.copy != "" || tt.code == "\n"; hasCopy != want || attr != tt.copy {
			t.Errorf("%q: data-copy %v %q, want %v %q", tt.src, hasCopy, attr, want, tt.copy)
		}
	}
}

// TestLineNumbers pins Hugo's line number options in a fence: linenos in
// its forms (true is a table unless linenumbersintable=false),
// linenostart, anchorlinenos with Hugo's ids (hl-ORDINAL-LINE, the
// ordinal among the page's fenced blocks) or lineanchors', hl_lines as a
// string and as a list counted from the block's first line, the comma
// separated form Hugo's docs write, and what copy copies.
func TestLineNumbers(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // in the HTML
		wantNot   []string
		warn      string // a warning's text, "" for none
	}{
		{name: "table", src: "```go {linenos=table}\na\nb\n```\n",
			want:    []string{`<div class="chroma" tabindex="0">`, `<td class="lntd" aria-hidden="true">`, `<span class="lnt">1` + "\n</span>", `<span class="lnt">2` + "\n</span>"},
			wantNot: []string{"data-copy", `<pre class="chroma" tabindex="0">`}},
		{name: "true is a table", src: "```go {linenos=true}\na\n```\n", want: []string{`<table class="lntable"`}},
		{name: "true inline", src: "```go {linenos=true linenumbersintable=false}\na\n```\n",
			want: []string{`<span class="ln">1</span>`, `data-copy="a"`}, wantNot: []string{"<table"}},
		{name: "inline copies the code alone", src: "```text {linenos=inline}\nx\ny\n```\n",
			want: []string{`data-copy="x` + "\ny" + `"`, `<span class="ln">1</span><span class="cl">x`}},
		{name: "false", src: "```go {linenos=false}\na\n```\n", wantNot: []string{`class="ln`, "<table"}},
		{name: "Hugo's case", src: "```go {lineNos=inline lineNoStart=7 hl_Lines=2}\na\nb\n```\n",
			want: []string{`<span class="ln">7</span>`, `<span class="line hl"><span class="ln">8</span>`}},
		{name: "comma separated, list hl_lines, start", src: "```go {linenos=table,hl_lines=[1,\"3-4\"],linenostart=199}\na\nb\nc\nd\n```\n",
			want: []string{`<span class="hl"><span class="lnt">199`, `<span class="lnt">200`, `<span class="hl"><span class="lnt">201`, `<span class="hl"><span class="lnt">202`}},
		{name: "anchors, by the fenced block's ordinal", src: "```\nfirst\n```\n\n    indented\n\n```go {linenos=table anchorlinenos=true}\na\n```\n",
			want: []string{`<span class="lnt" id="hl-1-1"><a class="lnlinks" href="#hl-1-1">1</a>`}, wantNot: []string{"aria-hidden"}},
		{name: "anchors, a prefix of one's own", src: "```go {linenos=inline anchorlinenos=true lineanchors=setup}\na\n```\n",
			want: []string{`<span class="ln" id="setup-1"><a class="lnlinks" href="#setup-1">1</a></span>`}},
		{name: "anchors without numbers", src: "```go {anchorlinenos=true}\na\n```\n", wantNot: []string{"id="}},
		{name: "a bad prefix", src: "```go {linenos=inline anchorlinenos=true lineanchors=\"a b\"}\na\n```\n",
			want: []string{`id="hl-0-1"`}, warn: `lineanchors takes a prefix of letters, digits, "-" and "_" for the lines' ids, not "a b"`},
		{name: "a bad linenos", src: "```go {linenos=yes}\na\n```\n", want: []string{"<table"}, warn: `linenos takes true, false, table or inline; "yes" is read as true, as Hugo reads it`},
		{name: "a bad start", src: "```go {linenos=inline linenostart=x}\na\n```\n", want: []string{`<span class="ln">1</span>`}, warn: `linenostart takes the first line's number, 0 or more, not "x"`},
		{name: "a bad boolean", src: "```go {anchorlinenos=1}\na\n```\n", warn: `anchorlinenos takes true or false, not "1"`},
		{name: "a bad list item", src: "```go {hl_lines=[1,x]}\na\n```\n", warn: `hl_lines: bad line or range "x"`},
		{name: "an unterminated list", src: "```go {hl_lines=[1,2}\na\n```\n", warn: `unterminated list for "hl_lines"`},
		{name: "hl_lines with commas, bare", src: "```go {hl_lines=1,2}\na\nb\n```\n", want: []string{`<span class="line hl"><span class="cl"><span class="nx">b`}},
		{name: "still unsupported", src: "```go {style=emacs}\na\n```\n", warn: `Hugo's highlight option "style" is not supported and is ignored`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := New(Options{}).Render(context.Background(), Doc{Path: "x.md", Src: []byte(tt.src)}, Env{Lang: "en"})
			h := string(res.HTML)
			for _, w := range tt.want {
				if !strings.Contains(h, w) {
					t.Errorf("HTML lacks %q:\n%s", w, h)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(h, w) {
					t.Errorf("HTML holds %q:\n%s", w, h)
				}
			}
			var warns []string
			for _, d := range res.Diags {
				warns = append(warns, d.Error())
			}
			if w := strings.Join(warns, "; "); tt.warn == "" && w != "" || !strings.Contains(w, tt.warn) {
				t.Errorf("diagnostics %q, want %q", w, tt.warn)
			}
		})
	}
}

// TestLineNumbersStyle: a page with numbered lines links their
// stylesheet, once; a page without links none; a site whose files lack
// it is told at the first numbered block.
func TestLineNumbersStyle(t *testing.T) {
	r := New(Options{})
	numbered := "```go\na\n```\n\n```go {linenos=table}\na\n```\n\n```go {linenos=inline}\nb\n```\n"
	res := r.Render(context.Background(), Doc{Path: "x.md", Src: []byte(numbered)}, Env{Lang: "en"})
	if !slices.Equal(res.Styles, []string{LineNumbersStyle}) || len(res.Diags) > 0 {
		t.Errorf("numbered: styles %v, diagnostics %v", res.Styles, res.Diags)
	}
	res = r.Render(context.Background(), Doc{Path: "x.md", Src: []byte("```go {hl_lines=1}\na\n```\n")}, Env{Lang: "en"})
	if len(res.Styles) > 0 {
		t.Errorf("not numbered: styles %v", res.Styles)
	}
	none := func(ref string) (Asset, error) { return Asset{}, errors.New("no such file") }
	res = r.Render(context.Background(), Doc{Path: "x.md", Src: []byte(numbered)}, Env{Lang: "en", Assets: none})
	if len(res.Diags) != 1 || res.Diags[0].Header() != "x.md:5:1: code block: numbered lines need /css/linenos.css, which is no file static/css/linenos.css of the site or its theme" {
		t.Errorf("without the stylesheet: %v", res.Diags)
	}
}

// fakeSource stands for a code block of its own, as the highlight
// shortcode's calls do: a paragraph "HL OPTIONS" becomes one, before the
// code blocks extension sees it.
type fakeSource struct {
	ast.BaseBlock
	spec CodeSpec
}

var kindFakeSource = ast.NewNodeKind("FakeSource")

func (n *fakeSource) Kind() ast.NodeKind                   { return kindFakeSource }
func (n *fakeSource) Dump(src []byte, level int)           { ast.DumpHelper(n, src, level, nil, nil) }
func (n *fakeSource) CodeSpec(src []byte) (CodeSpec, bool) { return n.spec, n.spec.Lang != "bad" }
func (fakeSources) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(fakeSources{}, 55)))
}
func (fakeSources) Transform(d *ast.Document, r text.Reader, _ parser.Context) {
	src := r.Source()
	for c := d.FirstChild(); c != nil; c = c.NextSibling() {
		if p, ok := c.(*ast.Paragraph); ok && strings.HasPrefix(string(p.Lines().Value(src)), "HL ") {
			seg := p.Lines().At(0)
			opts := strings.TrimSpace(string(src[seg.Start+3 : seg.Stop]))
			n := &fakeSource{spec: CodeSpec{Lang: "go", Code: "a := 1\n[x](y.md) #3\nc\n", Options: opts, OptionsOff: seg.Start + 3}}
			d.ReplaceChild(d, p, n)
			c = n
		}
	}
}

type fakeSources struct{}

// TestCodeSource: a node that stands for a code block is one, numbered
// and highlighted by Hugo's options string, before links and "#N"
// references are looked for in its code; the options' problems are at
// their places.
func TestCodeSource(t *testing.T) {
	var dests []string
	link := func(dest string) LinkTarget { dests = append(dests, dest); return LinkTarget{} }
	r := New(Options{Extenders: []goldmark.Extender{fakeSources{}}})
	res := r.Render(context.Background(), Doc{Path: "x.md", Src: []byte("text\n\nHL linenos=inline, hl_lines=2 3,linenostart=5,nope\n")}, Env{Lang: "en", Link: link})
	h := string(res.HTML)
	for _, w := range []string{`<figure class="code" data-lang="go" data-copy="a := 1`, `<span class="ln">5</span>`, `<span class="line hl"><span class="ln">6</span>`, `<span class="line hl"><span class="ln">7</span>`} {
		if !strings.Contains(h, w) {
			t.Errorf("HTML lacks %q:\n%s", w, h)
		}
	}
	if len(dests) > 0 || strings.Contains(h, "part-ref") {
		t.Errorf("links in the code were looked for: %v\n%s", dests, h)
	}
	if len(res.Diags) != 1 || !strings.HasPrefix(res.Diags[0].Header(), `x.md:3:47: code block: attribute "nope" is not allowed (the highlight shortcode takes`) {
		t.Errorf("diagnostics: %v", res.Diags)
	}
	if !slices.Equal(res.Styles, []string{LineNumbersStyle}) {
		t.Errorf("styles %v", res.Styles)
	}
}

// TestShortcodesInCode: in code, blocks and spans, a literal shortcode
// shows as Hugo shows it, {{</* x */>}} as {{< x >}} (Hugo 0.111 renders
// each of these cases so), and a plain call, which kakehashi shows as
// written and Hugo expands, is a warning at its place.
func TestShortcodesInCode(t *testing.T) {
	tests := []struct {
		src, want string // want: the <code> elements' text, joined by "|"
		warn      string // the warning's header, "" for none
	}{
		{src: "```\n{{</* part 3 */>}} and {{%/* callout */%}}\n```\n", want: "{{&lt; part 3 &gt;}} and {{% callout %}}"},
		{src: "`{{</* x */>}}` and `{{</* y\nz */>}}`\n", want: "{{&lt; x &gt;}}|{{&lt; y z &gt;}}"},
		{src: "    {{</* ind\n    */>}}\n", want: "{{&lt; ind\n&gt;}}"},
		{src: "> ```\n> a {{</* q */>}} b\n> ```\n", want: "a {{&lt; q &gt;}} b"},
		{src: "- ```\n  {{</* li */>}}\n  ```\n", want: "{{&lt; li &gt;}}"},
		{src: "\t{{</* tab */>}}\n", want: "{{&lt; tab &gt;}}"},
		{src: "```\n{{</* open\n```\n", want: "{{&lt;/* open"}, // Hugo: "comment must be closed"
		{src: "`{{</* a */%}}`\n", want: "{{&lt;/* a */%}}"},   // closed by the other delimiter: none
		{src: "```\nx := {{< 3\n```\n", want: "x := {{&lt; 3"}, // no call: no warning
		{src: "```\necho\n{{< part 3 >}}\n```\n", want: "echo\n{{&lt; part 3 &gt;}}",
			warn: "x.md:3:1: warning: shortcode {{< part >}} in code is shown as written: kakehashi expands no shortcode in code, where Hugo expands it; write {{</* part */>}} to show it in Hugo too"},
		{src: "a `{{% /callout %}}`\n", want: "{{% /callout %}}",
			warn: "x.md:1:4: warning: shortcode {{% /callout %}} in code is shown as written: kakehashi expands no shortcode in code, where Hugo expands it; write {{%/* /callout */%}} to show it in Hugo too"},
	}
	for _, tt := range tests {
		res := New(Options{}).Render(context.Background(), Doc{Path: "x.md", Src: []byte(tt.src)}, Env{Lang: "en"})
		var codes []string
		for rest := string(res.HTML); ; {
			_, after, ok := strings.Cut(rest, "<code>")
			if !ok {
				break
			}
			code, tail, _ := strings.Cut(after, "</code>")
			codes, rest = append(codes, code), tail
		}
		if got := strings.Join(codes, "|"); got != tt.want {
			t.Errorf("%q: code %q, want %q", tt.src, got, tt.want)
		}
		var warns []string
		for _, d := range res.Diags {
			warns = append(warns, d.Header())
		}
		if got := strings.Join(warns, "; "); got != tt.warn {
			t.Errorf("%q: diagnostics %q, want %q", tt.src, got, tt.warn)
		}
	}
}
