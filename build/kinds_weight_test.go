package build

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// kindWeight is the budget of a page of each kind: its HTML with the
// stylesheets and scripts it loads as it opens (theme.js, main.js,
// progress.js where it reads progress, main.css, chroma.css, print.css,
// and the stylesheets and scripts of the components it holds),
// uncompressed, on the bundled course. The search's script and
// stylesheet, loaded when the box is first used, and the calculators'
// modules, loaded when first used or when the browser is idle, are not
// counted. The README's table of page
// weights gives these budgets and what the pages weigh.
var kindWeight = map[string]int{
	"root":         34 << 10,
	"home":         42 << 10,
	"series":       42 << 10,
	"article":      128 << 10, // the course's parts hold calculators and diagrams; without components, TestArticleWeight
	"untranslated": 42 << 10,
	"tags":         36 << 10,
	"tag":          36 << 10,
	"glossary":     42 << 10,
	"404":          36 << 10,
}

// TestPageKindWeight keeps a page of every kind, in both languages,
// under its kind's budget (kindWeight); the course with its Korean
// translation of a part removed has a page of every kind.
func TestPageKindWeight(t *testing.T) {
	site := afero.NewMemMapFs()
	src := repoFs(t)
	for _, root := range []string{"content", "i18n", "themes", "kakehashi.toml"} {
		afero.Walk(src, root, func(p string, info fs.FileInfo, err error) error {
			if err != nil || info.IsDir() || p == "content/ko/cka/05-ha-cluster.md" {
				return nil
			}
			data, err := afero.ReadFile(src, p)
			if err != nil {
				t.Fatal(err)
			}
			return afero.WriteFile(site, p, data, 0o644)
		})
	}
	res, err := buildSite(t, site)
	if err != nil {
		t.Fatal(err)
	}
	assets := regexp.MustCompile(`<(?:link rel="stylesheet" href|script src)="([^"]+)"`)
	gz := func(b []byte) int {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Len()
	}
	seen := map[string]bool{}
	for _, p := range res.Pages {
		out := strings.TrimPrefix(p.URL, "/")
		if !strings.HasSuffix(out, ".html") {
			out += "index.html"
		}
		html, ok := res.Site.Get(out)
		if !ok {
			continue
		}
		budget, ok := kindWeight[string(p.Kind)]
		if !ok {
			t.Errorf("%s is of kind %q, which has no weight budget", out, p.Kind)
			continue
		}
		total, wire := len(html), gz(html)
		for _, m := range assets.FindAllSubmatch(html, -1) {
			ref := path.Join(path.Dir("/"+out), string(m[1]))
			if abs, ok := strings.CutPrefix(string(m[1]), "https://example.org/course/"); ok {
				ref = "/" + abs // 404.html names its files by their absolute URLs
			}
			data, ok := res.Site.Get(strings.TrimPrefix(ref, "/"))
			if !ok {
				t.Fatalf("%s loads %s, which the build did not write", out, m[1])
			}
			total, wire = total+len(data), wire+gz(data)
		}
		if total > budget {
			t.Errorf("%s (%s) weighs %d bytes with its CSS and JS, over %d", out, p.Kind, total, budget)
		}
		t.Logf("%-12s %-40s %6d bytes, %6d gzipped (budget %d)", p.Kind, out, total, wire, budget)
		seen[string(p.Kind)] = true
	}
	for k := range kindWeight {
		if !seen[k] {
			t.Errorf("no page of kind %q was weighed", k)
		}
	}
}
