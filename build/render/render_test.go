package render

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/spf13/afero"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func TestRel(t *testing.T) {
	tests := []struct {
		from, target, want string
	}{
		{"/ja/cka/05-ha-cluster/", "/css/main.css", "../../../css/main.css"},
		{"/ko/cka/05-ha-cluster/", "/ko/cka/05-ha-cluster/", "../../../ko/cka/05-ha-cluster/"},
		{"/ja/cka/05-ha-cluster/", "/ja/cka/", "../../../ja/cka/"},
		{"/ja/cka/05-ha-cluster/", "/ja/cka/02-control-plane/#etcd", "../../../ja/cka/02-control-plane/#etcd"},
		{"/ja/", "/css/main.css", "../css/main.css"},
		{"/ja/", "/", "../"},
		{"/", "/ja/", "ja/"},
		{"/", "/", "./"},
		{"/", "/#top", "./#top"},
		{"/", "/css/main.css", "css/main.css"},
		{"/404.html", "/css/main.css", "css/main.css"},
		{"/ja/cka/page.html", "/ja/", "../../ja/"},
		{"/ja/cka/05-ha-cluster/", "#spof", "#spof"},
		{"/ja/cka/05-ha-cluster/", "../04/", "../04/"},
		{"/ja/cka/05-ha-cluster/", "https://kubernetes.io/", "https://kubernetes.io/"},
		{"/ja/cka/05-ha-cluster/", "//cdn.example/x.js", "//cdn.example/x.js"},
		{"/ja/cka/05-ha-cluster/", "", ""},
		{"/ja/cka/05-ha-cluster/?q=1", "/css/main.css", "../../../css/main.css"},
	}
	for _, tt := range tests {
		if got := Rel(tt.from, tt.target); got != tt.want {
			t.Errorf("Rel(%q, %q) = %q, want %q", tt.from, tt.target, got, tt.want)
		}
	}
}

func TestAbs(t *testing.T) {
	tests := []struct {
		base, p, want string
	}{
		{"https://example.org/course/", "/ja/", "https://example.org/course/ja/"},
		{"https://example.org/course", "/ja/", "https://example.org/course/ja/"},
		{"https://example.org/", "/", "https://example.org/"},
		{"", "/ja/", "/ja/"},
		{"https://example.org/", "https://other.example/x", "https://other.example/x"},
	}
	for _, tt := range tests {
		if got := Abs(tt.base, tt.p); got != tt.want {
			t.Errorf("Abs(%q, %q) = %q, want %q", tt.base, tt.p, got, tt.want)
		}
	}
}

func render(t *testing.T, th *Theme, p *Page) string {
	t.Helper()
	var b bytes.Buffer
	if err := th.Render(&b, p); err != nil {
		t.Fatalf("Render(%s %s): %v", p.Kind, p.URL, err)
	}
	return b.String()
}

// check asserts that html contains every want and none of wantNot.
func check(t *testing.T, name, html string, want, wantNot []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(html, w) {
			t.Errorf("%s: missing %s", name, w)
		}
	}
	for _, w := range wantNot {
		if strings.Contains(html, w) {
			t.Errorf("%s: must not contain %s", name, w)
		}
	}
}

