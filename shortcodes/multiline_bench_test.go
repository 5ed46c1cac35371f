package shortcodes

import (
	"context"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark"
)

// BenchmarkTagsOverLines renders pages of many tags that do not end on
// their line, well formed and not: each costs its own text, so a page
// twice as long takes twice the time (looking afresh for each tag's end,
// for a blank line, or for the paragraph's tags made such pages
// quadratic).
func BenchmarkTagsOverLines(b *testing.B) {
	const n = 5000
	pages := map[string]string{
		"standalone":         strings.Repeat("{{< part\n2 >}}\n", n),
		"in a paragraph":     strings.Repeat("x {{< part\n2 >}}\n", n),
		">}} starting lines": strings.Repeat("x {{< part 2\n>}}\n", n),
		"unterminated":       strings.Repeat("{{< a b c\n", n),
		"raw strings":        strings.Repeat("x {{< a `\n", n),
		"comments":           strings.Repeat("x {{</* a\n", n),
	}
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(NewRegistry())}})
	for name, src := range pages {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				r.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src)}, testEnv("ja"))
			}
		})
	}
}
