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
