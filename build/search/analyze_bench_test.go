package search_test

import (
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/search"
)

// BenchmarkAnalyze tokenizes the pages of a 100-part corpus in both
// languages into their Terms, as a build's Feed does: whole pages, and
// their Japanese and Korean prose alone, without the code blocks, whose
// ASCII takes another way.
func BenchmarkAnalyze(b *testing.B) {
	docs := benchDocs(b)
	prose := make([]search.Doc, len(docs))
	for i, d := range docs {
		prose[i] = search.Doc{Lang: d.Lang, URL: d.URL, Title: d.Title, Text: d.Text}
	}
	for _, bb := range []struct {
		name string
		docs []search.Doc
	}{{"pages", docs}, {"prose", prose}} {
		b.Run(bb.name, func(b *testing.B) {
			size := 0
			for _, d := range bb.docs {
				size += len(d.Title) + len(d.Headings) + len(d.Text) + len(d.Code)
			}
			b.SetBytes(int64(size))
			var an search.Analyzer
			for b.Loop() {
				for _, d := range bb.docs {
					if an.Analyze(d).Len() == 0 {
						b.Fatal("no terms")
					}
				}
			}
		})
	}
}
