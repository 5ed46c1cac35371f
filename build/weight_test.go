package build

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// Weight budgets, uncompressed. An article page and what its layout
// loads for every page (theme.js, main.css, chroma.css, print.css,
// main.js) stay under baseWeight (60 KiB until the header's theme choice,
// search button and the TOC's section in view, with chroma's dark style
// also under data-theme=dark, added 6.9 KB to the heaviest page); each component adds at most its budget for the
// stylesheets and scripts it declares (shortcodes.Assets), which only the
// pages holding it load. A built-in that declares assets must have a
// budget here.
const baseWeight = 67<<10 + progressWeight

// progressWeight is about what reading progress adds to every article:
// its script, js/progress.js (3,909 bytes minified), its rules in main.css
// and print.css, and its markup (the article's end, the list's count, a
// data-part on each part): 5,160 to 5,171 bytes on the corpus' pages, the
// last 51 within the headroom the pages had.
const progressWeight = 5 << 10

var componentWeight = map[string]int{
	// The calculators share calc.css and calc.js (11,275 bytes); the
	// WebAssembly modules calc.js fetches later (on the reader's first
	// use, or when the browser is idle) are not counted.
	"quorum": 12 << 10, "san": 12 << 10, "ha-sim": 12 << 10,
	"tabs":    1536, // tabs.js, 1,253 bytes
	"youtube": 512,  // video.css, minified
	"term":    1536, // glossary.css (shared with the glossary page), 1,089 bytes
}

// TestArticleWeight keeps an article page — its HTML with the stylesheets
// and scripts its layout loads — under baseWeight, and what each component
// adds under its budget, separately. The pages are parts of the benchmark
// corpus: the course's own articles as plain markdown (tables, several
// shell blocks, Japanese and Korean prose), without components; the
// components are weighed by the files they declare, as the build
// publishes them.
func TestArticleWeight(t *testing.T) {
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
	size := func(p string) int {
		data, ok := res.Site.Get(strings.TrimPrefix(res.Assets.Path(p), "/"))
		if !ok {
			t.Fatalf("%s is not published", p)
		}
		return len(data)
	}
	assets := regexp.MustCompile(`<(?:link rel="stylesheet" href|script src)="([^"]+)"`)
	checked := 0
	for _, p := range res.Pages {
		if p.Kind != "article" || !strings.Contains(p.URL, "/cka/0") {
			continue
		}
		out := strings.TrimPrefix(p.URL, "/") + "index.html"
		html, _ := res.Site.Get(out)
		own := slices.Concat(p.Styles, p.Scripts)
		if len(own) > 0 {
			t.Fatalf("%s holds components (%v): the base weight is of pages without", out, own)
		}
		total := len(html)
		for _, m := range assets.FindAllSubmatch(html, -1) {
			ref := path.Join(path.Dir("/"+out), string(m[1]))
			data, ok := res.Site.Get(strings.TrimPrefix(ref, "/"))
			if !ok {
				t.Fatalf("%s loads %s, which the build did not write", out, m[1])
			}
			total += len(data)
		}
		if total > baseWeight {
			t.Errorf("%s weighs %d bytes with its CSS and JS, over %d", out, total, baseWeight)
		}
		checked++
	}
	if checked < 4 {
		t.Fatalf("only %d article pages checked", checked)
	}

	reg := shortcodes.NewRegistry()
	for _, name := range reg.Names() {
		s, _ := reg.Lookup(name)
		own := slices.Concat(s.Assets.Styles, s.Assets.Scripts)
		budget, ok := componentWeight[name]
		switch {
		case len(own) == 0 && !ok:
			continue
		case !ok:
			t.Errorf("%s declares %v but has no weight budget", name, own)
			continue
		}
		total := 0
		for _, a := range own {
			total += size(a)
		}
		if total > budget {
			t.Errorf("%s adds %d bytes (%v), over its %d", name, total, own, budget)
		}
	}
}
