package shortcodes_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/yuin/goldmark"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// benchArticle is a course article that calls shortcodes (diagrams, the
// quorum table, part links, a callout).
func benchArticle(b *testing.B, lang string) *source.Page {
	b.Helper()
	p := filepath.Join("..", "content", lang, "cka", "05-ha-cluster.md")
	src, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	if !bytes.Contains(src, []byte("{{<")) {
		b.Skipf("%s calls no shortcode", p)
	}
	pg, diags := source.ParsePage(p, src)
	if err := diags.Err(); err != nil {
		b.Fatal(err)
	}
	return pg
}

// BenchmarkParse lexes and parses every shortcode tag of an article.
func BenchmarkParse(b *testing.B) {
	pg := benchArticle(b, "ja")
	b.SetBytes(int64(len(pg.Src)))
	for b.Loop() {
		calls, diags := shortcodes.Parse(pg.Path, pg.Src)
		if err := diags.Err(); err != nil {
			b.Fatal(err)
		}
		if len(calls) == 0 {
			b.Fatal("no calls")
		}
	}
}

// BenchmarkParseLarge parses fifty articles' worth of text in one piece,
// to show the lexer stays linear.
func BenchmarkParseLarge(b *testing.B) {
	pg := benchArticle(b, "ko")
	src := bytes.Repeat(pg.Body(), 50)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, diags := shortcodes.Parse("large.md", src); diags.Err() != nil {
			b.Fatal(diags.Err())
		}
	}
}

// BenchmarkRenderArticle renders an article through markdown with the
// shortcode extension: parsing, argument checks and the built-ins' HTML.
func BenchmarkRenderArticle(b *testing.B) {
	pg := benchArticle(b, "ja")
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	env := markdown.Env{Lang: "ja", Parts: func(n int) (markdown.PartLink, bool) {
		return markdown.PartLink{Href: "../part/", Title: "part", Published: n%2 == 0}, true
	}}
	ctx := context.Background()
	b.SetBytes(int64(len(pg.Src)))
	for b.Loop() {
		res := r.Render(ctx, markdown.Doc{Path: pg.Path, Src: pg.Src, BodyStart: pg.BodyStart}, env)
		if err := res.Diags.Err(); err != nil {
			b.Fatal(err)
		}
	}
}
