package build_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// twoSeries is the site of testdata/sites/two-series.txtar.
func twoSeries(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sites", "two-series.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const (
	jaIntro = "content/ja/cka/01-intro.md"
	jaPods  = "content/ja/ckad/01-pods.md"
)

// TestSiteSlugAliasesLastmod: a slug names the page's URL, its aliases
// are redirect pages to it, and its lastmod and summary reach the page,
// the feed and the sitemap.
func TestSiteSlugAliasesLastmod(t *testing.T) {
	s := sitetest.Test(t, twoSeries(t), sitetest.BaseURL("https://example.org/course/"))
	s.AssertExists("ja/cka/intro/index.html", "ja/old-intro/index.html", "ja/cka/01-intro/index.html", "ko/cka/01-intro/index.html").
		AssertContains("ja/cka/intro/index.html",
			`<link rel="canonical" href="https://example.org/course/ja/cka/intro/">`,
			`<a href="../../../ko/cka/01-intro/" hreflang="ko" lang="ko">`,
			`<span class="updated">更新 <time datetime="2026-11-20">2026年11月20日</time></span>`).
		AssertContains("ja/old-intro/index.html",
			`<meta http-equiv="refresh" content="0; url=../../ja/cka/intro/">`,
			`<link rel="canonical" href="https://example.org/course/ja/cka/intro/">`,
			`<p><a href="../../ja/cka/intro/">はじめに</a></p>`).
		AssertContains("ja/cka/01-intro/index.html", `<meta http-equiv="refresh" content="0; url=../../../ja/cka/intro/">`).
		AssertContains("ja/index.xml",
			"<updated>2026-11-20T00:00:00Z</updated>\n  <link",
			"<id>https://example.org/course/ja/cka/intro/</id>",
			"<updated>2026-11-20T00:00:00Z</updated>\n    <summary>短い要約</summary>").
		AssertContains("sitemap.xml", "<loc>https://example.org/course/ja/cka/intro/</loc>\n    <lastmod>2026-11-20</lastmod>").
		AssertNotContains("sitemap.xml", "old-intro", "ja/cka/01-intro/").
		AssertNotContains("ja/index.xml", "old-intro", "tags/")
}

// TestSiteAliasesInExport: in an export, the redirect names the target's
// index.html, which file:// needs.
func TestSiteAliasesInExport(t *testing.T) {
	s := sitetest.Test(t, twoSeries(t), sitetest.WithOptions(func(o *build.Options) { o.ExplicitIndex = true }))
	s.AssertContains("ja/old-intro/index.html",
		`content="0; url=../../ja/cka/intro/index.html"`, `<a href="../../ja/cka/intro/index.html">`)
}

// TestSiteAliasErrors: an alias that names a page, or a slug that takes
// another page's URL, fails the build at the alias or the slug.
func TestSiteAliasErrors(t *testing.T) {
	sitetest.New(t, twoSeries(t)).Replace(jaIntro, "  - 01-intro\n", "  - 01-intro\n  - /ja/ckad/01-pods/\n").
		BuildFails(jaIntro + ":14:5: alias /ja/ckad/01-pods/ is already the URL of " + jaPods)
	sitetest.New(t, twoSeries(t)).Replace(jaIntro, "aliases:\n  - /ja/old-intro/\n  - 01-intro\n", "aliases: [/ja/tags/]\n").
		BuildFails(jaIntro + ":11:11: alias /ja/tags/ is already the URL of the generated tags page")
	sitetest.New(t, twoSeries(t)).Replace(jaIntro, "slug: intro", "slug: 'a/b'").
		BuildFails(jaIntro + `:5:7: front matter field "slug" cannot be a URL segment: "a/b" contains '/': it must be a single name, not a path`)
}

// TestSiteUnknownFieldWarns: a misspelt field is a warning with did you
// mean, and the page still builds.
func TestSiteUnknownFieldWarns(t *testing.T) {
	sitetest.New(t, twoSeries(t)).Replace(jaIntro, "summary:", "sumary:").Build().
		AssertWarnings(jaIntro+`:9:1: warning: front matter field "sumary" is not known: did you mean "summary"? it is ignored`).
		AssertContains("ja/index.xml", "<summary>長い説明です。</summary>")
}

// TestSiteTwoSeries: each home page lists every series with its
// description and progress; part series= links across series, and the
// cross-series links follow an edit of the other series' file.
func TestSiteTwoSeries(t *testing.T) {
	s := sitetest.Test(t, twoSeries(t))
	s.AssertContains("ja/index.html",
		`<h2 id="series-cka"><a href="../ja/cka/">CKA</a></h2>`,
		`<p class="series-description">管理者の講座</p>`,
		`<p class="sub">全 2 回中 1 回公開</p>`,
		`<h2 id="series-ckad"><a href="../ja/ckad/">CKAD</a></h2>`,
		`<p class="series-description">開発者の講座</p>`,
		`<p class="sub">全 3 回中 1 回公開</p>`).
		AssertContains("ko/index.html", `<p class="sub">3편 중 1편 공개</p>`, `<p class="series-description">개발자 강좌</p>`).
		AssertExists("ja/cka/index.html", "ja/ckad/index.html").
		AssertContains("ja/cka/intro/index.html",
			`<a class="part-ref" href="../../../ja/ckad/01-pods/">#1 Pod の設計</a>`,
			`<span class="part-ref planned">#2 Deployment<span class="planned-mark">準備中</span></span>`,
			`<span class="part-ref planned" title="次回">#2<span class="planned-mark">準備中</span></span>`).
		AssertContains("ja/ckad/01-pods/index.html", `<a class="part-ref" href="../../../ja/cka/intro/">#1 はじめに</a>`).
		AssertContains("ko/ckad/01-pods/index.html", `<a class="part-ref" href="../../../ko/cka/01-intro/">#1 소개</a>`)
	s.Replace("content/series/ckad.yaml", "ja: Pod の設計,", "ja: Pod を設計する,").Build().AssertFresh().
		AssertContains("ja/cka/intro/index.html", `#1 Pod を設計する</a>`)
}

// TestSitePartSeriesErrors: an unknown series or part in part series= is
// an error at the shortcode.
func TestSitePartSeriesErrors(t *testing.T) {
	sitetest.New(t, twoSeries(t)).Replace(jaPods, `series="cka" n=1`, `series="ckd" n=1`).
		BuildFails(jaPods + `:8:5: series "ckd" is not known; did you mean "cka"?`)
	sitetest.New(t, twoSeries(t)).Replace(jaPods, `series="cka" n=1`, `series="cka" n=9`).
		BuildFails(jaPods + `:8:5: part 9 is not in series "cka"`)
}

// TestSiteTags: a page per tag and language listing its articles, an index
// per language, each with a description, tags linked from articles, all in the sitemap; an edit
// of an article's title reaches its tag pages.
func TestSiteTags(t *testing.T) {
	s := sitetest.Test(t, twoSeries(t), sitetest.BaseURL("https://example.org/"))
	s.AssertExists("ja/tags/index.html", "ja/tags/kubernetes/index.html", "ja/tags/control-plane/index.html",
		"ja/tags/インフラ/index.html", "ko/tags/index.html", "ko/tags/kubernetes/index.html").
		AssertAbsent("ko/tags/control-plane/index.html").
		AssertContains("ja/cka/intro/index.html",
			`<li><a href="../../../ja/tags/kubernetes/" rel="tag">Kubernetes</a></li><li><a href="../../../ja/tags/control-plane/" rel="tag">control plane</a></li>`).
		AssertContains("ja/tags/kubernetes/index.html",
			`<title>Kubernetes | タグ | コース</title>`,
			`<meta name="description" content="コースで「Kubernetes」のタグが付いた記事の一覧です。">`,
			`<p class="sub">2 件の記事</p>`,
			`<h2><a href="../../../ja/ckad/01-pods/">Pod の設計</a></h2>`,
			`<h2><a href="../../../ja/cka/intro/">はじめに</a></h2>`,
			`<p class="summary">短い要約</p>`,
			`<a href="../../../ko/tags/kubernetes/" hreflang="ko" lang="ko">`).
		AssertContains("ja/tags/index.html",
			`<meta name="description" content="コースの記事をタグから探せます。">`,
			`<li><a href="../../ja/tags/control-plane/" rel="tag">control plane</a> <span class="count">1 件の記事</span></li>`,
			`<li><a href="../../ja/tags/kubernetes/" rel="tag">Kubernetes</a> <span class="count">2 件の記事</span></li>`).
		AssertContains("ja/index.html",
			`<h2 id="tags-title"><a href="../ja/tags/">タグ</a></h2>`,
			`<li><a href="../ja/tags/control-plane/" rel="tag">control plane</a></li>`).
		AssertContains("sitemap.xml", "<loc>https://example.org/ja/tags/</loc>", "<loc>https://example.org/ja/tags/kubernetes/</loc>",
			"<loc>https://example.org/ko/tags/kubernetes/</loc>")
	s.Replace(jaPods, "title: Pod の設計", "title: Pod を設計する").Build().AssertFresh().
		AssertContains("ja/tags/kubernetes/index.html", `>Pod を設計する</a></h2>`)
}
