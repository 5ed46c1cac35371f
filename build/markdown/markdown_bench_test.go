package markdown_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// benchParts is the number of parts per language of BenchmarkRenderAll.
const benchParts = 100

// benchDocs returns the corpus parts of lang as documents.
func benchDocs(b *testing.B, lang string, n int) []markdown.Doc {
	b.Helper()
	c, err := corpus.LoadDir(context.Background(), filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]markdown.Doc, n)
	for i := range docs {
		p := c.PartPath(lang, i+1)
		pg, diags := source.ParsePage(p, c.Part(lang, i+1, n))
		if err := diags.Err(); err != nil {
			b.Fatal(err)
		}
		docs[i] = markdown.Doc{Path: p, Src: pg.Src, BodyStart: pg.BodyStart}
	}
	return docs
}

// benchEnv is the Env of a page of lang, with UI strings as a build gives
// them (without, each document would read the embedded ones).
func benchEnv(lang string) markdown.Env {
	return markdown.Env{Lang: lang, T: func(key string) string { return key }, Parts: func(n int) (markdown.PartLink, bool) {
		return markdown.PartLink{Href: "../part/", Title: "part", Published: n%2 == 0}, true
	}}
}

func newRenderer(b *testing.B) *markdown.Renderer {
	hl, err := highlight.New("", "")
	if err != nil {
		b.Fatal(err)
	}
	return markdown.New(markdown.Options{Highlighter: hl})
}

// BenchmarkRenderPart renders one rich part (tables, a dozen code blocks,
// "#N" links) with a fresh highlighter each time: every block is
// highlighted.
func BenchmarkRenderPart(b *testing.B) {
	doc := benchDocs(b, "ja", 1)[0]
	b.SetBytes(int64(len(doc.Src)))
	ctx := context.Background()
	for b.Loop() {
		r := newRenderer(b)
		if res := r.Render(ctx, doc, benchEnv("ja")); res.Diags.Err() != nil {
			b.Fatal(res.Diags.Err())
		}
	}
}

// BenchmarkRenderPartCached renders the same part again and again: the
// code blocks come from the highlight cache, as for a part's translation.
func BenchmarkRenderPartCached(b *testing.B) {
	doc := benchDocs(b, "ja", 1)[0]
	b.SetBytes(int64(len(doc.Src)))
	ctx := context.Background()
	r := newRenderer(b)
	r.Render(ctx, doc, benchEnv("ja"))
	for b.Loop() {
		if res := r.Render(ctx, doc, benchEnv("ja")); res.Diags.Err() != nil {
			b.Fatal(res.Diags.Err())
		}
	}
}

// BenchmarkRenderAll renders every part of a 100-part corpus in both
// languages, one after the other, with one renderer: each code block is
// highlighted for ja and reused for ko.
func BenchmarkRenderAll(b *testing.B) {
	ja, ko := benchDocs(b, "ja", benchParts), benchDocs(b, "ko", benchParts)
	ctx := context.Background()
	for b.Loop() {
		r := newRenderer(b)
		for i := range ja {
			for _, d := range []struct {
				lang string
				doc  markdown.Doc
			}{{"ja", ja[i]}, {"ko", ko[i]}} {
				if res := r.Render(ctx, d.doc, benchEnv(d.lang)); res.Diags.Err() != nil {
					b.Fatal(res.Diags.Err())
				}
			}
		}
	}
	b.ReportMetric(float64(2*benchParts)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}
