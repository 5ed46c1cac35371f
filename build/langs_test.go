package build_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// TestRenderDocLangs: a document renders in one of the site's languages
// (Builder.Langs, build/config's), none other.
func TestRenderDocLangs(t *testing.T) {
	s := sitetest.New(t, twoParts(t))
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	langs, err := b.Langs(context.Background())
	if err != nil || !slices.Equal(langs, []string{"ja", "ko"}) {
		t.Fatalf("Langs = %v, %v; want the content folders, ja and ko", langs, err)
	}
	for _, tc := range []struct{ lang, want string }{
		{"", "準備中"},
		{"ko", "준비 중"},
	} {
		html, diags := b.RenderDoc(context.Background(), "x.md", []byte("---\nseries: cka\npart: 1\n---\n#3\n"), tc.lang)
		if len(diags) > 0 || !strings.Contains(string(html), tc.want) {
			t.Errorf("RenderDoc(%q) = %s, %v; want %s", tc.lang, html, diags, tc.want)
		}
	}
	_, diags := b.RenderDoc(context.Background(), "x.md", []byte("#3\n"), "en")
	if got := diags.Errors(); len(got) != 1 || got[0].Header() != `x.md: language "en" is not one of the site's languages (ja, ko)` {
		t.Errorf("RenderDoc(en) = %v, want that en is not one of the site's languages", diags)
	}
}

