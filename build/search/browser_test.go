package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// pageHTML is a page with the theme's search box, at depth three like an
// article (/ja/cka/NN-slug/index.html).
const pageHTML = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>T</title>
<script type="application/json" id="kakehashi-config">{"search":{"script":"../../../js/search.js","index":"../../../ja/search-index.js","base":"../../../"}}</script>
<script src="../../../js/search.js" defer></script></head>
<body><header><div class="search" data-empty="見つかりません"><input id="q" type="search" role="combobox"
 aria-expanded="false" aria-controls="search-results"><ul id="search-results"
 class="search-results" role="listbox" hidden></ul></div></header>
<main><h1>{{TITLE}}</h1></main></body></html>
`

// TestSearchBoxInBrowser opens a small site from file:// in Chromium and
// drives the search box: the index loads on focus as a script, results show
// part number, title and a marked snippet, arrow keys and Enter follow the
// first result, Escape closes, and index text is never markup.
func TestSearchBoxInBrowser(t *testing.T) {
	start := writeSearchSite(t)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	if err := chromedp.Do(ctx,
		chromedp.Navigate(start),
		chromedp.WaitVisible(chromedp.CSS(`#q`)),
	); err != nil {
		t.Fatal(err)
	}
	checkLoadsOnFocus(t, ctx, b.Console)
	checkFirstResult(t, ctx)
	checkHostileText(t, ctx)
	checkKeys(t, ctx)
	checkNoResults(t, ctx)
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// writeSearchSite writes a small site with a hostile page in a temporary
// folder and returns the URL of a page with the search box.
func writeSearchSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	docs := corpus()
	docs = append(docs, Doc{Lang: "ja", URL: "/ja/cka/09-xss/", Part: 9,
		Title: `<img src=x onerror="window.__xss=1">タイトル`, Text: `<b>太字</b> クォーラム 本文`})
	var ix Indexer
	for _, d := range docs {
		ix.Add(d)
	}
	js, _ := ix.Build("ja", Options{ExplicitIndex: true})
	engine, err := os.ReadFile(filepath.Join("..", "..", "themes", "default", "static", "js", "search.js"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"js/search.js":       string(engine),
		"ja/search-index.js": string(js),
	}
	for _, d := range docs {
		if d.Lang == "ja" {
			files[strings.TrimPrefix(d.URL, "/")+"index.html"] = strings.Replace(pageHTML, "{{TITLE}}", d.Title, 1)
		}
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return "file://" + filepath.ToSlash(filepath.Join(dir, "ja", "cka", "02-control-plane", "index.html"))
}

// checkLoadsOnFocus checks the index loads when the box takes focus, not
// before.
func checkLoadsOnFocus(t *testing.T, ctx context.Context, console func() []string) {
	t.Helper()
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!(globalThis.kakehashiSearch && globalThis.kakehashiSearch.ja)`))
	if err != nil || loaded {
		t.Fatalf("index loaded before focus (%v)", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#q`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!(globalThis.kakehashiSearch && globalThis.kakehashiSearch.ja) || null`)); err != nil {
		dbg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[typeof kakehashiSearchEngine, document.activeElement && document.activeElement.id, Array.from(document.scripts).map(s => s.src).join(',')].join(' | ')`))
		t.Fatalf("index not loaded on focus from file://: %v\n%s\n%v", err, dbg, console())
	}

}

// checkFirstResult types a query and checks the first result.
func checkFirstResult(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#q`), "クォーラム")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('#search-results li a[role=option]').length > 0 || null`)); err != nil {
		t.Fatalf("no results for クォーラム: %v", err)
	}
	first, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`(() => {
		const li = document.querySelector('#search-results li');
		const a = li.querySelector('a');
		return {
			href: a.getAttribute('href'),
			part: a.querySelector('.part-no').textContent,
			mark: a.querySelector('.snippet mark').textContent,
			expanded: document.querySelector('#q').getAttribute('aria-expanded'),
			hidden: String(document.querySelector('#search-results').hidden),
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"href": "../../../ja/cka/05-ha-cluster/index.html", "part": "#5", "mark": "クォーラム",
		"expanded": "true", "hidden": "false",
	}
	for k, v := range want {
		if first[k] != v {
			t.Errorf("first result %s = %q, want %q", k, first[k], v)
		}
	}

}

// checkHostileText checks that index text stays text: the hostile title
// and body make no elements.
func checkHostileText(t *testing.T, ctx context.Context) {
	t.Helper()
	xss, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const ul = document.querySelector('#search-results');
		return [ul.querySelectorAll('img, b').length, window.__xss || 0,
			ul.textContent.includes('<img src=x') ? 'text' : 'missing'].join(' ');
	})()`))
	if err != nil || xss != "0 0 text" {
		t.Errorf("hostile index text: %q (%v)", xss, err)
	}

}

// checkKeys checks that arrow keys select, Escape closes and Enter follows
// the selection.
func checkKeys(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
		t.Fatal(err)
	}
	sel, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const q = document.querySelector('#q');
		const s = document.querySelector('#search-results a[aria-selected=true]');
		return (s && s.id === q.getAttribute('aria-activedescendant')) ? s.id : 'none';
	})()`))
	if err != nil || sel != "search-results-0" {
		t.Errorf("after ArrowDown selected %q (%v)", sel, err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	closed, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#search-results').hidden + ' ' + document.querySelector('#q').getAttribute('aria-expanded')`))
	if closed != "true false" {
		t.Errorf("after Escape: hidden, aria-expanded = %q", closed)
	}
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.KeyEvent(kb.Enter),
	); err != nil {
		t.Fatal(err)
	}
	// the navigation may tear down the context a poll runs in: poll again
	var loc string
	for range 5 {
		loc, err = chromedp.Run(ctx, chromedp.Poll[string](`location.href.endsWith('/ja/cka/05-ha-cluster/index.html') && document.readyState === 'complete' ? location.href : null`))
		if err == nil {
			break
		}
	}
	if err != nil || !strings.HasPrefix(loc, "file://") {
		t.Fatalf("Enter did not follow the result: %q (%v)", loc, err)
	}

}

// checkNoResults checks that a query that finds nothing says so, with the
// theme's text.
func checkNoResults(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#q`)),
		chromedp.SendKeys(chromedp.CSS(`#q`), "zzzz"),
	); err != nil {
		t.Fatal(err)
	}
	empty, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => {
		const li = document.querySelector('#search-results li.search-empty');
		return li ? li.textContent : null;
	})()`))
	if err != nil || empty != "見つかりません" {
		t.Errorf("no-results line %q (%v)", empty, err)
	}
}