func TestRenderArticle(t *testing.T) {
	th := loadDefault(t)
	site := testSite()
	tests := []struct {
		lang          string
		want, wantNot []string
	}{
		{
			lang: "ja",
			want: []string{
				`<html lang="ja">`,
				`<title>HA クラスター: 複数 control plane、外部 etcd cluster | CKA 講座</title>`,
				`<link rel="canonical" href="https://example.org/course/ja/cka/05-ha-cluster/">`,
				`<link rel="alternate" hreflang="ja" href="https://example.org/course/ja/cka/05-ha-cluster/">`,
				`<link rel="alternate" hreflang="ko" href="https://example.org/course/ko/cka/05-ha-cluster/">`,
				`<link rel="alternate" hreflang="x-default" href="https://example.org/course/ja/cka/05-ha-cluster/">`,
				`<meta name="description" content="単一障害点をなくす高可用性クラスターを &#34;stacked&#34; と &lt;external&gt; の`,
				`<meta property="og:title" content="HA クラスター: 複数 control plane、外部 etcd cluster">`,
				`<meta property="og:type" content="article">`,
				`<meta property="og:url" content="https://example.org/course/ja/cka/05-ha-cluster/">`,
				`<meta property="og:locale" content="ja_JP">`,
				`<meta property="og:locale:alternate" content="ko_KR">`,
				`<meta name="generator" content="kakehashi test">`,
				`<link rel="alternate" type="application/atom+xml" title="かけはし CKA 講座の新着記事" href="../../../ja/index.xml">`,
				`<link rel="stylesheet" href="../../../css/main.css">`,
				`<link rel="stylesheet" href="../../../css/chroma.css">`,
				`<script src="../../../js/main.js" defer></script>`,
				`<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'">`,
				`<a class="skip-link" href="#main">本文へスキップ</a>`,
				`<header class="site-header">`, `<main id="main"`, `<footer class="site-footer">`,
				`<aside class="toc" aria-labelledby="toc-title">`,
				`<nav class="lang-switch" aria-label="言語の切り替え">`,
				// The switcher: the current language marked, the other
				// landing on the same page.
				`<a href="../../../ja/cka/05-ha-cluster/" hreflang="ja" lang="ja" aria-current="page">日本語</a>`,
				`<a href="../../../ko/cka/05-ha-cluster/" hreflang="ko" lang="ko">한국어</a>`,
				`<script type="application/json" id="kakehashi-config">{"search":{"script":"../../../js/search.js","style":"../../../css/search.css","index":"../../../ja/search-index.js","base":"../../../"}}</script>`,
				`placeholder="検索"`,
				`<time datetime="2026-11-02">2026年11月2日</time>`,
				`11 分で読めます`,
				`<li><a href="#topology">stacked etcd と external etcd</a>`,
				`<li><a href="#quorum">クォーラム</a></li>`,
				`<summary id="toc-title">目次</summary>`,
				// Series index: published parts linked, planned shown and unlinked.
				`<a href="../../../ja/cka/02-control-plane/"><span class="num">#2</span>`,
				`<li class="part planned"><span class="num">#4</span> <span class="name">kubeadm クラスターのインストール</span> <span class="badge">準備中</span></li>`,
				`<a href="../../../ja/cka/05-ha-cluster/" aria-current="page"><span class="num">#5</span>`,
				`<span class="prev planned"><span class="dir">前の記事</span>`,
				`<li><a href="../../../ja/tags/kubernetes/" rel="tag">Kubernetes</a></li><li><a href="../../../ja/tags/etcd/" rel="tag">etcd</a></li>`,
				`<div class="table-wrap"><table>`, // Content passed through unescaped
			},
			wantNot: []string{`href="/`, `src="/`, `<meta http-equiv="refresh"`, `href=""`,
				`<a href="../../../ja/cka/04`, `[ja:`},
		},
		{
			lang: "ko",
			want: []string{
				`<html lang="ko">`,
				`<meta property="og:locale" content="ko_KR">`,
				`<meta property="og:locale:alternate" content="ja_JP">`,
				`<link rel="alternate" hreflang="x-default" href="https://example.org/course/ja/cka/05-ha-cluster/">`,
				`<a href="../../../ko/cka/05-ha-cluster/" hreflang="ko" lang="ko" aria-current="page">한국어</a>`,
				`<a href="../../../ja/cka/05-ha-cluster/" hreflang="ja" lang="ja">日本語</a>`,
				`<a class="skip-link" href="#main">본문으로 건너뛰기</a>`,
				`<time datetime="2026-11-02">2026년 11월 2일</time>`,
				`읽는 데 약 11분`,
				`<span class="badge">준비 중</span>`,
				`{"search":{"script":"../../../js/search.js","style":"../../../css/search.css","index":"../../../ko/search-index.js","base":"../../../"}}`,
			},
			wantNot: []string{`href="/`, `src="/`, `[ko:`},
		},
	}
	for _, tt := range tests {
		html := render(t, th, articlePage(site, tt.lang))
		check(t, "article "+tt.lang, html, tt.want, tt.wantNot)
		golden(t, filepath.Join("testdata", "article."+tt.lang+".html"), html)
	}
}

