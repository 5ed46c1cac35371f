package serve

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// pairSite is a small course with a translation in every state: part 1
// current, part 2 stale since the original's lastmod, part 3 unmarked,
// part 4 written in Japanese only, and a section page written in Korean
// only. ko1Text is part 1's translation, marked by pairSite.
const pairSite = `
-- kakehashi.toml --
languages = ["ja", "ko"]
-- content/series/cka.yaml --
id: cka
title: {ja: CKA, ko: CKA}
parts:
  - number: 1
    title: {ja: はじめに, ko: 소개}
    state: published
  - number: 2
    title: {ja: 仕組み, ko: 구조}
    state: published
  - number: 3
    title: {ja: 運用, ko: 운영}
    state: published
  - number: 4
    title: {ja: 試験, ko: 시험}
    state: published
-- content/ja/_index.md --
---
title: CKA コース
---
ようこそ。
-- content/ko/_index.md --
---
title: CKA 코스
translated: 2026-11-02 000000000000
---
환영합니다.
-- content/ja/cka/01-intro.md --
---
title: はじめに
series: cka
part: 1
date: 2026-10-01
---
最初の段落です。
-- content/ja/cka/02-inside.md --
---
title: 仕組み
series: cka
part: 2
date: 2026-10-08
lastmod: 2026-11-20
---
書き直した段落です。
-- content/ko/cka/02-inside.md --
---
title: 구조
series: cka
part: 2
date: 2026-10-08
translated: 2026-11-02 000000000000
---
예전 단락입니다.
-- content/ja/cka/03-ops.md --
---
title: 運用
series: cka
part: 3
date: 2026-10-15
---
運用の段落です。
-- content/ko/cka/03-ops.md --
---
title: 운영
series: cka
part: 3
date: 2026-10-15
---
운영 단락입니다.
-- content/ja/cka/04-exam.md --
---
title: 試験
series: cka
part: 4
date: 2026-10-22
---
試験の段落です。
-- content/ko/about/_index.md --
---
title: 소개 페이지
date: 2026-09-01
---
이 강좌에 대하여.
`

const ja1, ko1, ja2, ko2 = "content/ja/cka/01-intro.md", "content/ko/cka/01-intro.md", "content/ja/cka/02-inside.md", "content/ko/cka/02-inside.md"

// newPairServer writes pairSite to disk, with part 1's translation
// marked up to date with its original and the home page's stale, and
// serves it through httptest, as kakehashi serve builds it.
func newPairServer(t *testing.T) (*Server, *httptest.Server, string) {
	t.Helper()
	site := sitetest.New(t, pairSite, sitetest.OnDisk())
	root := site.Root()
	writeFile(t, root, ko1, "---\ntitle: 소개\nseries: cka\npart: 1\ndate: 2026-10-01\ntranslated: 2026-11-02 "+hashOf(t, root, ja1)+"\n---\n첫 단락입니다.\n")
	s, err := New(context.Background(), Options{Root: root})
	must(t, err)
	if errs := s.Errors(); errs != nil {
		t.Fatalf("the site does not build:\n%v", errs)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); ts.Close() })
	return s, ts, root
}

// hashOf is the hash of the original at rel, as marking records it.
func hashOf(t *testing.T, root, rel string) string {
	t.Helper()
	p, diags := source.ParsePage(rel, source.Normalize([]byte(readFile(t, root, rel))))
	if p == nil {
		t.Fatal(diags)
	}
	return translation.Hash(p)
}

// indexRowRE reads a row of the index: state, language, hidden, the
// pair's link, the state in words and the file.
var indexRowRE = regexp.MustCompile(`<tr data-state="([a-z]+)" data-lang="([a-z]+)"( hidden)?>\n<td><a href="([^"]+)">.*?</a><br><code>[^<]*</code></td>\n<td>[^<]*</td>\n<td class="state [a-z]+">([^<]*)</td>\n<td><code>([^<]+)</code></td>`)

// indexRows are the rows of an index page, each "state lang link | says
// | file", those hidden marked "(hidden)".
func indexRows(body string) []string {
	var rows []string
	for _, m := range indexRowRE.FindAllStringSubmatch(body, -1) {
		r := m[1] + " " + m[2] + " " + m[4] + " | " + html.UnescapeString(m[5]) + " | " + m[6]
		if m[3] != "" {
			r += " (hidden)"
		}
		rows = append(rows, r)
	}
	return rows
}

