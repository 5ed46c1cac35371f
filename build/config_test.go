package build_test

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// TestSiteConfig: kakehashi.toml's settings reach the pages, and an edit
// to it (as the authoring server tells the Builder) rebuilds everything,
// the same as a fresh build.
func TestSiteConfig(t *testing.T) {
	s := sitetest.Test(t, twoParts(t)+`-- kakehashi.toml --
baseURL = "https://example.org/course"
copyright = "© 2026 著者"

[title]
ja = "設定の講座"
`)
	s.AssertContains("ja/cka/01-intro/index.html",
		`<link rel="canonical" href="https://example.org/course/ja/cka/01-intro/">`,
		`<span>設定の講座</span>`, `<p class="copyright">© 2026 著者</p>`).
		AssertContains("ko/cka/01-intro/index.html", `<span>CKA 코스</span>`).
		AssertNotContains("ja/cka/01-intro/index.html", "edit-page")

	s.Replace("kakehashi.toml", `copyright = "© 2026 著者"`,
		`copyright = "© 2027 著者"
editURL = "https://example.org/edit/{lang}/{path}"`).Build().AssertFresh().
		AssertContains("ja/cka/02-inside/index.html", `<p class="copyright">© 2027 著者</p>`,
			`<a href="https://example.org/edit/ja/content/ja/cka/02-inside.md" rel="nofollow">このページを編集</a>`).
		AssertContains("ko/cka/02-inside/index.html", `<a href="https://example.org/edit/ko/content/ko/cka/02-inside.md" rel="nofollow">이 페이지 편집</a>`)

	// The option (the CLI's --base-url) overrides the file.
	sitetest.Test(t, twoParts(t)+"-- kakehashi.toml --\nbaseURL = \"https://example.org/course/\"\n", sitetest.BaseURL("https://other.example/")).
		AssertContains("sitemap.xml", "https://other.example/ja/cka/01-intro/").
		AssertNotContains("sitemap.xml", "example.org")

	// A broken edit fails the build at its place; the fix builds again.
	s.WriteFile("kakehashi.toml", "[title]\nja = \"講座\"\nkoo = 1\n").
		BuildFails(`kakehashi.toml:3:7: "title.koo" must be a string, got integer`).
		WriteFile("kakehashi.toml", "[title]\nja = \"講座\"\n").Build().AssertFresh().
		AssertContains("ja/index.html", `<span>講座</span>`)
}

// TestSiteConfigLanguages: the configuration's order of languages is the
// site's, the first being the original of translations; a language
// without UI strings is an error.
func TestSiteConfigLanguages(t *testing.T) {
	s := sitetest.Test(t, twoParts(t)+"-- kakehashi.toml --\nlanguages = [\"ko\", \"ja\"]\n")
	if got := s.Result().Langs; len(got) != 2 || got[0] != "ko" {
		t.Errorf("Langs = %v, want [ko ja]", got)
	}
	s.AssertContains("sitemap.xml", "/ko/cka/01-intro/")
	s.WriteFile("kakehashi.toml", "languages = [\"ja\", \"ja\"]\n").
		BuildFails(`kakehashi.toml:1:20: language "ja" is listed twice in "languages"`).
		WriteFile("kakehashi.toml", "languages = [\"ja\", \"zh\"]\n").
		BuildFails(`kakehashi.toml:1:20: language "zh" has no UI strings: add i18n/zh.toml, or use one of en, ja, ko`)
}

// TestSiteConfigSwitches: search = false writes no search index and no
// search box; calculators = false gives the widgets no script, so that
// they keep their build-time answers.
func TestSiteConfigSwitches(t *testing.T) {
	site := twoParts(t) + `-- content/ja/cka/03-calc.md --
---
title: 計算
series: cka
part: 3
---
{{< quorum members=3 >}}
`
	site = replaceOnce(t, site, "title: {ja: 次回, ko: 다음}\n    state: planned", "title: {ja: 次回, ko: 다음}\n    state: published")
	s := sitetest.Test(t, site)
	s.AssertExists("ja/search-index.js").
		AssertContains("ja/cka/03-calc/index.html", "/js/calc.", `class="search"`)
	s.WriteFile("kakehashi.toml", "search = false\ncalculators = false\n").Build().AssertFresh().
		AssertAbsent("ja/search-index.js", "ko/search-index.js").
		AssertNotContains("ja/cka/03-calc/index.html", "/js/calc.", `class="search"`).
		AssertContains("ja/cka/03-calc/index.html", "data-calc=")
}

// replaceOnce replaces the one occurrence of old in s.
func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if strings.Count(s, old) != 1 {
		t.Fatalf("%q is not once in the site", old)
	}
	return strings.Replace(s, old, new, 1)
}

// TestSiteConfigTheme: theme names the folder under themes/ the site is
// rendered with; a theme that is not there is an error at its value.
func TestSiteConfigTheme(t *testing.T) {
	s := sitetest.New(t, twoParts(t))
	fs := s.Fs()
	err := afero.Walk(fs, "themes/default", func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, err := afero.ReadFile(fs, p)
		if err != nil {
			return err
		}
		return afero.WriteFile(fs, "themes/plain"+strings.TrimPrefix(p, "themes/default"), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Replace("themes/plain/layouts/partials.html", `<p class="generator">`, `<p class="generator plain">`).
		WriteFile("kakehashi.toml", "theme = \"plain\"\n").Build().
		AssertContains("ja/index.html", `<p class="generator plain">`).
		WriteFile("kakehashi.toml", "theme = \"plian\"\n").
		BuildFails(`kakehashi.toml:1:9: theme "plian" not found: no folder themes/plian; did you mean "plain"?`).
		WriteFile("kakehashi.toml", "theme = \"default\"\n").Build().AssertFresh().
		AssertNotContains("ja/index.html", `generator plain`)
}
