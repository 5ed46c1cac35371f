package build_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// twoParts is the site of testdata/sites/two-parts.txtar: parts 1 and 2
// published in both languages, part 3 planned.
func twoParts(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sites", "two-parts.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const (
	ja1 = "content/ja/cka/01-intro.md"
	ko1 = "content/ko/cka/01-intro.md"
	ja2 = "content/ja/cka/02-inside.md"
	ko2 = "content/ko/cka/02-inside.md"
)

// TestSiteBadInput: each kind of bad input fails the build with exactly
// these diagnostics, every error of the stage at once.
func TestSiteBadInput(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(s *sitetest.Site)
		want  []string // every diagnostic's "path:line:col: message"
		lines []string // texts of the printed error: the offending lines
	}{
		{"malformed front matter",
			func(s *sitetest.Site) { s.WriteFile(ja1, "---\ntitle: [unclosed\n---\nbody\n") },
			[]string{ja1 + ":2:9: front matter: did not find expected ',' or ']'"},
			[]string{"    2 | title: [unclosed"}},
		{"wrong field type",
			func(s *sitetest.Site) { s.Replace(ja1, "part: 1", "part: five") },
			[]string{ja1 + `:4:7: front matter field "part" must be a positive whole number, got string "five"`},
			[]string{"    4 | part: five", "      |       ^"}},
		{"part not in series",
			func(s *sitetest.Site) { s.Replace(ja1, "part: 1", "part: 9") },
			[]string{ja1 + `:4:1: part 9 is not in series "cka" (content/series/cka.yaml lists #1, #2, #3)`}, nil},
		{"a planned part with a page",
			func(s *sitetest.Site) { s.Replace(ja1, "part: 1", "part: 3") },
			[]string{ja1 + `:4:1: part 3 has a page but content/series/cka.yaml marks it "planned": mark it published`}, nil},
		{"unknown series",
			func(s *sitetest.Site) { s.Replace(ja1, "series: cka", "series: ckad") },
			[]string{ja1 + `:3:1: series "ckad" has no series file (content/series/ckad.yaml)`}, nil},
		{"invalid UTF-8",
			func(s *sitetest.Site) { s.WriteFile(ja1, "---\ntitle: x\n---\nok\n\xfe\n") },
			[]string{ja1 + ":5:1: invalid UTF-8 (byte 0xfe): save the file as UTF-8"}, nil},
		{"two errors at once",
			func(s *sitetest.Site) {
				s.Replace(ja1, "part: 1", "part: nine")
				s.Replace(ko2, "date: 2026-10-08", "date: soon")
			},
			[]string{
				ja1 + `:4:7: front matter field "part" must be a positive whole number, got string "nine"`,
				ko2 + `:5:7: front matter field "date" must be a date like 2026-11-02 or 2026-11-02T09:00:00+09:00, got string "soon"`,
			}, nil},
		{"a series part of the wrong type",
			// The pages are checked against the parts that could be read
			// in the same build.
			func(s *sitetest.Site) { s.Replace("content/series/cka.yaml", "number: 3", "number: three") },
			[]string{
				`content/ja/cka/01-intro.md:7:13: #3: the series has no part 3`,
				`content/ko/cka/01-intro.md:7:14: #3: the series has no part 3`,
				`content/series/cka.yaml:10:5: part has no "number"`,
				`content/series/cka.yaml:10:13: part "number" must be a positive whole number, got "three"`,
			}, nil},
		{"missing UI string",
			// A key the site's ko.toml lacks is the embedded one; a key
			// that only one language has is an error.
			func(s *sitetest.Site) { s.WriteFile("i18n/ko.toml", "toc = \"목차\"\nsite_only = \"x\"\n") },
			[]string{`i18n/ko.toml:2:1: key "site_only" is missing from (embedded) i18n/ja.toml`}, nil},
		{"template syntax error",
			func(s *sitetest.Site) {
				s.WriteFile("themes/default/layouts/article.html", "{{define \"main\"}}\n{{if}}{{end}}")
			},
			[]string{"themes/default/layouts/article.html:2:1: missing value for if"}, nil},
		{"template execution error",
			func(s *sitetest.Site) {
				s.Replace("themes/default/layouts/404.html", `{{define "main"}}`, `{{define "main"}}{{.Site.Nope}}`)
			},
			[]string{`themes/default/layouts/404.html:3:25: executing "main" at <.Site.Nope>: can't evaluate field Nope in type *render.Site`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sitetest.New(t, twoParts(t))
			tt.edit(s)
			s.BuildFails(tt.want...).AssertErrorText(tt.lines...)
		})
	}
}

