package page

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// TestFragment: a document outside the site's pages links the parts of
// the series it names site-absolute, in the language asked for, marks a
// planned one with its UI string, and leaves "#N" as written without a
// series or a part.
func TestFragment(t *testing.T) {
	fs := afero.NewMemMapFs()
	for p, s := range map[string]string{
		"content/series/cka.yaml":  "id: cka\ntitle: {ja: CKA, ko: CKA}\nparts:\n  - number: 1\n    title: {ja: 一, ko: 일}\n    state: published\n  - number: 2\n    title: {ja: 二, ko: 이}\n    state: planned\n",
		"content/ja/cka/01-one.md": "---\ntitle: 一\nseries: cka\npart: 1\n---\n本文\n",
		"content/ko/cka/01-one.md": "---\ntitle: 일\nseries: cka\npart: 1\n---\n본문\n",
	} {
		if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	langs := []string{"ja", "ko"}
	c, ds := source.Load(context.Background(), fs, "content", langs)
	st, rds := site.Resolve(c, site.Options{Langs: langs})
	if err := append(ds, rds...).Err(); err != nil {
		t.Fatal(err)
	}
	t9n := func(lang, k string) string { return lang + ":" + k }
	md := markdown.New(markdown.Options{})
	for _, c := range []struct {
		name, src, lang string
		want, not       []string
	}{
		{"in a series", "---\nseries: cka\npart: 2\n---\n#1 と #2\n", "ko",
			[]string{`<a class="part-ref" href="/ko/cka/01-one/"`, `<span class="part-ref planned"`, "ko:"}, nil},
		{"in a series, ja", "---\nseries: cka\npart: 2\n---\n#1\n", "ja",
			[]string{`<a class="part-ref" href="/ja/cka/01-one/"`}, nil},
		{"no part", "---\nseries: cka\n---\n#1\n", "ja", []string{"#1"}, []string{"part-ref"}},
		{"no series", "#1\n", "ja", []string{"#1"}, []string{"part-ref"}},
	} {
		pg, diags := source.ParseDocument("x.md", []byte(c.src))
		if diags.Err() != nil {
			t.Fatal(diags)
		}
		res := Fragment(context.Background(), md, st, pg, c.lang, t9n)
		html := string(res.HTML)
		for _, w := range c.want {
			if !strings.Contains(html, w) {
				t.Errorf("%s: missing %s in\n%s", c.name, w, html)
			}
		}
		for _, w := range c.not {
			if strings.Contains(html, w) {
				t.Errorf("%s: %s in\n%s", c.name, w, html)
			}
		}
	}
}
