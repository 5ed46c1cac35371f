package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// translationSite: part 1 translated into Korean from an older version of
// its original (the hash its translated: line records is not the
// original's), part 2 written in Japanese only.
const translationSite = `
-- kakehashi.toml --
baseURL = "https://example.org/t/"
-- content/series/cka.yaml --
id: cka
title: {ja: CKA, ko: CKA}
parts:
  - {number: 1, title: {ja: はじめに, ko: 소개}, state: published}
  - {number: 2, title: {ja: 仕組み, ko: 구조}, state: published}
-- content/ja/cka/01-intro.md --
---
title: はじめに
series: cka
part: 1
---
原文は翻訳のあとで書き直されました。
-- content/ko/cka/01-intro.md --
---
title: 소개
series: cka
part: 1
translated: 2026-11-02 000000000000
---
예전 원문의 번역입니다.
-- content/ja/cka/02-inside.md --
---
title: 仕組み
series: cka
part: 2
---
日本語だけの記事です。
`

// TestTranslationStateInBrowser: the reader of a translation behind its
// original sees the notice, with the day it was translated and a link to
// the original; the reader who switches to a language an article is not
// translated into lands on a page that says so and leads to the
// original. Served, and from file:// in the export.
func TestTranslationStateInBrowser(t *testing.T) {
	in := afero.NewMemMapFs()
	for _, f := range txtar.Parse([]byte(translationSite)).Files {
		if err := afero.WriteFile(in, f.Name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	served := buildTo(t, in, false)
	offline := buildTo(t, in, true)
	ext := map[bool]string{false: "", true: "index.html"}
	for _, tt := range []struct {
		name, base string
		file       bool
	}{{"served", serve(t, served), false}, {"file", "file://" + offline, true}} {
		t.Run(tt.name, func(t *testing.T) {
			b := browsertest.New(t, browsertest.Options{})
			ctx := b.Ctx
			page := func(p string) string { return tt.base + "/" + p + ext[tt.file] }

			// A stale translation.
			run(t, ctx, chromedp.Navigate(page("ko/cka/01-intro/")), chromedp.WaitVisible(chromedp.CSS(`[data-translation-state="stale"]`)))
			text := evalString(t, ctx, `document.querySelector('[data-translation-state="stale"]').innerText`)
			if !strings.Contains(text, "2026년 11월 2일 기준") || !strings.Contains(text, "원문(일본어) 읽기") {
				t.Fatalf("stale notice: %q", text)
			}
			run(t, ctx, chromedp.Click(chromedp.CSS(`[data-translation-state="stale"] a[hreflang="ja"]`)), chromedp.WaitVisible(chromedp.CSS(`html[lang="ja"] main h1`)))
			if h1 := evalString(t, ctx, `document.querySelector("main h1").textContent`); h1 != "はじめに" {
				t.Fatalf("the notice's link led to %q", h1)
			}
			if n := evalString(t, ctx, `String(document.querySelectorAll("[data-translation-state]").length)`); n != "0" {
				t.Fatalf("the original shows %s translation notices", n)
			}

			// Switching to Korean on a Japanese-only article.
			run(t, ctx, chromedp.Navigate(page("ja/cka/02-inside/")), chromedp.WaitVisible(chromedp.CSS(`main h1`)),
				chromedp.Click(chromedp.CSS(`.lang-switch a[hreflang="ko"]`)),
				chromedp.WaitVisible(chromedp.CSS(`html[lang="ko"] [data-translation-state="missing"]`)))
			text = evalString(t, ctx, `document.querySelector("main").innerText`)
			if !strings.Contains(text, "구조") || !strings.Contains(text, "이 글은 아직 번역되지 않았습니다.") {
				t.Fatalf("missing-translation page: %q", text)
			}
			run(t, ctx, chromedp.Click(chromedp.CSS(`[data-translation-state="missing"] a[hreflang="ja"]`)), chromedp.WaitVisible(chromedp.CSS(`html[lang="ja"] main h1`)))
			if h1 := evalString(t, ctx, `document.querySelector("main h1").textContent`); h1 != "仕組み" {
				t.Fatalf("the missing page's link led to %q", h1)
			}
			if c := b.Console(); len(c) > 0 {
				t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
			}
		})
	}
}

// buildTo builds the site in into a new temporary folder, as an export
// (for file://) or as built, and returns the folder.
func buildTo(t *testing.T, in afero.Fs, offline bool) string {
	t.Helper()
	b, err := build.New(in, build.Options{ExplicitIndex: offline})
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	st := res.Site
	if offline {
		st = export.Site(st)
	}
	if err := output.Publish(context.Background(), afero.NewOsFs(), dir, st); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ko", "cka", "02-inside", "index.html")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func run(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func evalString(t *testing.T, ctx context.Context, js string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
