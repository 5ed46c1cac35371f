package build_test

import (
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// threeParts is twoParts with part 3 published in both languages and
// part 2 in Japanese only, and a planned part 4.
func threeParts(t *testing.T) *sitetest.Site {
	s := sitetest.New(t, twoParts(t))
	s.Replace("content/series/cka.yaml", "    title: {ja: 次回, ko: 다음}\n    state: planned",
		"    title: {ja: 次回, ko: 다음}\n    state: published\n  - number: 4\n    title: {ja: 予定, ko: 예정}\n    state: planned")
	s.WriteFile("content/ja/cka/03-next.md", "---\ntitle: 次回\nseries: cka\npart: 3\ndate: 2026-10-15\n---\n本文。\n")
	s.WriteFile("content/ko/cka/03-next.md", "---\ntitle: 다음\nseries: cka\npart: 3\ndate: 2026-10-15\n---\n본문.\n")
	return s.Remove(ko2)
}

// TestSitePagerOriginalOnly: the Korean pager leads to part 2, which is
// only in Japanese, at the Japanese page and marked so, rather than
// skipping it; the Japanese pager is as before; the planned part 4 is
// in no pager.
func TestSitePagerOriginalOnly(t *testing.T) {
	const mark = ` <span class="badge original-only">원문(일본어)만 있음</span>`
	s := threeParts(t).Build()
	s.AssertContains("ko/cka/01-intro/index.html",
		`<nav class="pager" aria-label="이전 글과 다음 글"><a class="next" rel="next" href="../../../ja/cka/02-inside/" hreflang="ja"><span class="dir">다음 글</span><span class="name"><span class="num">#2</span> 구조`+mark+`</span></a>`).
		AssertContains("ko/cka/03-next/index.html",
			`<a class="prev" rel="prev" href="../../../ja/cka/02-inside/" hreflang="ja"><span class="dir">이전 글</span><span class="name"><span class="num">#2</span> 구조`+mark+`</span></a>`).
		AssertNotContains("ko/cka/03-next/index.html", `class="next`, `#4</span> 예정`+"</span></a>").
		AssertContains("ja/cka/01-intro/index.html",
			`<a class="next" rel="next" href="../../../ja/cka/02-inside/"><span class="dir">次の記事</span><span class="name"><span class="num">#2</span> 仕組み</span></a>`).
		AssertContains("ja/cka/03-next/index.html", `<a class="prev" rel="prev" href="../../../ja/cka/02-inside/">`).
		AssertNotContains("ja/cka/03-next/index.html", `class="next`).
		// the count of what a Korean reader can read: 1, 2 (in Japanese) and 3
		AssertContains("ko/cka/index.html", `data-readable="3"`)
	for _, p := range s.Result().Pages {
		if p.URL == "/ko/cka/01-intro/" && (p.Next == nil || p.Next.OriginalLang != "ja" || p.Next.URL != "/ja/cka/02-inside/" || p.Prev != nil) {
			t.Errorf("ko #1: prev %+v, next %+v; want no prev, next the ja #2", p.Prev, p.Next)
		}
	}
}

// TestSiteUntranslatedNav: the page standing for part 2 in Korean marks
// itself in the series list (aria-current, with the original-only
// badge) and has the pager of an article.
func TestSiteUntranslatedNav(t *testing.T) {
	s := threeParts(t).Build()
	s.AssertContains("ko/cka/02-inside/index.html",
		`data-translation-state="missing"`,
		`<li class="part current" data-part="2"><a href="../../../ko/cka/02-inside/" aria-current="page"><span class="num">#2</span> <span class="name">구조</span> <span class="badge original-only">원문(일본어)만 있음</span></a></li>`,
		`<nav class="pager" aria-label="이전 글과 다음 글"><a class="prev" rel="prev" href="../../../ko/cka/01-intro/"><span class="dir">이전 글</span><span class="name"><span class="num">#1</span> 소개</span></a><a class="next" rel="next" href="../../../ko/cka/03-next/"><span class="dir">다음 글</span><span class="name"><span class="num">#3</span> 다음</span></a>`,
		`<article class="article" data-series="cka" data-part="2">`,
		`<script src="../../../js/progress.`).
		// one current part, and no progress button on a page with nothing to read
		AssertNotContains("ko/cka/02-inside/index.html", `class="progress-end"`, `<li class="part current" data-part="1"`, `<li class="part current" data-part="3"`)
	// elsewhere the current part is the page's own
	s.AssertContains("ko/cka/01-intro/index.html", `<li class="part current" data-part="1"><a href="../../../ko/cka/01-intro/" aria-current="page">`).
		AssertContains("ko/cka/01-intro/index.html", `<li class="part" data-part="2"><a href="../../../ja/cka/02-inside/" hreflang="ja">`).
		AssertNotContains("ko/cka/index.html", `aria-current="page"><span class="num">`)
}

// TestSitePagerPlanned: a planned part, with no page in any language, is
// still passed over by the pager.
func TestSitePagerPlanned(t *testing.T) {
	s := sitetest.New(t, twoParts(t)).Build()
	s.AssertNotContains("ja/cka/02-inside/index.html", `class="next`).
		AssertContains("ja/cka/02-inside/index.html", `<a class="prev" rel="prev" href="../../../ja/cka/01-intro/">`)
}
