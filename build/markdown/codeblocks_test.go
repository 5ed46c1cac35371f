package markdown

import (
	"context"
	"slices"
	"strings"
	"testing"
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
		lang, title, hl := parseInfo([]byte(tt.info), 3, 3, e)
		if lang != tt.lang || title != tt.title || !slices.Equal(hl, tt.hl) {
			t.Errorf("parseInfo(%s) = %q, %q, %v; want %q, %q, %v", tt.info, lang, title, hl, tt.lang, tt.title, tt.hl)
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