func TestRenderUntranslated(t *testing.T) {
	th := loadDefault(t)
	p := articlePage(testSite(), "ko")
	p.Translations = translations("/cka/05-ha-cluster/", map[string]bool{"ko": true})
	p.Scripts = []string{"/js/calc.js"}
	html := render(t, th, p)
	check(t, "untranslated", html,
		[]string{
			`<link rel="alternate" hreflang="ko" href="https://example.org/course/ko/cka/05-ha-cluster/">`,
			// The missing Japanese page sends the reader to the Japanese home.
			`<a class="untranslated" href="../../../ja/" hreflang="ja" lang="ja">日本語<span class="visually-hidden" lang="ko"> (이 언어로 된 글은 아직 없습니다)</span></a>`,
			`<script src="../../../js/calc.js" defer></script>`,
		},
		[]string{`hreflang="ja" href="https://`, `hreflang="x-default"`, `og:locale:alternate`})
}

func TestRenderOtherKinds(t *testing.T) {
	th := loadDefault(t)
	site := testSite()
	tests := []struct {
		name          string
		page          *Page
		want, wantNot []string
	}{
		{
			name: "home",
			page: homePage(site, "ko"),
			want: []string{
				`<html lang="ko">`, `<title>카케하시 CKA 강좌</title>`,
				`<link rel="stylesheet" href="../css/main.css">`,
				`<link rel="canonical" href="https://example.org/course/ko/">`,
				`<meta property="og:type" content="website">`,
				`<a href="../ja/" hreflang="ja" lang="ja">日本語</a>`,
				`<h2 id="intro-title">이 사이트 소개</h2>`,
				`<a href="../ko/cka/">CKA 강좌</a>`,
				`<a href="../ko/cka/05-ha-cluster/"><span class="num">#5</span>`,
				`<span class="badge">준비 중</span>`,
				`<main id="main"`, `<footer`,
				`<h2 id="series-cka"><a href="../ko/cka/">CKA 강좌</a></h2>`,
				`<p class="series-description">관리자 강좌</p>`,
				`<p class="sub">4편 중 2편 공개</p>`,
				`<h2 id="series-ckad"><a href="../ko/ckad/">CKAD</a></h2>`,
				`<p class="sub">3편 중 0편 공개</p>`,
			},
			wantNot: []string{`href="/`, `aria-current="page"><span class="num">`},
		},
		{
			name: "article updated",
			page: func() *Page {
				p := articlePage(site, "ja")
				p.Lastmod = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
				return p
			}(),
			want: []string{`<span class="updated">更新 <time datetime="2026-11-20">2026年11月20日</time></span>`},
		},
		{
			name: "tag",
			page: tagPage(site, "ja"),
			want: []string{
				`<title>Kubernetes | タグ | `,
				`<body class="kind-tag"`,
				`<p class="eyebrow"><a href="../../../ja/tags/">タグ</a></p>`,
				`<h1>Kubernetes</h1>`,
				`<p class="sub">1 件の記事</p>`,
				`<h2><a href="../../../ja/cka/05-ha-cluster/">HA &lt;cluster&gt;</a></h2>`,
				`<span>CKA <span class="num">#5</span></span> · <span><time datetime="2026-11-02">2026年11月2日</time></span>`,
				`<p class="summary">short</p>`,
			},
			wantNot: []string{`href="/`},
		},
		{
			name: "tags",
			page: tagsPage(site, "ja"),
			want: []string{
				`<h1>タグ</h1>`,
				`<ul class="tags tag-index" aria-label="すべてのタグ">`,
				`<li><a href="../../ja/tags/kubernetes/" rel="tag">Kubernetes</a> <span class="count">2 件の記事</span></li>`,
				`<li><a href="../../ja/tags/%e3%82%a4%e3%83%b3%e3%83%95%e3%83%a9/" rel="tag">インフラ</a>`,
			},
			wantNot: []string{`href="/`},
		},
		{
			name: "series",
			page: seriesPage(site, "ja"),
			want: []string{
				`<html lang="ja">`, `<h1>CKA 講座</h1>`,
				`<link rel="stylesheet" href="../../css/main.css">`,
				`<a href="../../ja/cka/02-control-plane/"><span class="num">#2</span>`,
				`<li class="part planned"><span class="num">#6</span>`,
				`4 回を掲載 (公開予定を含む)`,
				`<a href="../../ko/cka/" hreflang="ko" lang="ko">한국어</a>`,
			},
			wantNot: []string{`href="/`, `<a href="../../ja/cka/04`},
		},
		{
			name: "root",
			page: rootPage(site),
			want: []string{
				`<html lang="ja">`,
				`<link rel="stylesheet" href="css/main.css">`,
				`<script src="js/main.js" defer></script>`,
				`<body class="kind-root"`,
				`<li lang="ja"><a href="ja/" hreflang="ja">`,
				`<li lang="ko"><a href="ko/" hreflang="ko"><span class="name">한국어</span><span class="sub">한국어로 읽기</span>`,
			},
			wantNot: []string{`http-equiv="refresh"`, `search.js`, `class="search"`, `href="/`},
		},
		{
			name: "404",
			page: notFoundPage(site),
			want: []string{
				`<link rel="stylesheet" href="https://example.org/course/css/main.css">`,
				`"script":"https://example.org/course/js/search.js"`,
				`<h1 id="nf-ja">ページが見つかりません</h1>`,
				`<section lang="ko" aria-labelledby="nf-ko">`,
				`<a class="button" href="https://example.org/course/ja/" hreflang="ja">ホームへ戻る</a>`,
				`<a class="button" href="https://example.org/course/ko/" hreflang="ko">홈으로 돌아가기</a>`,
				`"index":"https://example.org/course/ja/search-index.js"`,
			},
			wantNot: []string{`rel="canonical"`, `href="../`, `src="../`, `href="/`},
		},
	}
	for _, tt := range tests {
		check(t, tt.name, render(t, th, tt.page), tt.want, tt.wantNot)
	}
}

