package page

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// TestDividerSummary: as in Hugo, a page's summary is what comes before
// its summary divider (<!--more-->) unless its front matter gives one;
// a page without a description takes that summary for one; the page's
// listings show it; the divider renders as nothing and the shortcode
// after it on its line is rendered.
func TestDividerSummary(t *testing.T) {
	fs := afero.NewMemMapFs()
	for p, s := range map[string]string{
		"content/ja/notes/a.md": "---\ntitle: A\ntags: [x]\n---\nIntro *of* A.\n<!--more-->{{< figure src=\"a.png\" alt=\"A\" >}}\nRest.\n",
		"content/ja/notes/b.md": "---\ntitle: B\ndescription: Desc B\ntags: [x]\n---\nIntro of B.\n\n<!--more-->\n\nRest.\n",
		"content/ja/notes/c.md": "---\ntitle: C\nsummary: Sum C\ntags: [x]\n---\nIntro of C.\n<!--more-->\n",
		"content/ja/notes/d.md": "---\ntitle: D\ndescription: Desc D\ntags: [x]\n---\nNo divider here.\n",
	} {
		if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	langs := []string{"ja"}
	c, ds := source.Load(context.Background(), fs, "content", langs)
	st, rds := site.Resolve(c, site.Options{Langs: langs})
	if err := append(ds, rds...).Err(); err != nil {
		t.Fatal(err)
	}
	t9n := func(_, k string) string { return k }
	r := &Renderer{Assembler: New(st, Options{Langs: langs, BaseURL: "https://example.org/", T: t9n}), Config: &config.Config{},
		MD: NewMarkdown(nil, shortcodes.NewRegistry(), false), T: t9n, Files: &files{}, Key: 1, Memo: &cache.Tier[*Rendering]{}, Keep: true}
	want := map[string][2]string{ // summary, description
		"/ja/notes/a/": {"Intro of A.", "Intro of A."},
		"/ja/notes/b/": {"Intro of B.", "Desc B"},
		"/ja/notes/c/": {"Sum C", "Intro of C."},
		"/ja/notes/d/": {"Desc D", "Desc D"},
	}
	var listed []string
	for _, sp := range st.Pages {
		p, e, ds := r.Assemble(context.Background(), sp, true)
		if len(ds) > 0 {
			t.Errorf("%s: diagnostics %v", sp.URL, ds)
		}
		if w, ok := want[sp.URL]; ok && (p.Summary != w[0] || p.Description != w[1]) {
			t.Errorf("%s: summary %q, description %q; want %q, %q", sp.URL, p.Summary, p.Description, w[0], w[1])
		}
		if sp.URL == "/ja/notes/a/" {
			h := string(e.Content.HTML)
			if want := "<p>Intro <em>of</em> A.</p>\n<figure class=\"figure\">"; !strings.HasPrefix(h, want) || strings.Contains(h, "more") {
				t.Errorf("HTML of a:\n%s\nwant it to begin %q, without the divider", h, want)
			}
		}
		if sp.Kind == site.KindTag {
			for _, a := range p.Articles {
				listed = append(listed, a.Title+": "+a.Summary)
			}
		}
	}
	if got, want := strings.Join(listed, "\n"), "A: Intro of A.\nB: Intro of B.\nC: Sum C\nD: Desc D"; got != want {
		t.Errorf("the tag page lists\n%s\nwant\n%s", got, want)
	}
}
