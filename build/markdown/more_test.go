package markdown

import "testing"

// TestDividerRendersNothing: Hugo's summary divider, <!--more-->, renders
// as nothing wherever it stands, and what follows it on its line is
// rendered (it used to make its line a raw HTML block, omitted whole);
// in code it is code.
func TestDividerRendersNothing(t *testing.T) {
	r := New(Options{})
	tests := []struct{ name, src, want string }{
		{"alone on its line", "Intro.\n\n<!--more-->\n\nRest.\n", "<p>Intro.</p>\n<p>Rest.</p>\n"},
		{"right after a paragraph", "Intro.\n<!--more-->\nRest.\n", "<p>Intro.</p>\n<p>Rest.</p>\n"},
		{"text after it on its line", "Intro.\n\n<!--more-->Rest *here*.\n", "<p>Intro.</p>\n<p>Rest <em>here</em>.</p>\n"},
		{"spaces after it", "<!--more-->   Rest.\n", "<p>Rest.</p>\n"},
		{"a heading after it", "<!--more--># Rest\n", "<h1 id=\"rest\">Rest</h1>\n"},
		{"its line's paragraph goes on", "<!--more-->Rest\nand more.\n\nNext.\n", "<p>Rest\nand more.</p>\n<p>Next.</p>\n"},
		{"inside a line", "Some text.<!--more-->Some more.\n", "<p>Some text.Some more.</p>\n"},
		{"indented", "   <!--more-->Rest.\n", "<p>Rest.</p>\n"},
		{"in a list item", "- a\n\n  <!--more-->b\n", "<ul>\n<li>\n<p>a</p>\n<p>b</p>\n</li>\n</ul>\n"},
		{"in a code span", "`<!--more-->`\n", "<p><code>&lt;!--more--&gt;</code></p>\n"},
		{"another comment stays raw HTML", "<!-- note -->\n", "<!-- raw HTML omitted -->\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := render(t, r, tt.src)
			if string(res.HTML) != tt.want {
				t.Errorf("HTML\n%s\nwant\n%s", res.HTML, tt.want)
			}
			if len(res.Diags) > 0 {
				t.Errorf("diagnostics %v", res.Diags)
			}
		})
	}
}

// TestSummary: a page's summary, as Hugo makes it from its divider, is
// the plain text before the first divider that is not in code.
func TestSummary(t *testing.T) {
	tests := []struct {
		name, src, want string
		ok              bool
	}{
		{"no divider", "Intro.\n\nRest.\n", "", false},
		{"a divider", "Intro *text* with `code`.\n\nAnd [a link](/x/).\n\n<!--more-->\n\nRest.\n", "Intro text with code. And a link.", true},
		{"text after it on its line is not in it", "Intro.\n<!--more-->{{< sc >}} after\n", "Intro.", true},
		{"inside a line", "Some text.<!--more-->Some more.\n", "Some text.", true},
		{"at the top", "<!--more-->\nRest.\n", "", true},
		{"only the first counts", "A.\n<!--more-->\nB.\n<!--more-->\nC.\n", "A.", true},
		{"in code only", "```\n<!--more-->\n```\n\n`<!--more-->`\n", "", false},
		{"code before it is not in it", "A.\n\n```\ncode\n```\n\n<!--more-->\n", "A.", true},
		{"shortcode tags are left out, their text kept", "See {{< part 2 >}} and {{% callout %}}\n*this*\n{{% /callout %}}\n\n<!--more-->\n", "See and this", true},
		{"a literal tag shows as written", "Write {{</* part 2 */>}}.\n<!--more-->\n", "Write {{< part 2 >}}.", true},
		{"Japanese lines join without a space", "前半の\n文章です。\n\n<!--more-->\n", "前半の文章です。", true},
		{"Korean lines join with a space", "앞부분\n문장입니다.\n\n<!--more-->\n", "앞부분 문장입니다.", true},
		{"entities", "A &amp; B &lt;c&gt;\n<!--more-->\n", "A & B <c>", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Summary([]byte(tt.src))
			if got != tt.want || ok != tt.ok {
				t.Errorf("Summary = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