// threeLangs is the site of testdata/sites/three-langs.txtar: a course in
// Japanese, Korean and English, the English strings the binary's own.
func threeLangs(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sites", "three-langs.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestThreeLanguages: a third language is its content folder and its
// place in the languages list: the switcher, hreflang and x-default, the
// sitemap's alternates, the feeds, search, the translation notices, the
// series index and check all have the three, and translationOf names any
// language as the original.
func TestThreeLanguages(t *testing.T) {
	s := sitetest.Test(t, threeLangs(t))
	if got := s.Result().Langs; !slices.Equal(got, []string{"ja", "ko", "en"}) {
		t.Fatalf("Langs = %v, want the configuration's ja, ko, en", got)
	}
	s.AssertWarnings(
		"content/en/cka/01-intro.md:7:1: warning: stale translation: content/ja/cka/01-intro.md changed since this was marked on 2026-09-20; update the translation, then run kakehashi translations mark content/en/cka/01-intro.md",
		"content/series/cka.yaml:10:5: warning: part #3 is published but has no ko page")

	// The switcher: every language, the missing one marked so.
	s.AssertContains("ja/cka/03-certificates/index.html",
		`<a href="../../../ja/cka/03-certificates/" hreflang="ja" lang="ja" aria-current="page">日本語</a>`,
		`<a class="untranslated" href="../../../ko/cka/03-certificates/" hreflang="ko" lang="ko">한국어<span class="visually-hidden" lang="ja"> (この言語ではまだ読めません)</span></a>`,
		`<a href="../../../en/cka/03-certificates/" hreflang="en" lang="en">English</a>`)
	// hreflang alternates, x-default the first language's.
	s.AssertContains("en/cka/01-intro/index.html", `<html lang="en"`,
		`<link rel="alternate" hreflang="ja" href="https://example.org/course/ja/cka/01-intro/">`,
		`<link rel="alternate" hreflang="ko" href="https://example.org/course/ko/cka/01-intro/">`,
		`<link rel="alternate" hreflang="en" href="https://example.org/course/en/cka/01-intro/">`,
		`<link rel="alternate" hreflang="x-default" href="https://example.org/course/ja/cka/01-intro/">`)
	// The sitemap: each page with its three alternates.
	s.AssertContains("sitemap.xml",
		`<loc>https://example.org/course/en/cka/02-quorum/</loc>`,
		`hreflang="en" href="https://example.org/course/en/cka/02-quorum/"`,
		`hreflang="ko" href="https://example.org/course/ko/cka/02-quorum/"`)
	// A feed per language, the English one in English.
	s.AssertContains("en/index.xml", `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">`,
		`<title>A course in three languages</title>`, `https://example.org/course/en/cka/03-certificates/`).
		AssertContains("en/cka/01-intro/index.html", `title="New articles: A course in three languages" href="../../../en/index.xml"`).
		AssertNotContains("ko/index.xml", "03-certificates")
	// Search in English.
	idx, err := search.Load("en", s.Result().Site.Get)
	if err != nil {
		t.Fatal(err)
	}
	if hits := search.Search(idx, "quorum survives"); len(hits) == 0 || hits[0].URL != "/en/cka/02-quorum/" {
		t.Errorf("English search: %+v, want /en/cka/02-quorum/ first", hits)
	}

	// Translation notices: the English part 1 is behind its Japanese
	// original; the Korean part 3 is missing, its original English.
	s.AssertContains("en/cka/01-intro/index.html", `data-translation-state="stale"`,
		`<p>This translation follows the original as of September 20, 2026. The original has changed since.</p>`,
		`<a href="../../../ja/cka/01-intro/" hreflang="ja">Read the original (Japanese)</a>`).
		AssertNotContains("ko/cka/01-intro/index.html", "data-translation-state")
	s.AssertContains("ko/cka/03-certificates/index.html", `data-translation-state="missing"`,
		`<a href="../../../en/cka/03-certificates/" hreflang="en">원문(영어) 읽기</a>: <span lang="en">Certificates</span>`).
		AssertContains("ko/cka/index.html", `<a href="../../en/cka/03-certificates/" hreflang="en"><span class="num">#3</span> <span class="name">인증서</span> <span class="badge original-only">원문(영어)만 있음</span></a>`)
	// translationOf: part 2's original is Korean, part 3's English; the
	// marked translations are current.
	s.AssertNotContains("ja/cka/02-quorum/index.html", "data-translation-state").
		AssertNotContains("ja/cka/03-certificates/index.html", "data-translation-state").
		AssertNotContains("ko/cka/02-quorum/index.html", "data-translation-state")

	// The English strings, plural forms where a count is shown.
	s.AssertContains("en/cka/index.html", "4 parts (planned ones included)").
		AssertContains("en/index.html", "3 of 4 published").
		AssertContains("en/tags/etcd/index.html", "1 article").
		AssertContains("en/cka/03-certificates/index.html",
			`stacked etcd: 3 control planes (each running apiserver and etcd), 1 worker, behind a load balancer.`).
		AssertContains("ja/cka/03-certificates/index.html", `control plane 3 台`)

	// check: the translations of every pair, whatever their original.
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	ds, err := b.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Header())
	}
	want := []string{
		"content/en/cka/01-intro.md:7:1: warning: stale translation: content/ja/cka/01-intro.md changed since this was marked on 2026-09-20; update the translation, then run kakehashi translations mark content/en/cka/01-intro.md",
		"content/en/cka/02-quorum.md: warning: translation of content/ko/cka/02-quorum.md is not marked: once it is up to date, run kakehashi translations mark content/en/cka/02-quorum.md",
		"content/series/cka.yaml:10:5: warning: part #3 is published but has no ko page",
	}
	if !slices.Equal(got, want) {
		t.Errorf("check:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}

	// An edit of the Korean original makes its two translations stale,
	// incrementally as in a fresh build.
	s.Append("content/ko/cka/02-quorum.md", "\n쿼럼은 과반수입니다.\n").Build().AssertFresh().
		AssertContains("ja/cka/02-quorum/index.html", `data-translation-state="stale"`, `原文 (韓国語) を読む`)
}

// TestLangsFromFolders: without a languages list the site's languages are
// its content folders: a folder made or removed between two builds adds
// or drops a language, as a fresh build would, and a strings file alone
// adds none.
func TestLangsFromFolders(t *testing.T) {
	s := sitetest.New(t, twoParts(t)).WriteFile("i18n/fr.toml", "lang_name = \"Français\"\n").Build()
	if got := s.Result().Langs; !slices.Equal(got, []string{"ja", "ko"}) {
		t.Fatalf("Langs = %v, want ja, ko: a strings file adds no language", got)
	}
	s.Replace("content/series/cka.yaml", "ko: CKA}", "ko: CKA, en: CKA}", "ko: 소개}", "ko: 소개, en: Intro}",
		"ko: 구조}", "ko: 구조, en: Inside}", "ko: 다음}", "ko: 다음, en: Next}").
		WriteFile("content/en/cka/01-intro.md", "---\ntitle: Intro\nseries: cka\npart: 1\n---\nNext is #2.\n").
		Build().AssertFresh().
		AssertContains("ja/cka/01-intro/index.html", `hreflang="en" lang="en">English</a>`).
		AssertContains("en/cka/02-inside/index.html", `data-translation-state="missing"`)
	if got := s.Result().Langs; !slices.Equal(got, []string{"en", "ja", "ko"}) {
		t.Errorf("Langs = %v, want the folders in order, en, ja, ko", got)
	}
	s.Remove("content/en/cka/01-intro.md")
	if err := s.Fs().RemoveAll("content/en"); err != nil {
		t.Fatal(err)
	}
	s.Build().AssertFresh().AssertNotContains("ja/cka/01-intro/index.html", `hreflang="en"`)
	if got := s.Result().Langs; !slices.Equal(got, []string{"ja", "ko"}) {
		t.Errorf("Langs = %v after content/en went, want ja, ko", got)
	}
}
