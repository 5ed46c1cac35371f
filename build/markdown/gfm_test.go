package markdown_test

import (
	"context"
	"slices"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/markdown/mdtest"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
	"github.com/yuin/goldmark"
)

// gfmExcluded are the kinds of GFM spec examples the full pipeline
// renders differently by design, each with its reason; every other
// example, the extensions' (tables, task lists, strikethrough, extended
// autolinks) among them, must pass.
var gfmExcluded = []struct {
	reason string
	// match tells whether ex is of the kind; commonMark maps the
	// markdown of each CommonMark spec example to its HTML.
	match func(ex mdtest.Example, commonMark map[string]string) bool
}{
	{"raw HTML: off by design, it is omitted, not passed through (nor filtered, as the tagfilter extension does)",
		func(ex mdtest.Example, _ map[string]string) bool { return hasRawHTML(ex.Markdown) }},
	{"front matter: the build reads a first line of --- or +++ and what follows as front matter",
		func(ex mdtest.Example, _ map[string]string) bool { return startsFrontMatter(ex.Markdown) }},
	{"GFM extended autolink: on in every page, where the spec turns it on for its own examples only",
		func(ex mdtest.Example, _ map[string]string) bool {
			return !slices.Contains(ex.Extensions, "autolink") && hasExtendedAutolink(ex.Markdown)
		}},
	{"CommonMark since 0.30 (goldmark follows 0.31.2, TestCommonMark) gives the same markdown other HTML than GFM 0.29, which is older: nested strong emphasis",
		changedSinceGFM},
}

// changedSinceGFM reports whether the CommonMark spec kakehashi follows
// has an example of ex's markdown whose HTML is not ex's.
func changedSinceGFM(ex mdtest.Example, commonMark map[string]string) bool {
	h, ok := commonMark[ex.Markdown]
	return ok && mdtest.Normalize(h) != mdtest.Normalize(ex.HTML)
}

// TestGFMSpec runs the examples of the GitHub Flavored Markdown spec (version
// mdtest.GFMVersion, kept in mdtest/testdata), the extensions' included,
// through the full pipeline, markdown.New with the shortcodes extension,
// comparing after mdtest.Normalize. Every example passes but those of the
// kinds in gfmExcluded; the task lists' examples, which cmark-gfm's own
// runner skips ("disabled"), are run too.
func TestGFMSpec(t *testing.T) {
	examples, err := mdtest.GFM()
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) != 672 {
		t.Fatalf("GFM %s has 672 examples, the spec file %d", mdtest.GFMVersion, len(examples))
	}
	cm, err := mdtest.Spec()
	if err != nil {
		t.Fatal(err)
	}
	commonMark := map[string]string{}
	for _, ex := range cm {
		commonMark[ex.Markdown] = ex.HTML
	}
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	env := markdown.Env{Lang: "en"}
	excluded := make([][]int, len(gfmExcluded))
	passed, extensions := 0, 0
examples:
	for _, ex := range examples {
		for i, x := range gfmExcluded {
			if x.match(ex, commonMark) {
				excluded[i] = append(excluded[i], ex.Example)
				continue examples
			}
		}
		res := r.Render(context.Background(), markdown.Doc{Path: "spec.md", Src: []byte(ex.Markdown)}, env)
		if want, got := mdtest.Normalize(ex.HTML), mdtest.Normalize(string(res.HTML)); got != want {
			t.Errorf("example %d (%s) fails:\n--- markdown\n%s--- want\n%s\n--- got\n%s", ex.Example, ex.Section,
				ex.Markdown, want, got)
			continue
		}
		passed++
		if len(ex.Extensions) > 0 {
			extensions++
		}
	}
	t.Logf("GFM %s: %d examples, %d passed (%d of them the extensions')", mdtest.GFMVersion, len(examples), passed, extensions)
	for i, x := range gfmExcluded {
		t.Logf("excluded %d, %s: %v", len(excluded[i]), x.reason, excluded[i])
	}
}
