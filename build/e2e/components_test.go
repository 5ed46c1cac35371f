package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// componentsSite: tabs on part 1, a site shortcode with its own
// stylesheet and script on the home page, and no component on part 2.
const componentsSite = `
-- content/series/cka.yaml --
id: cka
title: {ja: CKA, ko: CKA}
parts:
  - {number: 1, title: {ja: はじめに, ko: 소개}, state: published}
  - {number: 2, title: {ja: 仕組み, ko: 구조}, state: published}
-- content/ja/_index.md --
---
title: コース
---
{{< mark >}}etcd{{< /mark >}}
-- content/ja/cka/01-intro.md --
---
title: はじめに
series: cka
part: 1
---
{{< tabs >}}
{{< tab "stacked" >}}
積み重ね
{{< /tab >}}
{{< tab "external" >}}
外部
{{< /tab >}}
{{< /tabs >}}
-- content/ja/cka/02-inside.md --
---
title: 仕組み
series: cka
part: 2
---
部品はありません。
-- themes/default/shortcodes/mark.html --
{{define "assets"}}/css/mark.css /js/mark.js{{end}}<mark class="term">{{.Inner}}</mark>
-- static/css/mark.css --
.term{outline:3px solid rgb(1, 2, 3)}
-- static/js/mark.js --
document.documentElement.dataset.mark = "ran";
`

// TestComponentsInBrowser: a page links what its shortcodes declare and
// nothing else. The tabs of part 1 work (their script, tabs.js, is
// loaded there); the home page's site shortcode gets its stylesheet and
// its script; part 2, without components, loads neither.
func TestComponentsInBrowser(t *testing.T) {
	in := afero.NewMemMapFs()
	for _, f := range txtar.Parse([]byte(componentsSite)).Files {
		if err := afero.WriteFile(in, f.Name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bld, err := build.New(in, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := bld.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := output.Publish(context.Background(), afero.NewOsFs(), dir, res.Site); err != nil {
		t.Fatal(err)
	}
	base := serve(t, dir)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	loaded := `performance.getEntriesByType("resource").map(e => new URL(e.name).pathname).filter(p => /\/(tabs|mark)\./.test(p)).join(" ")`

	run(t, ctx, chromedp.Navigate(base+"/ja/cka/01-intro/"), chromedp.WaitVisible(chromedp.CSS(`.tabs[data-ready="true"] [role="tablist"]`)))
	if got := evalString(t, ctx, `[...document.querySelectorAll(".tab-panel")].map(p => p.hidden).join(" ")`); got != "false true" {
		t.Fatalf("panels hidden: %s, want the first one shown", got)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`[role="tab"]:nth-child(2)`)))
	if got := evalString(t, ctx, `[...document.querySelectorAll(".tab-panel")].map(p => p.hidden).join(" ")`); got != "true false" {
		t.Fatalf("after choosing the second tab, panels hidden: %s", got)
	}
	if got := evalString(t, ctx, loaded); !strings.Contains(got, "/js/tabs.") || strings.Contains(got, "mark") {
		t.Fatalf("part 1 loaded %q, want tabs.js alone", got)
	}

	run(t, ctx, chromedp.Navigate(base+"/ja/"), chromedp.WaitVisible(chromedp.CSS(`mark.term`)))
	if got := evalString(t, ctx, `getComputedStyle(document.querySelector("mark.term")).outlineColor`); got != "rgb(1, 2, 3)" {
		t.Fatalf("the shortcode's stylesheet is not applied: outline %q", got)
	}
	if got, err := chromedp.Run(ctx, chromedp.Poll[string](`document.documentElement.dataset.mark || null`)); err != nil || got != "ran" {
		t.Fatalf("the shortcode's script did not run: %q (%v)", got, err)
	}

	run(t, ctx, chromedp.Navigate(base+"/ja/cka/02-inside/"), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
	if got := evalString(t, ctx, loaded); got != "" {
		t.Fatalf("part 2, without components, loaded %q", got)
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}
