package markdown_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"

	. "github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// BenchmarkPathological renders inputs that once took time growing with
// the square of their size (many diagnostics, duplicate headings, deep or
// unclosed shortcode pairs, long lines of shortcodes). Each should stay
// linear: compare ns/op across sizes with -bench Pathological.
func BenchmarkPathological(b *testing.B) {
	r := New(Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	env := Env{Lang: "ja", Parts: func(n int) (PartLink, bool) { return PartLink{}, false }}
	cases := []struct{ name, unit string }{
		{"missing-parts", "#9 "},
		{"inline-shortcodes", "{{< part 9 >}} "},
		{"unclosed-pairs", "{{% callout %}}\n"},
		{"unclosed-details", "{{< details >}}\nx\n"},
		{"duplicate-headings", "## same\n"},
		{"open-links", "[a]("},
		{"unknown-shortcodes", "{{< nope >}}\n\n"},
	}
	for _, c := range cases {
		for _, n := range []int{500, 2000} {
			src := []byte(strings.Repeat(c.unit, n))
			b.Run(c.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					r.Render(context.Background(), Doc{Path: "x.md", Src: src}, env)
				}
			})
		}
	}
}

// BenchmarkPathologicalNesting renders pages nested far deeper than
// MaxNesting, which goldmark parses in time growing with the square of
// the depth (or worse), against a page as big but shallow. A page past the
// limit is refused by a linear scan before goldmark sees it.
func BenchmarkPathologicalNesting(b *testing.B) {
	r := New(Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	env := Env{Lang: "ja", Parts: func(n int) (PartLink, bool) { return PartLink{}, false }}
	cases := []struct {
		name string
		src  string
	}{
		{"list-at-limit/100", Stairs(MaxNesting, "  ", "- ")},
		{"list/2500", Stairs(2500, "  ", "- ")},
		{"quotes/2500", Stairs(2500, "> ", "> ")},
		{"mixed/2500", MixedStairs(2500)},
		{"one-line-list/2500", strings.Repeat("- ", 2500) + "x\n"},
		{"nested-shortcodes/10000", nestedShortcodes(10000)},
		{"nested-inline-shortcodes/10000", strings.Repeat("{{< details x >}}", 10000) + "{{< part oops >}}" + strings.Repeat("{{< /details >}}", 10000)},
		{"wide-page", widePage(6 << 20)},
	}
	for _, c := range cases {
		src := []byte(c.src)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				r.Render(context.Background(), Doc{Path: "x.md", Src: src}, env)
			}
		})
	}
}

// nestedShortcodes nests n callouts, each tag on its own line, with one
// mistake (an unknown kind) in the middle.
func nestedShortcodes(n int) string {
	return strings.Repeat("{{% callout %}}\n", n/2) + "{{% callout kind=\"oops\" %}}\n" +
		strings.Repeat("{{% callout %}}\n", n-n/2-1) + "x\n" + strings.Repeat("{{% /callout %}}\n", n)
}

// widePage is about size bytes of ordinary prose: short nested lists,
// quotes, code and paragraphs, nothing deep.
func widePage(size int) string {
	const unit = "## 見出し\n\n本文の段落です。Kubernetes の control plane を見ます。\n\n" +
		"- 一つ目\n  - 入れ子\n    - さらに\n- 二つ目\n\n> 引用\n> > 引用の引用\n\n" +
		"```bash\nkubectl get nodes\n```\n\n1. 手順\n2. 手順\n\n"
	return strings.Repeat(unit, size/len(unit))
}