func TestRenderErrors(t *testing.T) {
	th := loadDefault(t)
	var b bytes.Buffer
	if err := th.Render(&b, nil); err == nil {
		t.Error("Render(nil) gave no error")
	}
	p := homePage(testSite(), "ja")
	p.Kind = "gallery"
	if err := th.Render(&b, p); err == nil || !strings.Contains(err.Error(), `no layout for page kind "gallery"`) {
		t.Errorf("Render(unknown kind) = %v", err)
	}
	p = homePage(testSite(), "ja")
	p.Site = nil
	if err := th.Render(&b, p); err == nil {
		t.Error("Render(page without Site) gave no error")
	}
	if b.Len() != 0 {
		t.Errorf("failed renders wrote %d bytes", b.Len())
	}
}

func TestRenderDeterministic(t *testing.T) {
	th := loadDefault(t)
	a := render(t, th, articlePage(testSite(), "ja"))
	render(t, th, articlePage(testSite(), "ko")) // reuse pooled instances
	if b := render(t, th, articlePage(testSite(), "ja")); a != b {
		t.Error("two renders of the same page differ")
	}
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the rendered page (run go test -update after checking the change):\n%s", path, firstDiff(string(want), got))
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return ""
}

// themeFs is a minimal theme in memory, with layouts overridden by files.
func themeFs(t *testing.T, files map[string]string) afero.Fs {
	t.Helper()
	base := map[string]string{
		"i18n/ja.toml":                   "toc = \"目次\"\ndate_format = \"2006年1月2日\"\n",
		"i18n/ko.toml":                   "toc = \"목차\"\ndate_format = \"2006년 1월 2일\"\n",
		"theme/layouts/baseof.html":      "{{define \"base\"}}<html lang=\"{{lang}}\"><title>{{template \"title\" .}}</title>{{template \"main\" .}}</html>{{end}}\n",
		"theme/layouts/article.html":     "{{define \"title\"}}{{.Title}}{{end}}{{define \"main\"}}<main>{{T \"toc\"}}</main>{{end}}\n",
		"theme/layouts/home.html":        "{{define \"title\"}}home{{end}}{{define \"main\"}}<main></main>{{end}}\n",
		"theme/layouts/series.html":      "{{define \"title\"}}series{{end}}{{define \"main\"}}<main></main>{{end}}\n",
		"theme/layouts/root.html":        "{{define \"title\"}}root{{end}}{{define \"main\"}}<main></main>{{end}}\n",
		"theme/layouts/404.html":         "{{define \"title\"}}404{{end}}{{define \"main\"}}<main></main>{{end}}\n",
		"theme/layouts/tags.html":        "{{define \"title\"}}tags{{end}}{{define \"main\"}}<main></main>{{end}}\n",
		"theme/layouts/tag.html":         "{{define \"title\"}}tag{{end}}{{define \"main\"}}<main></main>{{end}}\n",
		"theme/static/css/main.css":      "body{}\n",
		"theme/static/js/main.js":        "//\n",
		"theme/static/favicon.svg":       "<svg/>\n",
		"theme/static/.DS_Store":         "junk",
		"theme/layouts/partials.txt":     "not a layout",
		"theme/static/img/deep/logo.svg": "<svg/>\n",
	}
	fsys := afero.NewMemMapFs()
	for name, body := range base {
		if _, over := files[name]; !over {
			if err := afero.WriteFile(fsys, name, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, body := range files {
		if body == "" {
			continue // "" removes a file
		}
		if err := afero.WriteFile(fsys, name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

func loadMem(t *testing.T, fsys afero.Fs) (*Theme, diag.List) {
	t.Helper()
	b, diags := i18n.Load(context.Background(), fsys, "i18n")
	if len(diags) > 0 {
		t.Fatalf("i18n.Load: %v", diags)
	}
	return Load(context.Background(), fsys, "theme", b)
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // diagnostic headers, as regexps
	}{
		{
			name:  "syntax error in a kind layout",
			files: map[string]string{"theme/layouts/article.html": "{{define \"title\"}}x{{end}}\n{{define \"main\"}}\n  <main>{{if .Title}}</main>\n{{end}}\n"},
			want:  []string{`^theme/layouts/article\.html:\d+:\d+: .*`},
		},
		{
			name:  "syntax error on a known line",
			files: map[string]string{"theme/layouts/home.html": "{{define \"title\"}}x{{end}}\n{{define \"main\"}}\n\n    <main>{{.Title</main>{{end}}\n"},
			want:  []string{`^theme/layouts/home\.html:4:19: .*bad character`},
		},
		{
			name:  "syntax error in a partial",
			files: map[string]string{"theme/layouts/parts.html": "{{define \"x\"}}\n{{range}}{{end}}\n{{end}}\n"},
			want:  []string{`^theme/layouts/parts\.html:2:1: .*range`},
		},
		{
			name:  "unknown function",
			files: map[string]string{"theme/layouts/root.html": "{{define \"title\"}}x{{end}}{{define \"main\"}}\n{{nosuch .}}{{end}}\n"},
			want:  []string{`^theme/layouts/root\.html:2:3: .*"nosuch" not defined`},
		},
		{
			name:  "escaping error",
			files: map[string]string{"theme/layouts/404.html": "{{define \"title\"}}x{{end}}{{define \"main\"}}\n<a href=\"{{.URL}}>{{end}}\n"},
			want:  []string{`^theme/layouts/404\.html:\d+:\d+: .*`},
		},
		{
			name:  "missing layout",
			files: map[string]string{"theme/layouts/series.html": ""},
			want:  []string{`^theme/layouts/series\.html: missing: the layout for series pages$`},
		},
		{
			name:  "missing base",
			files: map[string]string{"theme/layouts/baseof.html": ""},
			want:  []string{`^theme/layouts/baseof\.html: missing`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, diags := loadMem(t, themeFs(t, tt.files))
			if th != nil {
				t.Error("Load returned a theme despite errors")
			}
			if len(diags) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%v", len(diags), len(tt.want), diags)
			}
			for i, d := range diags {
				if !regexp.MustCompile(tt.want[i]).MatchString(d.Header()) {
					t.Errorf("diagnostic %d = %q, want match for %q", i, d.Header(), tt.want[i])
				}
			}
		})
	}
}

func TestExecError(t *testing.T) {
	fsys := themeFs(t, map[string]string{
		"theme/layouts/article.html": "{{define \"title\"}}{{.Title}}{{end}}{{define \"main\"}}\n<main>\n  {{.Series.Title}}</main>{{end}}\n",
	})
	th, diags := loadMem(t, fsys)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var b bytes.Buffer
	err := th.Render(&b, &Page{Site: testSite(), Kind: KindArticle, Lang: "ja", URL: "/ja/x/"})
	var d diag.Diagnostic
	if !errors.As(err, &d) {
		t.Fatalf("Render error %v is not a diag.Diagnostic", err)
	}
	if want := "theme/layouts/article.html:3:12: "; !strings.HasPrefix(d.Header(), want) {
		t.Errorf("error = %q, want prefix %q", d.Header(), want)
	}
	if b.Len() != 0 {
		t.Errorf("a failed render wrote %q", b.String())
	}
}

func TestStatic(t *testing.T) {
	th, diags := loadMem(t, themeFs(t, nil))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	files, err := th.Static()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path+"="+staticText(t, f)+"@"+f.Source)
	}
	want := []string{
		"/css/main.css=body{}\n@theme/static/css/main.css",
		"/favicon.svg=<svg/>\n@theme/static/favicon.svg",
		"/img/deep/logo.svg=<svg/>\n@theme/static/img/deep/logo.svg",
		"/js/main.js=//\n@theme/static/js/main.js",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Static() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDefaultThemeBudget keeps an article page (HTML, main.css, main.js)
// small: the brief is under 60 KB with chroma.css, main.css under 17 KB
// (14 KB until the header's theme choice, search button and TOC mark, and
// the dark theme also under data-theme, added 2.4 KB, and reading
// progress 0.9 KB), main.js under 5 KB, as published (minified).
func TestDefaultThemeBudget(t *testing.T) {
	th := loadDefault(t)
	files, err := th.Static()
	if err != nil {
		t.Fatal(err)
	}
	limits := map[string]int{"/css/main.css": 17 << 10, "/js/main.js": 5 << 10}
	seen := map[string]bool{}
	min := NewMinifier()
	for _, f := range files {
		if lim, ok := limits[f.Path]; ok {
			seen[f.Path] = true
			if n := len(min.Minify(f.Path, f.Data)); n > lim {
				t.Errorf("%s is %d bytes minified, over %d", f.Path, n, lim)
			}
		}
		if bytes.Contains(f.Data, []byte("@import")) || bytes.Contains(f.Data, []byte("@font-face")) {
			t.Errorf("%s loads fonts or other stylesheets", f.Path)
		}
	}
	for p := range limits {
		if !seen[p] {
			t.Errorf("default theme has no %s", p)
		}
	}
	if n := len(render(t, th, articlePage(testSite(), "ja"))); n > 30<<10 {
		t.Errorf("test article page is %d bytes", n)
	}
}
