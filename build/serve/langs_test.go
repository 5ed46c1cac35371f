package serve_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/serve"
)

// rootRedirect serves the site s and returns where "/" sends a reader
// whose browser sends each Accept-Language header.
func rootRedirect(t *testing.T, s *sitetest.Site, accept ...string) []string {
	t.Helper()
	srv, err := serve.New(context.Background(), serve.Options{Root: s.Root()})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); ts.Close() })
	c := ts.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	var out []string
	for _, a := range accept {
		req, _ := http.NewRequest("GET", ts.URL+"/", nil)
		req.Header.Set("Accept-Language", a)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		out = append(out, resp.Header.Get("Location"))
	}
	return out
}

const twoLangs = `-- content/ja/_index.md --
---
title: ホーム
---
-- content/ko/_index.md --
---
title: 홈
---
`

// TestServeRootLanguages: "/" picks among the site's languages as
// build/config works them out: the content folders, a third among them,
// and before any build succeeded as well as after.
func TestServeRootLanguages(t *testing.T) {
	for _, tc := range []struct {
		name, archive string
		want          []string // for ko, en-US, fr
	}{
		{"ja and ko", twoLangs, []string{"/ko/", "/ja/", "/ja/"}},
		{"a third language", twoLangs + "-- content/en/_index.md --\n---\ntitle: Home\n---\n", []string{"/ko/", "/en/", "/en/"}},
		{"the configuration's order", twoLangs + "-- kakehashi.toml --\nlanguages = [\"ko\", \"ja\"]\n", []string{"/ko/", "/ko/", "/ko/"}},
		// The build fails, yet the site's languages are known.
		{"no good build yet", twoLangs + "-- themes/default/layouts/404.html --\n{{define \"main\"}}{{if}}{{end}}\n", []string{"/ko/", "/ja/", "/ja/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sitetest.New(t, tc.archive, sitetest.OnDisk())
			got := rootRedirect(t, s, "ko-KR,ko;q=0.9", "en-US", "fr")
			for i, w := range tc.want {
				if got[i] != w {
					t.Errorf("Accept-Language %d: / leads to %q, want %q (all: %q)", i, got[i], w, got)
				}
			}
		})
	}
}

// TestServePairThreeLanguages: /_pair/ shows a page in each of three
// languages side by side, and how each translation stands against its
// original, whichever language that is.
func TestServePairThreeLanguages(t *testing.T) {
	s := serveSite(t, "three-langs.txtar")
	for _, tc := range []struct {
		page string
		want []string
	}{
		{"/_pair/cka/01-intro/", []string{
			`<section lang="ja" data-lang="ja">`, `<section lang="ko" data-lang="ko">`, `<section lang="en" data-lang="en">`,
			`<div class="note" data-lang="ko" data-state="current">`, `<div class="note" data-lang="en" data-state="stale">`,
		}},
		{"/_pair/ko/cka/02-quorum/", []string{
			`<div class="note" data-lang="ja" data-state="current">`, `<code>content/ko/cka/02-quorum.md</code>`,
			`<div class="note" data-lang="en" data-state="unmarked">`,
		}},
		{"/_pair/cka/03-certificates/", []string{
			`<section lang="ko" data-lang="ko">`, `<div class="missing" lang="ja" data-state="missing">`, `<iframe src="/en/cka/03-certificates/"`,
			`<div class="note" data-lang="ja" data-state="current">`, `<code>content/en/cka/03-certificates.md</code>`,
		}},
	} {
		code, body := s.get(t, tc.page)
		if code != http.StatusOK {
			t.Fatalf("%s: %d", tc.page, code)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s does not hold %q", tc.page, w)
			}
		}
	}
}
