package page

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// TestParam pins Param's lookup: the page's first, then the site's, keys
// in any case, dotted keys into maps.
func TestParam(t *testing.T) {
	param := Param(map[string]any{"color": "青", "Social": map[string]any{"GitHub": "kk"}, "n": int64(3)},
		map[string]any{"color": "red", "site": true})
	tests := []struct {
		key  string
		want any
		ok   bool
	}{
		{"color", "青", true}, {"COLOR", "青", true}, {"site", true, true}, {"n", int64(3), true},
		{"social.github", "kk", true}, {"social.gitlab", nil, false}, {"color.x", nil, false}, {"", nil, false}, {"none", nil, false},
	}
	for _, tt := range tests {
		if v, ok := param(tt.key); v != tt.want || ok != tt.ok {
			t.Errorf("Param(%q) = %v, %v; want %v, %v", tt.key, v, ok, tt.want, tt.ok)
		}
	}
}

// TestRefAndParamInPages: in a page of a site, Hugo's ref and relref name
// pages by their files as its links do (relative, from the language's
// content folder, without ".md", in another language), as text and as a
// link's destination; param shows the page's and the site's params; what
// is not there is an error at the call; the site's params are part of
// what a rendering is kept by.
func TestRefAndParamInPages(t *testing.T) {
	fs := afero.NewMemMapFs()
	for p, s := range map[string]string{
		"content/ja/notes/a.md": "---\ntitle: A\nparams:\n  color: 青\n---\n" +
			"[B の節]({{< ref \"b.md#x\" >}}) / {{< relref \"/notes/b.md\" >}} / {{< ref \"b\" >}} / {{< ref \"b.md\" lang=\"ko\" >}}\n\n" +
			"{{< param \"color\" >}} {{% param \"owner\" %}}\n",
		"content/ja/notes/c.md": "---\ntitle: C\n---\n{{< ref \"nope.md\" >}} {{< param \"none\" >}}\n",
		"content/ja/notes/b.md": "---\ntitle: B\n---\n## x {#x}\n",
		"content/ko/notes/b.md": "---\ntitle: B\n---\nb\n",
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
	t9n := func(_, k string) string { return k }
	cfg := &config.Config{Params: map[string]any{"owner": "かけはし"}}
	r := &Renderer{Assembler: New(st, Options{Langs: langs, BaseURL: "https://example.org/", T: t9n}), Config: cfg,
		MD: NewMarkdown(nil, shortcodes.NewRegistry(), false), T: t9n, Files: &files{}, Key: 1, Memo: &cache.Tier[*Rendering]{}, Keep: true}
	page := func(file string) *site.Page {
		for _, p := range st.Pages {
			if p.Source != nil && p.Source.Path == file {
				return p
			}
		}
		t.Fatalf("no page of %s", file)
		return nil
	}
	sp := page("content/ja/notes/a.md")
	e := r.Markdown(context.Background(), sp, true)
	h := string(e.Content.HTML)
	for _, w := range []string{
		`<p><a href="../../../ja/notes/b/#x">B の節</a> / ../../../ja/notes/b/ / ../../../ja/notes/b/ / ../../../ko/notes/b/</p>`,
		"<p>青 かけはし</p>",
	} {
		if !strings.Contains(h, w) {
			t.Errorf("HTML lacks %q:\n%s", w, h)
		}
	}
	// A ref standing as text shows the reader kakehashi's URL, not
	// Hugo's: each is warned of.
	var warned []string
	for _, d := range e.Result.Diags {
		h := d.Header()
		if i := strings.Index(h, " stands as text"); d.Severity == diag.Warning && i > 0 {
			h = h[:i]
		}
		warned = append(warned, h)
	}
	if want := []string{
		`content/ja/notes/a.md:6:32: warning: relref "/notes/b.md"`,
		`content/ja/notes/a.md:6:63: warning: ref "b"`,
		`content/ja/notes/a.md:6:81: warning: ref "b.md"`,
	}; strings.Join(warned, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(warned, "\n"), strings.Join(want, "\n"))
	}
	var got []string
	for _, d := range r.Markdown(context.Background(), page("content/ja/notes/c.md"), true).Result.Diags {
		got = append(got, d.Header())
	}
	want := []string{
		`content/ja/notes/c.md:4:1: ref "nope.md": link to "nope.md": no such page (content/ja/notes/nope.md)`,
		`content/ja/notes/c.md:4:23: param "none": neither the page's front matter params nor the site's [params] have it`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(e.Result.Links) == 0 || e.Result.Links[0].Path != "/ja/notes/b/" || e.Result.Links[0].Fragment != "x" {
		t.Errorf("the ref in a link is no link of the page: %+v", e.Result.Links)
	}
	if again := r.Markdown(context.Background(), sp, true); again != e {
		t.Error("an unchanged page was rendered again")
	}
	// The next build's Renderer, keeping renderings in the same Memo.
	cfg.Params["owner"] = "誰か"
	r = &Renderer{Assembler: r.Assembler, Config: cfg, MD: r.MD, T: t9n, Files: r.Files, Key: 1, Memo: r.Memo, Keep: true}
	if e2 := r.Markdown(context.Background(), sp, true); !strings.Contains(string(e2.Content.HTML), "<p>青 誰か</p>") {
		t.Errorf("a site param changed, the page's rendering did not:\n%s", e2.Content.HTML)
	}
}
