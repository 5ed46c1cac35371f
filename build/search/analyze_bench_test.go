package search_test

import (
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/search"
)

// BenchmarkAnalyze tokenizes the pages of a 100-part corpus in both
// languages into their Terms, as a build's Feed does.
func BenchmarkAnalyze(b *testing.B) {
	docs := benchDocs(b)
	size := 0
	for _, d := range docs {
		size += len(d.Title) + len(d.Headings) + len(d.Text) + len(d.Code)
	}
	b.SetBytes(int64(size))
	var an search.Analyzer
	for b.Loop() {
		for _, d := range docs {
			if an.Analyze(d).Len() == 0 {
				b.Fatal("no terms")
			}
		}
	}
}
