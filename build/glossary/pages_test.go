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
			order = append(order, `id="certificate"`, `id="quorum"`) // 인증서 (ㅇ) before 쿼럼 (ㅋ)
		} else {
			order = append(order, `id="quorum"`, `id="certificate"`) // kana before kanji
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
