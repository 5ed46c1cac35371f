package source_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// BenchmarkLoad loads the 1,000-part corpus (2,000 pages and the series
// file) from memory: reading, UTF-8 checks, NFC, front matter.
func BenchmarkLoad(b *testing.B) {
	ctx := context.Background()
	c, err := corpus.LoadDir(ctx, filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	fs, err := c.MemSite(ctx, 1000)
	if err != nil {
		b.Fatal(err)
	}
	var pages int
	for b.Loop() {
		content, diags := source.Load(ctx, fs, "content", []string{"ja", "ko"})
		if err := diags.Err(); err != nil {
			b.Fatal(err)
		}
		pages = len(content.Pages)
	}
	if pages != 2002 {
		b.Fatalf("loaded %d pages, want 2002", pages)
	}
	b.ReportMetric(float64(pages)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkParsePage parses one part: front matter split and decoding.
func BenchmarkParsePage(b *testing.B) {
	c, err := corpus.LoadDir(context.Background(), filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	src := c.Part("ja", 5, 100)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, diags := source.ParsePage("content/ja/cka/0005.md", src); diags.Err() != nil {
			b.Fatal(diags.Err())
		}
	}
}
