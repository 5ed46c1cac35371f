package markdown

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// stairs nests depth levels, one more on each line: line i repeats cont
// i times (what continues the levels above) then opens one with open.
func stairs(depth int, cont, open string) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(cont, i) + open + "x\n")
	}
	return b.String()
}

// mixedStairs alternates list items and block quotes, one level a line.
func mixedStairs(depth int) string {
	var b, prefix strings.Builder
	for i := range depth {
		b.WriteString(prefix.String())
		if i%2 == 0 {
			b.WriteString("- x\n")
			prefix.WriteString("  ")
		} else {
			b.WriteString("> x\n")
			prefix.WriteString("> ")
		}
	}
	return b.String()
}

// TestTooDeep checks the scan that bounds nesting: depth MaxNesting
// passes, one more is found at the marker opening it, fenced code is not
// counted, and ordinary text is never too deep.
func TestTooDeep(t *testing.T) {
	const n = MaxNesting
	fenced := "```\n" + strings.Repeat("- ", n+5) + "x\n```\n"
	tests := []struct {
		name      string
		src       string
		line, col int // 0: not too deep
	}{
		{"list by indentation at the limit", stairs(n, "  ", "- "), 0, 0},
		{"list by indentation past it", stairs(n+1, "  ", "- "), n + 1, 2*n + 1},
		// Three columns a level count as one and a half: over, never under.
		{"ordered list by three columns", stairs(n+1, "   ", "1. "), 68, 3*67 + 1},
		{"markers on one line at the limit", strings.Repeat("- ", n) + "x\n", 0, 0},
		{"markers on one line past it", "text\n\n" + strings.Repeat("- ", n+1) + "x\n", 3, 2*n + 1},
		{"quotes on one line at the limit", strings.Repeat("> ", n) + "x\n", 0, 0},
		{"quotes on one line past it", strings.Repeat(">", n+1) + "x\n", 1, n + 1},
		{"quotes line by line past it", stairs(n+1, "> ", "> "), n + 1, 2*n + 1},
		{"mixed on one line past it", strings.Repeat("- > ", n/2) + "* x\n", 1, 2*n + 1},
		{"mixed line by line at the limit", mixedStairs(n), 0, 0},
		{"mixed line by line past it", mixedStairs(n + 1), n + 1, 2*n + 1},
		{"footnotes past it", stairs(n+1, "    ", "[^a]: "), n/2 + 1, 4*(n/2) + 1},
		{"tab indentation counts its columns", stairs(n/2+1, "\t", "- "), n/2 + 1, n/2 + 1},
		{"fenced code is not counted", fenced, 0, 0},
		{"tilde fence", "~~~~\n" + strings.Repeat("> ", n+1) + "\n~~~\n~~~~\n", 0, 0},
		{"counting resumes after the fence", fenced + strings.Repeat("> ", n+1) + "x\n", 4, 2*n + 1},
		{"a fence that is code inline is no fence", "```x`\n" + strings.Repeat("> ", n+1) + "\n```\n", 2, 2*n + 1},
		{"an indented fence may end with its list", "- a\n  ```\n" + strings.Repeat("- ", n+1) + "\n  ```\n", 3, 2*n + 1},
		{"a fence after HTML may be text", "<div>\n```\n" + strings.Repeat("- ", n+1) + "\n```\n", 3, 2*n + 1},
		{"thematic breaks, negative numbers, emphasis", strings.Repeat("-1 *a* **b** ---\n", 3*n), 0, 0},
		{"indented text is not nesting", strings.Repeat(" ", 4*n) + "x\n", 0, 0},
		{"wide but shallow", strings.Repeat("- a\n  - b\n    > c\n\n", 5*n), 0, 0},
		{"course-like prose", "## 見出し\n\n本文です。\n\n1. 手順\n   - 補足\n\n> 引用\n>\n> 続き\n", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{})
			front := "---\ntitle: t\n---\n"
			src := front + tt.src
			res := r.Render(context.Background(), Doc{Path: "p.md", Src: []byte(src), BodyStart: len(front)}, Env{Lang: "ja"})
			var got []string
			for _, d := range res.Diags {
				if strings.Contains(d.Msg, "nested deeper") {
					got = append(got, d.Header())
				}
			}
			if tt.line == 0 {
				if len(got) > 0 || len(res.HTML) == 0 {
					t.Errorf("too deep: %v", got)
				}
				return
			}
			want := "p.md:" + strconv.Itoa(tt.line+3) + ":" + strconv.Itoa(tt.col) + ": lists and block quotes nested deeper than 100 levels: "
			if len(got) != 1 || !strings.HasPrefix(got[0], want) || len(res.HTML) != 0 {
				t.Errorf("got %q (HTML %d bytes), want one %q…", got, len(res.HTML), want)
			}
		})
	}
}

// goldmarkDepth is how deep goldmark nests list items, block quotes and
// footnote definitions in src.
func goldmarkDepth(md goldmark.Markdown, src []byte) int {
	deepest := 0
	var walk func(n ast.Node, d int)
	walk = func(n ast.Node, d int) {
		switch n.Kind() {
		case ast.KindListItem, ast.KindBlockquote, east.KindFootnote:
			d++
		}
		deepest = max(deepest, d)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c, d)
		}
	}
	walk(md.Parser().Parse(text.NewReader(src)), 0)
	return deepest
}

// FuzzNesting checks the nesting scan against goldmark with a small
// limit: when the scan finds nothing deeper than the limit, goldmark
// nests no deeper either, and what the scan reports lies in the input.
func FuzzNesting(f *testing.F) {
	for _, s := range []string{
		stairs(6, "  ", "- "), stairs(5, "> ", "> "), mixedStairs(7), "- - - - - x\n",
		stairs(4, "    ", "[^a]: "), "- a\n  ```\n- - - -\n  ```\n", "> ```\n- - - -\n",
		"1.   a\n    1.   b\n\t- c\n", "<div>\n```\n- - - - x\n```\n", "- a\nb\n  - c\n    - d\n",
	} {
		f.Add(s)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.Footnote))
	f.Fuzz(func(t *testing.T, s string) {
		const limit = 3
		src := []byte(s)
		off := tooDeep(src, limit)
		if off >= len(src) || off < -1 {
			t.Fatalf("offset %d outside the input", off)
		}
		if off < 0 {
			if d := goldmarkDepth(md, src); d > limit {
				t.Fatalf("scan found nothing deeper than %d, goldmark nests %d deep:\n%s", limit, d, s)
			}
		}
	})
}
