package search_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/search"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// benchParts is the number of parts per language indexed.
const benchParts = 100

// benchDocs renders the corpus parts of both languages and returns them as
// the index sees them.
func benchDocs(b *testing.B) []search.Doc {
	b.Helper()
	ctx := context.Background()
	c, err := corpus.LoadDir(ctx, filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	r := markdown.New(markdown.Options{})
	var docs []search.Doc
	for _, lang := range []string{"ja", "ko"} {
		for n := 1; n <= benchParts; n++ {
			p := c.PartPath(lang, n)
			pg, diags := source.ParsePage(p, c.Part(lang, n, benchParts))
			if err := diags.Err(); err != nil {
				b.Fatal(err)
			}
			res := r.Render(ctx, markdown.Doc{Path: p, Src: pg.Src, BodyStart: pg.BodyStart}, markdown.Env{Lang: lang})
			var hs []string
			var walk func([]markdown.Heading)
			walk = func(h []markdown.Heading) {
				for _, x := range h {
					hs = append(hs, x.Text)
					walk(x.Children)
				}
			}
			walk(res.TOC)
			url := "/" + strings.TrimSuffix(strings.TrimPrefix(p, "content/"), ".md") + "/"
			docs = append(docs, search.Doc{Lang: lang, URL: url, Part: n, Title: pg.Meta.Title,
				Headings: strings.Join(hs, "\n"), Text: res.Text, Code: res.CodeText})
		}
	}
	return docs
}

// BenchmarkIndex builds the ja and ko search indexes of a 100-part corpus:
// tokenising, postings, ranking weights, the manifest and the shards.
func BenchmarkIndex(b *testing.B) {
	docs := benchDocs(b)
	size := 0
	for b.Loop() {
		var ix search.Indexer
		for _, d := range docs {
			ix.Add(d)
		}
		size = 0
		for _, lang := range ix.Langs() {
			st := ix.Build(lang, search.Options{}).Stats
			if st.Docs != benchParts {
				b.Fatalf("%s index holds %d pages, want %d", lang, st.Docs, benchParts)
			}
			size += st.ManifestBytes + st.ShardBytes
		}
	}
	b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(size), "index-bytes")
}

// BenchmarkTokenize tokenises the prose of one Japanese part.
func BenchmarkTokenize(b *testing.B) {
	text := benchDocs(b)[0].Text
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if len(search.Tokenize(text)) == 0 {
			b.Fatal("no tokens")
		}
	}
}