// TestSiteBrokenEditKeepsLastGood: a broken edit after a good build
// leaves the published site as it was, and the Builder keeps what the
// last good build had, so the fix builds as a fresh build would.
func TestSiteBrokenEditKeepsLastGood(t *testing.T) {
	s := sitetest.Test(t, twoParts(t))
	out := afero.NewMemMapFs()
	if err := output.Publish(context.Background(), out, "/public", s.Result().Site); err != nil {
		t.Fatal(err)
	}
	before, err := afero.ReadFile(out, "/public/ja/cka/01-intro/index.html")
	if err != nil || len(before) == 0 {
		t.Fatalf("published page: %v", err)
	}
	good := s.Read(ja1)
	s.WriteFile(ja1, "---\npart: x\n---\n").
		BuildFails(ja1 + `:2:7: front matter field "part" must be a positive whole number, got string "x"`)
	after, _ := afero.ReadFile(out, "/public/ja/cka/01-intro/index.html")
	if string(after) != string(before) {
		t.Fatal("public/ changed after a failed build")
	}
	s.AssertContains("ja/cka/01-intro/index.html", "次は")
	s.WriteFile(ja1, strings.Replace(good, "次は", "続きは", 1)).Build().
		AssertContains("ja/cka/01-intro/index.html", "続きは").
		AssertFresh()
}

// TestSiteIncremental edits the site step by step; after each step the
// incremental build equals a fresh build of the same input, byte for
// byte, reports what changed, and re-renders only what it must.
func TestSiteIncremental(t *testing.T) {
	s := sitetest.Test(t, twoParts(t), sitetest.BaseURL("https://example.org/course/"))
	all := s.Result().Rendered
	const series = "content/series/cka.yaml"
	steps := []struct {
		name        string
		edit        func()
		changed     []string // among the changed output paths
		removed     []string // among the removed output paths
		maxRendered int      // at most this many templates executed
	}{
		{"nothing changed", func() {}, nil, nil, 0},
		{"edit a page", func() { s.Append(ja2, "\n追記した段落です。\n") },
			[]string{"ja/cka/02-inside/index.html"}, nil, 1},
		{"edit its translation's code block", func() { s.Replace(ko2, "cp-1   Ready", "cp-1   NotReady") },
			[]string{"ko/cka/02-inside/index.html"}, nil, 1},
		{"rename a part in the series file", func() { s.Replace(series, "ja: 次回", "ja: アップグレード") },
			[]string{"ja/cka/01-intro/index.html", "ja/cka/index.html"}, nil, all},
		{"publish the planned part", func() {
			s.Replace(series, "ja: アップグレード, ko: 다음}\n    state: planned", "ja: アップグレード, ko: 다음}\n    state: published")
			s.WriteFile("content/ja/cka/03-upgrade.md", "---\ntitle: アップグレード\nseries: cka\npart: 3\ndate: 2026-10-15\n---\n#2 の続きです。\n")
			s.WriteFile("content/ko/cka/03-upgrade.md", "---\ntitle: 업그레이드\nseries: cka\npart: 3\ndate: 2026-10-15\n---\n#2 의 다음입니다.\n")
		}, []string{"ja/cka/03-upgrade/index.html", "ko/cka/03-upgrade/index.html", "ja/cka/01-intro/index.html", "sitemap.xml"}, nil, all + 2},
		{"remove it again", func() {
			s.Remove("content/ja/cka/03-upgrade.md").Remove("content/ko/cka/03-upgrade.md")
			s.Replace(series, "ko: 다음}\n    state: published", "ko: 다음}\n    state: planned")
		}, nil, []string{"ja/cka/03-upgrade/index.html", "ko/cka/03-upgrade/index.html"}, all},
		{"remove one translation of a published part", func() { s.Remove(ko2) },
			[]string{"ko/cka/index.html", "ko/cka/02-inside/index.html", "sitemap.xml"}, nil, all},
		{"bring it back", func() { s.WriteFile(ko2, s.Read(ja2)) },
			[]string{"ko/cka/02-inside/index.html"}, nil, all},
		{"change a UI string", func() { s.WriteFile("i18n/ko.toml", "copy = \"복사하기\"\n") },
			[]string{"ko/cka/02-inside/index.html"}, nil, all + 2},
		{"change a theme template", func() {
			s.Replace("themes/default/layouts/baseof.html", "<body", "<!-- edited -->\n<body")
		}, []string{"ja/cka/01-intro/index.html", "ko/index.html", "404.html"}, nil, all + 2},
		// The stylesheet's hashed name changes, and every page links it.
		{"change a stylesheet", func() { s.Append("themes/default/static/css/main.css", "\n.edited { color: red; }\n") },
			[]string{"ja/cka/01-intro/index.html"}, nil, all + 2},
	}
	for _, st := range steps {
		st.edit()
		before := s.Result().Assets["/css/main.css"]
		s.Build().AssertFresh().AssertChanged(st.changed...).AssertRemoved(st.removed...).AssertRendered(st.maxRendered)
		if st.name == "change a stylesheet" {
			after := s.Result().Assets["/css/main.css"]
			if after == before {
				t.Errorf("the stylesheet changed, its name %s did not", after)
			}
			s.AssertChanged(after[1:]).AssertRemoved(before[1:])
		}
		if st.name == "nothing changed" {
			if r := s.Result(); len(r.Changed)+len(r.Removed) > 0 {
				t.Errorf("nothing changed, yet changed=%v removed=%v", r.Changed, r.Removed)
			}
		}
		if t.Failed() {
			t.Fatalf("after step %q", st.name)
		}
	}
}

