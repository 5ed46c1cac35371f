package build

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
)

// TestArticleWeight keeps an article page — its HTML with the stylesheets
// and scripts it loads — under 60 KB uncompressed. The pages are parts of
// the benchmark corpus: the course's own articles as plain markdown
// (tables, several shell blocks, Japanese and Korean prose), without the
// calculator widgets, which bring their own diagrams and script.
func TestArticleWeight(t *testing.T) {
	const budget = 60 << 10
	course, err := corpus.Load(context.Background(), repoFs(t))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := course.MemSite(context.Background(), 4)
	if err != nil {
		t.Fatal(err)
	}
	res, err := buildSite(t, fs)
	if err != nil {
		t.Fatal(err)
	}
	assets := regexp.MustCompile(`<(?:link rel="stylesheet" href|script src)="([^"]+)"`)
	checked := 0
	for _, p := range res.Site.Paths() {
		if !strings.HasSuffix(p, "/index.html") || !strings.Contains(p, "/cka/0") {
			continue
		}
		html, _ := res.Site.Get(p)
		total := len(html)
		for _, m := range assets.FindAllSubmatch(html, -1) {
			ref := strings.TrimLeft(string(m[1]), "./")
			data, ok := res.Site.Get(ref)
			if !ok {
				t.Fatalf("%s loads %s, which the build did not write", p, m[1])
			}
			total += len(data)
		}
		if total > budget {
			t.Errorf("%s weighs %d bytes with its CSS and JS, over %d", p, total, budget)
		}
		checked++
	}
	if checked < 4 {
		t.Fatalf("only %d article pages checked", checked)
	}
}
