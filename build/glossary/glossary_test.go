package glossary_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/glossary"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/spf13/afero"
)

var langs = []string{"ja", "ko"}

func TestFind(t *testing.T) {
	tests := []struct {
		text, term string
		want       []int
	}{
		{"the control plane runs", "control plane", []int{4}},
		{"Control Plane and CONTROL PLANE", "control plane", []int{0, 18}},
		{"run etcdctl, not etcd", "etcd", []int{17}},
		{"xetcd etcd2 etcd.", "etcd", []int{12}},
		{"control plane은 세 대", "control plane", []int{0}},   // a Korean particle after a Latin term
		{"컨트롤 플레인은 네 개로", "컨트롤 플레인", []int{0}},              // a particle after a Hangul term
		{"이 컨트롤플레인을", "컨트롤플레인", []int{len("이 ")}},           // substring inside Hangul
		{"三台のコントロールプレーンで", "コントロールプレーン", []int{len("三台の")}}, // no spaces in Japanese
		{"쿼럼쿼럼", "쿼럼", []int{0, len("쿼럼")}},
		{"none here", "etcd", nil},
		{"anything", "", nil},
	}
	for _, tt := range tests {
		if got := glossary.Find(tt.text, tt.term); !slices.Equal(got, tt.want) {
			t.Errorf("Find(%q, %q) = %v, want %v", tt.text, tt.term, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // headers of the diagnostics
	}{
		{"good", "- id: quorum\n  terms: {ja: クォーラム, ko: 쿼럼}\n  avoid: {ko: [정족수]}\n  definition: {ja: 過半数, ko: 과반수}\n", nil},
		{"empty", "", nil},
		{"unknown field", "- id: quorum\n  terms: {ja: クォーラム}\n  defintion: {ja: 過半数}\n",
			[]string{`g.yaml:3:3: unknown glossary field "defintion" (did you mean "definition"?); an entry has id, terms, avoid, definition`}},
		{"duplicate id", "- id: quorum\n  terms: {ja: クォーラム}\n- id: quorum\n  terms: {ko: 쿼럼}\n",
			[]string{`g.yaml:3:7: glossary id "quorum" is also the id of the entry at line 1`}},
		{"not a site language", "- id: quorum\n  terms: {ja: クォーラム, kr: 쿼럼, en: quorum}\n",
			[]string{
				`g.yaml:2:22: glossary terms: "kr" is not one of the site's languages (ja, ko); did you mean "ko"?`,
				`g.yaml:2:30: glossary terms: "en" is not one of the site's languages (ja, ko)`,
			}},
		{"avoid's language", "- id: quorum\n  terms: {ko: 쿼럼}\n  avoid: {jp: [x]}\n",
			[]string{`g.yaml:3:11: glossary avoid: "jp" is not one of the site's languages (ja, ko); did you mean "ja"?`}},
		{"no id", "- terms: {ja: クォーラム}\n", []string{`g.yaml:1:3: glossary entry has no id`}},
		{"no terms", "- id: quorum\n", []string{`g.yaml:1:3: glossary entry "quorum" has no terms: give its term in each language (terms: {ja: …, ko: …})`}},
		{"bad id", "- id: Control Plane\n  terms: {ja: x}\n", []string{`g.yaml:1:7: glossary id must be lowercase letters, digits and hyphens (control-plane), the entry's anchor on the glossary page`}},
		{"avoids its own term", "- id: quorum\n  terms: {ko: 쿼럼}\n  avoid: {ko: [쿼럼]}\n", []string{`g.yaml:1:3: glossary entry "quorum" avoids its own ko term "쿼럼"`}},
		{"not a list", "id: quorum\n", []string{`g.yaml:1:1: a glossary is a list of entries, each with an id and its terms (- id: control-plane)`}},
		{"syntax", "- id: [quorum\n", []string{`g.yaml:1:1: glossary: did not find expected ',' or ']'`}},
		{"two bad entries", "- id: a\n  term: {ja: x}\n- id: b\n  terms: {ja: y}\n  avoid: nope\n",
			[]string{
				`g.yaml:2:3: unknown glossary field "term" (did you mean "terms"?); an entry has id, terms, avoid, definition`,
				`g.yaml:5:10: glossary avoid is a mapping of language to a list of variants ({ja: [a, b]})`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, ds := glossary.Parse("g.yaml", []byte(tt.src), langs)
			var got []string
			for _, d := range ds {
				got = append(got, d.Header())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
			if (g == nil) != (len(tt.want) > 0) {
				t.Errorf("glossary %v with %d errors", g, len(tt.want))
			}
		})
	}
}

func TestLoadMissing(t *testing.T) {
	g, ds := glossary.Load(context.Background(), afero.NewMemMapFs(), "content/glossary.yaml", langs)
	if g != nil || ds != nil {
		t.Errorf("a site without a glossary: %v, %v", g, ds)
	}
}

const testGlossary = `- id: control-plane
  terms: {ja: コントロールプレーン, ko: 컨트롤 플레인}
  avoid: {ko: [컨트롤플레인, control plane]}
- id: etcd-member
  terms: {ja: etcd メンバー, ko: etcd 멤버}
- id: quorum
  terms: {ja: クォーラム, ko: 쿼럼}
  avoid: {ko: [정족수]}
`

func TestCheck(t *testing.T) {
	g, ds := glossary.Parse("content/glossary.yaml", []byte(testGlossary), langs)
	if ds.Err() != nil {
		t.Fatal(ds)
	}
	const fm = "---\ntitle: t\n---\n"
	tests := []struct {
		name, body string
		original   string
		want       []string
	}{
		{"forbidden variant", "세 대의 컨트롤플레인이 있다.\n", "",
			[]string{`p.md:4:6: warning: glossary: "컨트롤플레인" is written "컨트롤 플레인" in ko (glossary entry control-plane)`}},
		{"Latin variant with particle, any case", "먼저 Control plane은 …\n", "",
			[]string{`p.md:4:4: warning: glossary: "Control plane" is written "컨트롤 플레인" in ko (glossary entry control-plane)`}},
		{"preferred term", "컨트롤 플레인은 네 개로 나뉜다. 쿼럼을 잃는다.\n", "", nil},
		{"variant glossed after the term", "컨트롤 플레인(control plane)이라 부른다.\n", "", nil},
		{"code span, fence, indented code", "`컨트롤플레인` 그리고\n\n```\ncontrol plane\n```\n\n    정족수\n", "", nil},
		{"link URL and autolink", "[읽기](https://example.org/control plane) <https://example.org/정족수>\n", "", nil},
		{"link text is text", "[정족수](https://example.org/)\n", "",
			[]string{`p.md:4:2: warning: glossary: "정족수" is written "쿼럼" in ko (glossary entry quorum)`}},
		{"raw HTML", "<span title=\"정족수\">x</span>\n", "", nil},
		{"shortcode call", "{{< figure caption=\"정족수\" >}}\n", "", nil},
		{"inside a longer Latin word", "the controlplaneish thing, control planes\n", "", nil},
		{"original's term left", "etcd メンバー가 셋이다. クォーラム!\n", "ja",
			[]string{
				`p.md:4:1: warning: glossary: the original's term "etcd メンバー" is left in this ko translation; the glossary's ko term is "etcd 멤버" (glossary entry etcd-member)`,
				`p.md:4:17: warning: glossary: the original's term "クォーラム" is left in this ko translation; the glossary's ko term is "쿼럼" (glossary entry quorum)`,
			}},
		{"an original keeps its terms", "etcd メンバー\n", "", nil},
		{"second line, column in characters", "첫 줄.\n쿼럼 그리고 정족수.\n", "",
			[]string{`p.md:5:8: warning: glossary: "정족수" is written "쿼럼" in ko (glossary entry quorum)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(fm + tt.body)
			p := glossary.Page{Path: "p.md", Src: src, BodyStart: len(fm), Lang: "ko", Original: tt.original}
			var got []string
			for _, d := range g.Check([]glossary.Page{p}) {
				got = append(got, d.Header())
				if d.Code != glossary.Code {
					t.Errorf("code %q", d.Code)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

// TestCheckFields: the front matter's values a reader sees are checked,
// each once though a list's items are read to their line's end; its keys
// and other fields are not.
func TestCheckFields(t *testing.T) {
	g, _ := glossary.Parse("content/glossary.yaml", []byte(testGlossary), langs)
	src := "---\ntitle: 정족수\ntags: [a, b, 정족수]\n정족수: x\n---\n"
	p := glossary.Page{Path: "p.md", Src: []byte(src), BodyStart: len(src), Lang: "ko",
		Fields: []int{strings.Index(src, "정족수"), strings.Index(src, "a,"), strings.Index(src, "b,"), strings.Index(src, "정족수]")}}
	var got []string
	for _, d := range g.Check([]glossary.Page{p}) {
		got = append(got, d.Header())
	}
	want := []string{
		`p.md:2:8: warning: glossary: "정족수" is written "쿼럼" in ko (glossary entry quorum)`,
		`p.md:3:14: warning: glossary: "정족수" is written "쿼럼" in ko (glossary entry quorum)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// site is a course of one part in two languages, with a glossary; the
// Korean part uses a forbidden variant in its title, its body and its
// series title.
const site = `-- content/glossary.yaml --
` + testGlossary + `-- content/series/cka.yaml --
id: cka
title: {ja: CKA, ko: CKA}
parts:
  - number: 1
    title: {ja: コントロールプレーン, ko: control plane 입문}
    state: published
-- content/ja/_index.md --
---
title: CKA コース
---
ようこそ。
-- content/ko/_index.md --
---
title: CKA 코스
---
환영합니다.
-- content/ja/cka/01-intro.md --
---
title: コントロールプレーン
series: cka
part: 1
date: 2026-10-01
---
コントロールプレーンの話。` + "`control plane`" + `
-- content/ko/cka/01-intro.md --
---
title: 컨트롤플레인
series: cka
part: 1
date: 2026-10-01
---
컨트롤 플레인 이야기. 세 대의 컨트롤플레인.
`

// TestSiteCheck: kakehashi check warns of the forbidden variants of a
// site's pages and series file, at their places; a malformed glossary is
// an error of check.
func TestSiteCheck(t *testing.T) {
	s := sitetest.New(t, site)
	got := check(t, s)
	want := []string{
		`content/ko/cka/01-intro.md:2:8: warning: glossary: "컨트롤플레인" is written "컨트롤 플레인" in ko (glossary entry control-plane)`,
		`content/ko/cka/01-intro.md:7:19: warning: glossary: "컨트롤플레인" is written "컨트롤 플레인" in ko (glossary entry control-plane)`,
		`content/series/cka.yaml:5:33: warning: glossary: "control plane" is written "컨트롤 플레인" in ko (glossary entry control-plane)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	s.WriteFile("content/glossary.yaml", "- id: quorum\n  terms: {ja: クォーラム}\n  defintion: {ja: 過半数}\n")
	got = check(t, s)
	want = []string{`error content/glossary.yaml:3:3: unknown glossary field "defintion" (did you mean "definition"?); an entry has id, terms, avoid, definition`}
	if !slices.Equal(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// check runs kakehashi check over the site and returns its glossary
// findings (errors prefixed "error ").
func check(t *testing.T, s *sitetest.Site) []string {
	t.Helper()
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	ds, err := b.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		if !strings.Contains(d.Msg, "glossary") {
			continue
		}
		h := d.Header()
		if d.Severity == diag.Warning {
			out = append(out, h)
		} else {
			out = append(out, "error "+h)
		}
	}
	return out
}

// TestTerms: the preferred terms of a language in a text, the longest
// where two overlap, in the text's order.
func TestTerms(t *testing.T) {
	g, ds := glossary.Parse("g.yaml", []byte("- id: etcd\n  terms: {ko: etcd}\n- id: etcd-member\n  terms: {ko: etcd 멤버}\n- id: member\n  terms: {ko: 멤버}\n"), langs)
	if ds.Err() != nil {
		t.Fatal(ds)
	}
	got := g.Terms("etcd 멤버와 etcd, 멤버", "ko")
	want := []glossary.Match{{Off: 0, Len: len("etcd 멤버"), ID: "etcd-member"}, {Off: len("etcd 멤버와 "), Len: 4, ID: "etcd"}, {Off: len("etcd 멤버와 etcd, "), Len: len("멤버"), ID: "member"}}
	if !slices.Equal(got, want) {
		t.Errorf("Terms = %v, want %v", got, want)
	}
	if (*glossary.Glossary)(nil).Terms("etcd", "ko") != nil {
		t.Error("no glossary, no terms")
	}
}
