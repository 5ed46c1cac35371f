package shortcodes

import (
	"context"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/markdown/mdtest"
	"github.com/yuin/goldmark"
)

// commonMarkKnown are the CommonMark spec examples the full pipeline
// renders differently, by example number, with the reason. Raw HTML
// (off: goldmark omits it) and a first line of "---" (front matter to the
// build) are skipped, not listed.
var commonMarkKnown = map[int]string{
	// A fence's info string is read as written (parseInfo): the language
	// keeps its backslash escapes and entities.
	24: "backslash escape in a fence's info string: language-foo\\+bar",
	34: "entities in a fence's info string: language-f&ouml;&ouml;",
	// Text nodes goldmark split are merged again (mergeTexts, for "#N" and
	// the soft breaks), and the merge keeps the spaces goldmark trims off
	// the last piece before a hard line break of more than two spaces.
	226: "trailing spaces kept before a hard line break (5 spaces)",
	635: "trailing spaces kept before a hard line break (7 spaces)",
	// GFM autolinks (extension.Linkify) link bare URLs and addresses.
	608: "GFM autolink inside < >",
	611: "GFM autolink of a bare URL",
	612: "GFM autolink of a bare e-mail address",
}

// TestCommonMark runs the CommonMark spec's examples, which goldmark
// ships in its module, through markdown.New with the shortcodes
// extension, comparing after mdtest.Normalize. It fails on an example
// that fails and is not in commonMarkKnown, and on one listed that
// passes, so the list stays true.
func TestCommonMark(t *testing.T) {
	p := mdtest.SpecFile()
	if p == "" {
		t.Skip("goldmark's _test/spec.json is not in the module cache")
	}
	examples, err := mdtest.LoadSpec(p)
	if err != nil {
		t.Fatal(err)
	}
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(NewRegistry())}})
	env := markdown.Env{Lang: "en"}
	var passed, failed, skipped []int
	for _, ex := range examples {
		if strings.HasPrefix(ex.Markdown, "---\n") {
			skipped = append(skipped, ex.Example)
			continue
		}
		res := r.Render(context.Background(), markdown.Doc{Path: "spec.md", Src: []byte(ex.Markdown)}, env)
		got := string(res.HTML) // its warnings (a fence's attributes) are ours
		if strings.Contains(got, "<!-- raw HTML omitted -->") {
			skipped = append(skipped, ex.Example)
			continue
		}
		ok := mdtest.Normalize(got) == mdtest.Normalize(ex.HTML)
		reason, known := commonMarkKnown[ex.Example]
		switch {
		case ok && known:
			t.Errorf("example %d (%s) passes but is listed as failing (%s): remove it from commonMarkKnown", ex.Example, ex.Section, reason)
		case !ok && !known:
			t.Errorf("example %d (%s) fails:\n--- markdown\n%s--- want\n%s\n--- got\n%s", ex.Example, ex.Section,
				ex.Markdown, mdtest.Normalize(ex.HTML), mdtest.Normalize(got))
		}
		if ok {
			passed = append(passed, ex.Example)
		} else {
			failed = append(failed, ex.Example)
		}
	}
	for n := range commonMarkKnown {
		if n < 1 || n > len(examples) {
			t.Errorf("commonMarkKnown lists example %d, which the spec does not have", n)
		}
	}
	t.Logf("CommonMark: %d examples, %d passed, %d failed %v, %d skipped (raw HTML, front matter)",
		len(examples), len(passed), len(failed), failed, len(skipped))
}