// TestSiteMissingTranslation: a published part without a page in one
// language is a warning, not an error; that language gets a page that
// says so at the URL its switcher leads to, linking to the original, left
// out of the alternates and the sitemap; its series index offers the
// original.
func TestSiteMissingTranslation(t *testing.T) {
	s := sitetest.New(t, twoParts(t), sitetest.BaseURL("https://example.org/c/"))
	s.Remove(ko2).Build().
		AssertExists("ja/cka/02-inside/index.html").
		AssertWarnings("content/series/cka.yaml:7:5: warning: part #2 is published but has no ko page").
		AssertContains("ko/cka/02-inside/index.html",
			`<html lang="ko"`,
			`<link rel="canonical" href="https://example.org/c/ja/cka/02-inside/">`,
			`<h1>구조</h1>`,
			`<aside class="callout warning translation-notice" data-translation-state="missing">`,
			`<p>이 글은 아직 번역되지 않았습니다.</p>`,
			`<a href="../../../ja/cka/02-inside/" hreflang="ja">원문(일본어) 읽기</a>: <span lang="ja">仕組み</span>`,
			`<nav class="series-nav"`).
		AssertNotContains("ko/cka/02-inside/index.html", `hreflang="ko" href=`, `<link rel="alternate" hreflang="ja"`, `noindex`, `<link rel="canonical" href="https://example.org/c/ko/`).
		// the original's switcher leads there; no alternate names it
		AssertContains("ja/cka/02-inside/index.html", `<a class="untranslated" href="../../../ko/cka/02-inside/" hreflang="ko" lang="ko">한국어`).
		AssertNotContains("ja/cka/02-inside/index.html", `hreflang="ko" href="https://example.org/c/ko/cka/02-inside/"`).
		AssertNotContains("sitemap.xml", "ko/cka/02-inside/").
		// the Korean series index: readable in Japanese, not planned
		AssertContains("ko/cka/index.html",
			`<a href="../../ja/cka/02-inside/" hreflang="ja"><span class="num">#2</span> <span class="name">구조</span> <span class="badge original-only">원문(일본어)만 있음</span></a>`)
}

// TestSiteLongSeriesWindow: an article of a long series lists the parts
// near it, the first and last two, and marks the gaps; the series index
// lists them all.
func TestSiteLongSeriesWindow(t *testing.T) {
	s := sitetest.New(t, "", sitetest.Course())
	var extra strings.Builder
	for n := 30; n < 90; n++ {
		extra.WriteString("  - number: " + strconv.Itoa(n) + "\n    title: { ja: \"第" + strconv.Itoa(n) + "回\", ko: \"제" + strconv.Itoa(n) + "회\" }\n    state: planned\n")
	}
	s.Append("content/series/cka.yaml", extra.String()).Build()
	var nums []string
	for _, p := range s.Result().Pages {
		if p.URL != "/ja/cka/05-ha-cluster/" {
			continue
		}
		for _, pr := range p.Series.Parts {
			n := strconv.Itoa(pr.Number)
			if pr.Gap {
				n = "…" + n
			}
			nums = append(nums, n)
		}
	}
	if got, want := strings.Join(nums, " "), "2 4 5 6 7 24 30 31 32 33 …88 89"; got != want {
		t.Errorf("article lists %s\nwant %s", got, want)
	}
	s.AssertContains("ja/cka/index.html", "第60回", "第89回")
}

