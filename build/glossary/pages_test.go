package glossary_test

import (
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// pagesSite is a site of one page per language whose glossary sorts
// differently by bytes and as its languages sort (Zeta before alpha in
// bytes), and gives one entry no Korean term.
const pagesSite = `-- content/glossary.yaml --
- id: zeta
  terms: {ja: Zeta, ko: Zeta}
  definition: {ja: 最後の文字。, ko: 마지막 글자.}
- id: alpha
  terms: {ja: alpha, ko: alpha}
- id: quorum
  terms: {ja: クォーラム, ko: 쿼럼}
  definition: {ja: 過半数。, ko: 과반수.}
- id: certificate
  terms: {ja: 証明書, ko: 인증서}
- id: only-ja
  terms: {ja: 日本語だけ}
- id: worker
  terms: {ja: ワーカー, ko: 워커}
- id: endpoint
  terms: {ja: エンドポイント, ko: 엔드포인트}
-- content/ja/_index.md --
---
title: ホーム
---
ようこそ。
-- content/ko/_index.md --
---
title: 홈
---
환영합니다.
`

// TestSiteGlossaryPages: a site with a glossary has a glossary page per
// language, in the sitemap, listing every entry sorted for its language,
// each with its anchor, its definition and its other-language terms; a
// site without one has none.
func TestSiteGlossaryPages(t *testing.T) {
	s := sitetest.Test(t, pagesSite)
	s.AssertContains("ko/glossary/index.html",
		`<meta name="description" content="이 사이트에서 쓰는 용어와 언어별 표기입니다.">`,
		`<h1>용어집</h1>`, `<p class="lead">이 사이트에서 쓰는 용어와 언어별 표기입니다.</p>`,
		`<div class="glossary-entry" id="quorum">`+"\n"+`<dt>쿼럼</dt>`+"\n"+`<dd class="glossary-other"><span class="glossary-lang">일본어</span> <span lang="ja">クォーラム</span></dd>`+"\n"+`<dd class="glossary-definition">과반수.</dd>`,
		`<dt><span lang="ja">日本語だけ</span></dt>`,
		`css/glossary.`)
	s.AssertContains("ja/glossary/index.html", `<h1>用語集</h1>`, `<dd class="glossary-other"><span class="glossary-lang">韓国語</span> <span lang="ko">인증서</span></dd>`)
	s.AssertContains("sitemap.xml", "/ja/glossary/", "/ko/glossary/")
	for _, p := range []string{"ja/glossary/index.html", "ko/glossary/index.html"} {
		html := s.File(p)
		order := []string{`id="alpha"`, `id="zeta"`}
		if strings.Contains(p, "ko") {
			order = append(order, `id="endpoint"`, `id="worker"`, `id="certificate"`, `id="quorum"`) // 엔, 워, 인 (ㅇ) before 쿼 (ㅋ)
		} else {
			// kana in their order (エ, ク, ワ; the ー of ワーカー does not
			// put it first), then kanji
			order = append(order, `id="endpoint"`, `id="quorum"`, `id="worker"`, `id="certificate"`)
		}
		last := -1
		for _, id := range order {
			i := strings.Index(html, id)
			if i < last {
				t.Errorf("%s: %s is not after the entries before it (%v)", p, id, order)
			}
			last = i
		}
	}
	without := sitetest.Test(t, pagesSite[strings.Index(pagesSite, "-- content/ja/_index.md"):])
	without.AssertAbsent("ja/glossary/index.html", "ko/glossary/index.html").AssertNotContains("sitemap.xml", "/glossary/")
}

// TestSiteTermShortcode: {{< term id >}} shows the entry's term in the
// page's language, linked to its entry on the glossary page and
// described by its definition; the page is made again when the glossary
// changes; an unknown id fails the build at the call.
func TestSiteTermShortcode(t *testing.T) {
	s := sitetest.Test(t, pagesSite+"-- content/ko/notes.md --\n---\ntitle: 노트\n---\n{{< term quorum >}}를 잃으면 멈춥니다.\n")
	s.AssertContains("ko/notes/index.html",
		`<span class="term"><a href="../../ko/glossary/#quorum" aria-describedby="term-quorum-1">쿼럼</a><span class="term-tip" role="tooltip" id="term-quorum-1">과반수.</span></span>를 잃으면`,
		`css/glossary.`)
	s.Replace("content/glossary.yaml", "ko: 과반수.", "ko: 과반수의 멤버.").Build()
	s.AssertContains("ko/notes/index.html", `id="term-quorum-1">과반수의 멤버.</span>`)
	s.Replace("content/ko/notes.md", "{{< term quorum >}}", "{{< term qourum >}}").BuildFails(
		`content/ko/notes.md:4:1: term "qourum" is not in the glossary; did you mean "quorum"?`)
}