func getWith(t *testing.T, c *http.Client, u string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	must(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	must(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	must(t, err)
	return resp.StatusCode, string(b)
}

// TestPairIndex: /_pair/ lists every pair as "kakehashi translations
// status" does, each with its state in the view's language and a link to
// its view under the language of the side to write; every row is in the
// page, and the filters (?state=, ?lang=) hide the others, the language
// filter also choosing the language the index speaks.
func TestPairIndex(t *testing.T) {
	_, ts, _ := newPairServer(t)
	c := ts.Client()
	code, body := getWith(t, c, ts.URL+"/_pair/", nil)
	if code != 200 || !strings.Contains(body, `<html lang="ja">`) || !strings.Contains(body, "<h1>翻訳の状況</h1>") {
		t.Fatalf("/_pair/: %d, not in Japanese:\n%s", code, body)
	}
	want := []string{
		"stale ko /_pair/ko/ | 要更新 · 記録: 2026-11-02 | content/ko/_index.md",
		"missing ja /_pair/ja/about/ | 日本語のページがありません | content/ja/about/_index.md",
		"current ko /_pair/ko/cka/01-intro/ | 最新 · 記録: 2026-11-02 | content/ko/cka/01-intro.md",
		"stale ko /_pair/ko/cka/02-inside/ | 要更新 (原文の更新: 2026-11-20) · 記録: 2026-11-02 | content/ko/cka/02-inside.md",
		"unmarked ko /_pair/ko/cka/03-ops/ | 未記録 | content/ko/cka/03-ops.md",
		"missing ko /_pair/ko/cka/04-exam/ | 韓国語のページがありません | content/ko/cka/04-exam.md",
	}
	// The home page's original has no lastmod: the day it changed is its
	// file's, the checkout's; the row says it as translations status does.
	got := indexRows(body)
	for i, r := range got {
		if strings.HasPrefix(r, "stale ko /_pair/ko/ ") {
			got[i] = regexp.MustCompile(` \(原文の更新: [0-9-]+\)`).ReplaceAllString(r, "")
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, tc := range []struct {
		query   string
		header  map[string]string
		lang    string   // the language the index speaks
		visible []string // the links of the rows shown
		current []string // the filters marked current, as their links
		counts  []string // some filters' counts: "link (n)"
	}{
		{query: "", lang: "ja", visible: []string{"/_pair/ko/", "/_pair/ja/about/", "/_pair/ko/cka/01-intro/", "/_pair/ko/cka/02-inside/", "/_pair/ko/cka/03-ops/", "/_pair/ko/cka/04-exam/"},
			current: []string{"/_pair/", "/_pair/"}, counts: []string{"/_pair/?state=stale (2)", "/_pair/?lang=ko (5)", "/_pair/?lang=ja (1)"}},
		{query: "?state=stale", lang: "ja", visible: []string{"/_pair/ko/", "/_pair/ko/cka/02-inside/"},
			current: []string{"/_pair/?state=stale", "/_pair/?state=stale"}, counts: []string{"/_pair/?state=stale (2)", "/_pair/?lang=ko&state=stale (2)", "/_pair/?lang=ja&state=stale (0)"}},
		{query: "?state=missing", lang: "ja", visible: []string{"/_pair/ja/about/", "/_pair/ko/cka/04-exam/"}},
		{query: "?lang=ja", lang: "ja", visible: []string{"/_pair/ja/about/"}, current: []string{"/_pair/?lang=ja", "/_pair/?lang=ja"}},
		{query: "?lang=ko", lang: "ko", visible: []string{"/_pair/ko/", "/_pair/ko/cka/01-intro/", "/_pair/ko/cka/02-inside/", "/_pair/ko/cka/03-ops/", "/_pair/ko/cka/04-exam/"},
			counts: []string{"/_pair/?lang=ko&state=unmarked (1)", "/_pair/?lang=ko&state=missing (1)"}},
		{query: "?state=missing&lang=ko", lang: "ko", visible: []string{"/_pair/ko/cka/04-exam/"}},
		{query: "?state=unmarked&lang=ja", lang: "ja", visible: nil},
		// Not a state or a language of the site: no filter.
		{query: "?state=old&lang=fr", lang: "ja", visible: []string{"/_pair/ko/", "/_pair/ja/about/", "/_pair/ko/cka/01-intro/", "/_pair/ko/cka/02-inside/", "/_pair/ko/cka/03-ops/", "/_pair/ko/cka/04-exam/"}},
		// The browser's language, when the query names none.
		{query: "?state=current", header: map[string]string{"Accept-Language": "ko-KR,ko;q=0.9"}, lang: "ko", visible: []string{"/_pair/ko/cka/01-intro/"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			code, body := getWith(t, c, ts.URL+"/_pair/"+tc.query, tc.header)
			if code != 200 {
				t.Fatalf("%d", code)
			}
			if !strings.Contains(body, `<html lang="`+tc.lang+`">`) {
				t.Errorf("not in %s", tc.lang)
			}
			var visible []string
			for _, m := range indexRowRE.FindAllStringSubmatch(body, -1) {
				if m[3] == "" {
					visible = append(visible, m[4])
				}
			}
			if !slices.Equal(visible, tc.visible) {
				t.Errorf("rows shown %q, want %q", visible, tc.visible)
			}
			if none := strings.Contains(body, `<p class="none">`); none != (len(tc.visible) == 0) {
				t.Errorf("the no-match line shown: %v, with %d rows", none, len(tc.visible))
			}
			var current []string
			for _, m := range regexp.MustCompile(`<a href="([^"]*)" data-filter="[a-z]+" data-value="[a-z]*" aria-current="true">`).FindAllStringSubmatch(body, -1) {
				current = append(current, html.UnescapeString(m[1]))
			}
			if tc.current != nil && !slices.Equal(current, tc.current) {
				t.Errorf("current filters %q, want %q", current, tc.current)
			}
			counts := map[string]bool{}
			for _, m := range regexp.MustCompile(`<a href="([^"]*)" data-filter[^>]*>[^<]* <span class="count">\(([0-9]+)\)</span>`).FindAllStringSubmatch(body, -1) {
				counts[html.UnescapeString(m[1])+" ("+m[2]+")"] = true
			}
			for _, w := range tc.counts {
				if !counts[w] {
					t.Errorf("no filter %s among %v", w, counts)
				}
			}
			if n := len(tc.visible); !strings.Contains(body, "<span data-shown>"+strconv.Itoa(n)+"</span>") {
				t.Errorf("the count shown is not %d", n)
			}
		})
	}
}

// TestPairMissingSide: a page that exists in one language opens with the
// other side marked missing, and how to write it: the file to create and
// a text to start it with (the series file's title in that language, the
// part's series, number and date, the first text "kakehashi new part"
// writes), which is a page that builds; once written, the pair is an
// unmarked translation.
func TestPairMissingSide(t *testing.T) {
	s, ts, root := newPairServer(t)
	c := ts.Client()
	for _, tc := range []struct {
		page, lang, path string
		text             []string // in the text to start with
		partNote         bool
		frame            string // the side that exists
	}{
		{page: "/_pair/ko/cka/04-exam/", lang: "ko", path: "content/ko/cka/04-exam.md",
			text:     []string{"---\ntitle: \"시험\"\nseries: \"cka\"\npart: 4\ndate: 2026-10-22\n---\n\n여기에 본문을 씁니다.\n"},
			partNote: true, frame: `<iframe src="/ja/cka/04-exam/"`},
		{page: "/_pair/ja/about/", lang: "ja", path: "content/ja/about/_index.md",
			text:  []string{"---\ntitle: \"소개 페이지\"\ndate: 2026-09-01\n---\n\nここに本文を書きます。\n"},
			frame: `<iframe src="/ko/about/"`},
	} {
		t.Run(tc.page, func(t *testing.T) {
			code, body := getWith(t, c, ts.URL+tc.page, nil)
			if code != 200 {
				t.Fatalf("%d", code)
			}
			for _, w := range []string{
				`<html lang="` + tc.lang + `">`,
				`<div class="missing" lang="` + tc.lang + `" data-state="missing">`,
				`<pre id="scaffold-path-` + tc.lang + `">` + tc.path + `</pre>`,
				`<button type="button" class="copy" data-copy="scaffold-text-` + tc.lang + `" hidden>`,
				tc.frame,
			} {
				if !strings.Contains(body, w) {
					t.Errorf("no %q in\n%s", w, body)
				}
			}
			m := regexp.MustCompile(`(?s)<pre id="scaffold-text-` + tc.lang + `" lang="` + tc.lang + `">(.*?)</pre>`).FindStringSubmatch(body)
			if m == nil {
				t.Fatal("no text to start with")
			}
			text := html.UnescapeString(m[1])
			for _, w := range tc.text {
				if !strings.Contains(text, w) {
					t.Errorf("the text to start with is\n%s\nwant %q", text, w)
				}
			}
			if p, diags := source.ParsePage(tc.path, source.Normalize([]byte(text))); p == nil || diags.Err() != nil {
				t.Errorf("the text to start with does not parse: %v", diags)
			}
			if got := strings.Contains(body, `kakehashi new part`); got != tc.partNote {
				t.Errorf("says why not kakehashi new part: %v, want %v", got, tc.partNote)
			}
			// Written as shown, the page builds, and the pair is a
			// translation to mark.
			writeFile(t, root, tc.path, text)
			must(t, s.Rebuild(context.Background(), []string{tc.path}))
			_, body = getWith(t, c, ts.URL+tc.page, nil)
			if strings.Contains(body, `data-state="missing"`) || !strings.Contains(body, `<div class="note" data-lang="`) || !strings.Contains(body, `data-state="unmarked">`) {
				t.Errorf("once written, not an unmarked translation:\n%s", body)
			}
		})
	}
}

// markForm is the pair view's form for the translation at path: its
// fields as a browser posts them.
func markForm(t *testing.T, c *http.Client, base, page, path string) url.Values {
	t.Helper()
	_, body := getWith(t, c, base+page, nil)
	tok := regexp.MustCompile(`<input type="hidden" name="token" value="([^"]+)">`).FindStringSubmatch(body)
	if tok == nil || !strings.Contains(body, `<input type="hidden" name="path" value="`+path+`">`) {
		t.Fatalf("%s: no form to mark %s:\n%s", page, path, body)
	}
	return url.Values{"token": {tok[1]}, "path": {path}, "back": {page}, "lang": {"ko"}}
}

func post(t *testing.T, c *http.Client, u string, form url.Values, header map[string]string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	must(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	must(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	must(t, err)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// TestPairMark: "mark as translated" posts the pair view's form to the
// server, which marks the translation as kakehashi translations mark does
// (today's date, the original's hash) and sends the browser back to the
// pair, now current. A post without the form's token, or from a page of
// another origin, is refused with 403; what the command refuses is
// refused with its message; nothing is written then.
func TestPairMark(t *testing.T) {
	_, ts, root := newPairServer(t)
	c := &http.Client{Transport: ts.Client().Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	const page = "/_pair/ko/cka/02-inside/"
	form := markForm(t, c, ts.URL, page, ko2)
	before := readFile(t, root, ko2)
	self := map[string]string{"Origin": ts.URL}

	site, diags := translation.LoadSite(context.Background(), mustSiteFs(t, root), root, translation.Layout{Content: "content", Config: "kakehashi.toml", Cache: ".kakehashi-cache"})
	if site == nil {
		t.Fatal(diags)
	}
	refusal := func(rel string) string {
		_, err := site.PairOf(filepath.Join(root, rel))
		if err == nil {
			t.Fatalf("translations mark takes %s", rel)
		}
		return html.EscapeString("kakehashi translations mark: " + err.Error())
	}
	with := func(k, v string) url.Values {
		f := url.Values{}
		for key, vs := range form {
			f[key] = vs
		}
		if v == "" {
			f.Del(k)
		} else {
			f.Set(k, v)
		}
		return f
	}
	for _, tc := range []struct {
		name   string
		form   url.Values
		header map[string]string
		status int
		says   string
	}{
		{"no token", with("token", ""), self, 403, "이 양식은 지금 실행 중인 서버의 것이 아닙니다"},
		{"another token", with("token", "AAAAAAAAAAAAAAAAAAAAAAAAAA"), self, 403, "이 양식은 지금 실행 중인 서버의 것이 아닙니다"},
		{"another origin", form, map[string]string{"Origin": "http://evil.example"}, 403, "a page of another origin"},
		{"another site's page, without Origin", form, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "a page of another origin"},
		{"an original", with("path", ja2), self, 400, refusal(ja2)},
		{"outside the site", with("path", "../../etc/passwd"), self, 400, refusal("../../etc/passwd")},
		{"a translation not written yet", with("path", "content/ko/cka/04-exam.md"), self, 400, refusal("content/ko/cka/04-exam.md")},
		{"a page alone", with("path", "content/ko/about/_index.md"), self, 400, refusal("content/ko/about/_index.md")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := post(t, c, ts.URL+markPath, tc.form, tc.header)
			if status != tc.status || !strings.Contains(body, tc.says) {
				t.Errorf("%d, want %d with %q:\n%s", status, tc.status, tc.says, body)
			}
			if got := readFile(t, root, ko2); got != before {
				t.Errorf("the translation was written:\n%s", got)
			}
		})
	}

	days := []string{time.Now().Format(time.DateOnly)}
	status, loc, body := post(t, c, ts.URL+markPath, form, self)
	if status != http.StatusSeeOther || loc != page {
		t.Fatalf("mark: %d to %q, want 303 to %s\n%s", status, loc, page, body)
	}
	days = append(days, time.Now().Format(time.DateOnly)) // the day marked is one of these
	day := ""
	got := readFile(t, root, ko2)
	for _, d := range days {
		if strings.Contains(got, "\ntranslated: "+d+" "+hashOf(t, root, ja2)+"\n") {
			day = d
		}
	}
	if day == "" || strings.Replace(got, "translated: "+day+" "+hashOf(t, root, ja2), "translated: 2026-11-02 000000000000", 1) != before {
		t.Fatalf("the translation is not marked, or more changed:\n%s", got)
	}
	_, body = getWith(t, c, ts.URL+page, nil)
	if !strings.Contains(body, `<div class="note" data-lang="ko" data-state="current">`) || strings.Contains(body, `<form class="mark"`) {
		t.Errorf("after marking, the pair is not current:\n%s", body)
	}
	_, body = getWith(t, c, ts.URL+"/_pair/?state=stale", nil)
	if rows := indexRows(body); !slices.Contains(rows, "current ko /_pair/ko/cka/02-inside/ | 最新 · 記録: "+day+" | content/ko/cka/02-inside.md (hidden)") {
		t.Errorf("the index does not say it current:\n%s", strings.Join(rows, "\n"))
	}
	// A back that is not the view's goes to the index.
	if _, loc, _ := post(t, c, ts.URL+markPath, with("back", "http://evil.example/"), self); loc != "/_pair/" {
		t.Errorf("back to another site: sent to %q", loc)
	}
}

// TestNoticeLinksToPair: while serving, a stale translation's notice and
// a missing translation's page link to the pair's view; a build's pages
// have the same notices without the link, and are otherwise the pages
// served.
func TestNoticeLinksToPair(t *testing.T) {
	_, ts, root := newPairServer(t)
	b, err := build.New(mustSiteFs(t, root), build.Options{})
	must(t, err)
	built, err := b.Build(context.Background())
	must(t, err)
	link := regexp.MustCompile(`\n?<p><a href="(/_pair/[^"]*)">([^<]*)</a></p>`)
	for _, tc := range []struct{ page, state, link string }{
		{"/ko/cka/02-inside/", "stale", "/_pair/ko/cka/02-inside/"},
		{"/ko/cka/04-exam/", "missing", "/_pair/ko/cka/04-exam/"},
	} {
		_, served := getWith(t, ts.Client(), ts.URL+tc.page, nil)
		m := link.FindStringSubmatch(served)
		if !strings.Contains(served, `data-translation-state="`+tc.state+`"`) || m == nil || m[1] != tc.link || m[2] != "번역자용 대조 화면에서 원문과 나란히 열기" {
			t.Errorf("%s: served, no link to %s in its notice:\n%s", tc.page, tc.link, served)
		}
		want, _ := built.Site.Get(strings.TrimPrefix(tc.page, "/") + "index.html")
		if !strings.Contains(string(want), `data-translation-state="`+tc.state+`"`) {
			t.Errorf("%s: built, no notice", tc.page)
		}
		got := strings.Replace(link.ReplaceAllString(served, ""), liveTag, "", 1)
		if got != string(want) {
			t.Errorf("%s: built, not the page served without the link:\n%s\nserved:\n%s", tc.page, want, got)
		}
	}
	for _, p := range built.Site.Paths() {
		if data, _ := built.Site.Get(p); strings.Contains(string(data), PairView) {
			t.Errorf("built %s names %s", p, PairView)
		}
	}
}