// TestSiteCourseIncremental runs the bundled course through edits of each
// kind of input; each incremental build equals a fresh one.
func TestSiteCourseIncremental(t *testing.T) {
	const art = "content/ja/cka/05-ha-cluster.md"
	s := sitetest.Test(t, "", sitetest.Course(), sitetest.BaseURL("https://example.org/course/"))
	// the article, and its translation now behind it
	s.Append(art, "\n追記した段落です。\n").Build().AssertFresh().AssertRendered(2).
		AssertContains("ja/cka/05-ha-cluster/index.html", "追記した段落です。").
		AssertContains("ko/cka/05-ha-cluster/index.html", `data-translation-state="stale"`)
	s.Replace("content/series/cka.yaml", "ja: \"クラスターアップグレード\"", "ja: \"アップグレード\"").Build().AssertFresh()
	s.Replace("i18n/ja.toml", `toc = "目次"`, `toc = "この記事の目次"`).Build().AssertFresh().
		AssertContains("ja/cka/05-ha-cluster/index.html", "この記事の目次")
	s.Append("themes/default/layouts/article.html", "\n{{/* edited */}}\n").Build().AssertFresh()
	s.Remove("content/ko/cka/02-control-plane.md").Build().AssertFresh().
		AssertContains("ko/cka/02-control-plane/index.html", `data-translation-state="missing"`)
}

// TestSiteSection: an _index.md in a folder that is no series is a page
// of its own, laid out as an article by a theme without section.html.
func TestSiteSection(t *testing.T) {
	s := sitetest.New(t, twoParts(t))
	s.WriteFile("content/ja/about/_index.md", "---\ntitle: このコースについて\n---\n本文です。\n").
		WriteFile("content/ko/about/_index.md", "---\ntitle: 이 코스에 대해\n---\n본문입니다.\n").
		Build().
		AssertContains("ja/about/index.html", "<h1>このコースについて</h1>", "本文です。").
		AssertContains("ko/about/index.html", "<h1>이 코스에 대해</h1>", `hreflang="ja"`)
}

// TestSiteIncrementalStructure: the data of a page is taken whole from
// the last build only while nothing it shows of other pages changed: an
// edit to one page's title, its divider's summary (which the tag pages
// list for a page without a description) or its body reaches every page
// that shows it, as a fresh build has it.
func TestSiteIncrementalStructure(t *testing.T) {
	const ja2, ja5 = "content/ja/cka/02-control-plane.md", "content/ja/cka/05-ha-cluster.md"
	s := sitetest.Test(t, "", sitetest.Course(), sitetest.BaseURL("https://example.org/course/"))
	s.Build().AssertFresh()
	s.Replace(ja2, `title: "コントロールプレーンはなぜ四つに割れたのか"`, `title: "四つに割れたコントロールプレーン"`).Build().AssertFresh().
		AssertContains("ja/tags/cka/index.html", "四つに割れたコントロールプレーン")
	// Without a description, the tag pages list the text before the
	// divider.
	s.Replace(ja2, "\ndescription: \"", "\nsummaryless: \"").Build()
	s.Replace(ja2, "## 一言でいうと\n", "## 一言でいうと\n\n分割の要約です。\n\n<!--more-->\n").Build().AssertFresh().
		AssertContains("ja/tags/cka/index.html", "分割の要約です。")
	s.Replace(ja2, "分割の要約です。", "書き換えた要約です。").Build().AssertFresh().
		AssertContains("ja/tags/cka/index.html", "書き換えた要約です。")
	s.Append(ja5, "\n追記した段落です。\n").Build().AssertFresh().
		AssertContains("ko/cka/05-ha-cluster/index.html", `data-translation-state="stale"`)
	s.Build().AssertFresh().AssertRendered(0)
}
