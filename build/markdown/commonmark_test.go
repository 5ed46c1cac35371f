package markdown_test

import (
	"context"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/markdown/mdtest"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// commonMark and linkify are plain goldmark, CommonMark alone and with
// GFM's extended autolinks: the exclusions below ask them what an example
// has, so the rules are the spec's, not our pipeline's.
var (
	commonMark = goldmark.New()
	linkify    = goldmark.New(goldmark.WithExtensions(extension.Linkify))
)

// commonMarkExcluded are the kinds of CommonMark spec examples the full
// pipeline renders differently by design, each with its reason; every
// other example must pass.
var commonMarkExcluded = []struct {
	reason string
	match  func(md string) bool
}{
	{"raw HTML: off by design, it is omitted, not passed through", hasRawHTML},
	{"front matter: the build reads a first line of --- or +++ and what follows as front matter", startsFrontMatter},
	{"GFM extended autolink: bare URLs and addresses are links (extension.Linkify)", hasExtendedAutolink},
}

// hasRawHTML reports whether CommonMark parses an HTML block or inline
// raw HTML in md.
func hasRawHTML(md string) bool {
	src := []byte(md)
	found := false
	_ = ast.Walk(commonMark.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.(type) {
		case *ast.HTMLBlock, *ast.RawHTML:
			found = true
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

// startsFrontMatter reports whether the build reads md's first lines as
// a page's front matter (or fails on front matter never closed), as it
// does a first line of "---" or "+++".
func startsFrontMatter(md string) bool {
	pg, _ := source.ParsePage("spec.md", []byte(md))
	return pg == nil || pg.BodyStart > 0
}

// hasExtendedAutolink reports whether GFM's extended autolinks find a link
// in md that CommonMark's autolinks do not.
func hasExtendedAutolink(md string) bool {
	return autolinks(linkify, md) > autolinks(commonMark, md)
}

// autolinks counts the autolinks md gives with m.
func autolinks(m goldmark.Markdown, md string) int {
	n := 0
	_ = ast.Walk(m.Parser().Parse(text.NewReader([]byte(md))), func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := node.(*ast.AutoLink); ok && entering {
			n++
		}
		return ast.WalkContinue, nil
	})
	return n
}

// TestCommonMark runs the examples of the CommonMark spec (version
// mdtest.SpecVersion, kept in mdtest/testdata) through the full
// pipeline, markdown.New with the shortcodes extension, comparing after
// mdtest.Normalize. Every example passes but those of the kinds in
// commonMarkExcluded.
func TestCommonMark(t *testing.T) {
	examples, err := mdtest.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) != 652 {
		t.Fatalf("CommonMark %s has 652 examples, the spec file %d", mdtest.SpecVersion, len(examples))
	}
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	env := markdown.Env{Lang: "en"}
	excluded := make([][]int, len(commonMarkExcluded))
	passed := 0
examples:
	for _, ex := range examples {
		for i, x := range commonMarkExcluded {
			if x.match(ex.Markdown) {
				excluded[i] = append(excluded[i], ex.Example)
				continue examples
			}
		}
		res := r.Render(context.Background(), markdown.Doc{Path: "spec.md", Src: []byte(ex.Markdown)}, env)
		got := string(res.HTML) // its warnings (a fence's attributes) are ours
		if want := mdtest.Normalize(ex.HTML); mdtest.Normalize(got) != want {
			t.Errorf("example %d (%s) fails:\n--- markdown\n%s--- want\n%s\n--- got\n%s", ex.Example, ex.Section,
				ex.Markdown, want, mdtest.Normalize(got))
			continue
		}
		passed++
	}
	t.Logf("CommonMark %s: %d examples, %d passed", mdtest.SpecVersion, len(examples), passed)
	for i, x := range commonMarkExcluded {
		t.Logf("excluded %d, %s: %v", len(excluded[i]), x.reason, excluded[i])
	}
}
