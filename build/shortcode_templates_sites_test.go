package build_test

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// templatesSite is two-parts whose Japanese part 1 calls the site
// template x.
func templatesSite(t *testing.T) string {
	return replaceOnce(t, twoParts(t), "次は #2 、その次は #3 です。", "X: {{< x >}}")
}

// TestSiteTemplateFolders: a site shortcode template is read from the
// site's layouts/shortcodes/ (and layouts/_shortcodes/), else the theme's
// layouts/shortcodes/, else the theme's shortcodes/, in subfolders too;
// one named like a built-in replaces it. Each edit of any of them is
// seen by the next build, which is the same as a fresh one.
func TestSiteTemplateFolders(t *testing.T) {
	const page = "ja/cka/01-intro/index.html"
	// The home page calls figure, which the site replaces.
	s := sitetest.New(t, replaceOnce(t, templatesSite(t), "ようこそ。", "{{< figure \"a.png\" >}}")+`-- themes/default/shortcodes/x.html --
theme shortcodes
-- themes/default/layouts/shortcodes/x.html --
theme layouts
-- layouts/shortcodes/x.html --
site layouts
-- layouts/_shortcodes/figure.html --
my figure {{ .Get 0 }}
`).Build()
	s.AssertContains(page, "X: site layouts").AssertContains("ja/index.html", "my figure a.png")
	if got := s.Result().Summary.Overrides; strings.Join(got, ",") != "figure" {
		t.Errorf("overrides %q, want [figure]", got)
	}
	s.WriteFile("layouts/shortcodes/x.html", "site layouts, edited").Build().AssertContains(page, "X: site layouts, edited").AssertFresh()
	s.Remove("layouts/shortcodes/x.html").Build().AssertContains(page, "X: theme layouts").AssertFresh()
	s.Remove("themes/default/layouts/shortcodes/x.html").Build().AssertContains(page, "X: theme shortcodes").AssertFresh()
	s.Replace(ja1, "{{< x >}}", "{{< test/x >}}").WriteFile("layouts/shortcodes/test/x.html", "in a folder").Build().
		AssertContains(page, "X: in a folder").AssertFresh()
	s.Remove("layouts/_shortcodes/figure.html").BuildFails(`content/ja/_index.md:4:1: missing required argument "src" for "figure"`,
		`content/ja/_index.md:4:12: "figure" takes no positional arguments; name them (name="value")`)
}

// TestSiteTemplatePage: a site template shows its page and its site as
// Hugo's .Page and .Site, and links relative to the page; when the site's
// title, its home page's, changes, the page shows the new one.
func TestSiteTemplatePage(t *testing.T) {
	const page = "ja/cka/01-intro/index.html"
	s := sitetest.New(t, replaceOnce(t, templatesSite(t), "title: はじめに\n", "title: はじめに\nparams:\n  Level: 2\n")+`-- kakehashi.toml --
baseURL = "https://example.org/course/"
[params]
owner = "K"
-- layouts/shortcodes/x.html --
{{ .Page.Title }}|{{ .Page.Params.level }}|{{ .Page.RelPermalink }}|{{ .Page.Permalink }}|{{ .Site.Title }}|{{ .Site.Params.owner }}|{{ .Site.BaseURL }}|{{ .Site.Language.Lang }}|{{ relURL "css/x.css" }}|{{ absURL "ko/" }}|{{ absURL "/ko/" }}
`).Build()
	s.AssertContains(page, "X: はじめに|2|../../../ja/cka/01-intro/|https://example.org/course/ja/cka/01-intro/|CKA コース|K|https://example.org/course/|ja|../../../css/x.css|https://example.org/course/ko/|https://example.org/course/ko/")
	s.AssertWarnings(ja1 + `:9:4: warning: absURL "/ko/" is read from the site's root, /course/, as every site path in kakehashi; Hugo reads a leading "/" from the host's root (write "ko/" for both)`)
	s.Replace("content/ja/_index.md", "title: CKA コース", "title: 新しい題").Build().AssertContains(page, "|新しい題|").AssertFresh()
}

// TestSiteTemplateErrors: errorf in a template fails the build at the
// call, warnf warns there; a UI string a template in layouts/shortcodes/
// uses is checked as the layouts' are.
func TestSiteTemplateErrors(t *testing.T) {
	s := sitetest.New(t, templatesSite(t)+`-- layouts/shortcodes/x.html --
{{ warnf "x is %s" "old" }}{{ with .Get 0 }}{{ else }}{{ errorf "x needs a name (%s)" .Position }}{{ end }}
`)
	s.BuildFails(ja1 + `:7:4: x needs a name (content/ja/cka/01-intro.md:7:4)`)
	s.Replace(ja1, "{{< x >}}", `{{< x "a" >}}`).Build().AssertWarnings(ja1 + `:7:4: warning: x is old`)
	s.WriteFile("layouts/shortcodes/sub/x.html", `{{ T "no_such_key" }}`).Replace(ja1, `{{< x "a" >}}`, "{{< sub/x >}}").
		BuildFails(`layouts/shortcodes/sub/x.html:1:6: UI string "no_such_key" is missing from (embedded) i18n/ja.toml`,
			`layouts/shortcodes/sub/x.html:1:6: UI string "no_such_key" is missing from (embedded) i18n/ko.toml`)
}

// TestSiteTemplatesPersistentCache: a page rendered with a site template
// of layouts/shortcodes/ is not taken from the persistent cache once the
// template changed, as a new process builds it.
func TestSiteTemplatesPersistentCache(t *testing.T) {
	s := sitetest.New(t, templatesSite(t)+"-- layouts/shortcodes/x.html --\nfirst\n")
	out, cacheFs := afero.NewMemMapFs(), afero.NewMemMapFs()
	build1 := func() string {
		t.Helper()
		b, err := build.New(s.Fs(), build.Options{BaseURL: "https://example.org/", CacheDir: "/cache", CacheFs: cacheFs})
		if err != nil {
			t.Fatal(err)
		}
		st, err := output.Stage(context.Background(), out, "/public")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.BuildTo(context.Background(), st); err != nil {
			st.Abort()
			t.Fatal(err)
		}
		if err := st.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		page, err := afero.ReadFile(out, "/public/ja/cka/01-intro/index.html")
		if err != nil {
			t.Fatal(err)
		}
		return string(page)
	}
	if p := build1(); !strings.Contains(p, "X: first") {
		t.Fatalf("first build: no X: first")
	}
	s.WriteFile("layouts/shortcodes/x.html", "second\n")
	if p := build1(); !strings.Contains(p, "X: second") {
		t.Errorf("after the template changed, the page is the cached one")
	}
}
