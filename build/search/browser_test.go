package search

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
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
// drives the search box: the manifest loads on focus as a script, a
// query loads the shards it needs and the fragments of the results it
// shows and nothing else, results show part number, title and a marked
// snippet, arrow keys and Enter follow the first result, Escape closes,
// and index text is never markup.
func TestSearchBoxInBrowser(t *testing.T) {
	start, idx := writeSearchSite(t)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	if err := chromedp.Do(ctx,
		chromedp.Navigate(start),
		chromedp.WaitVisible(chromedp.CSS(`#q`)),
	); err != nil {
		t.Fatal(err)
	}
	checkLoadsOnFocus(t, ctx, b.Console)
	if got := indexRequests(b); !slices.Equal(got, []string{IndexPath("ja")}) {
		t.Errorf("on focus the box loaded %q, want the manifest alone", got)
	}
	checkLoadsWhatItNeeds(t, b, idx)
	checkFirstResult(t, ctx)
	checkHostileText(t, ctx)
	checkKeys(t, ctx)
	checkNoResults(t, ctx)
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// writeSearchSite writes a small site with a hostile page in a temporary
// folder, its index in many small shards, and returns the URL of a page
// with the search box and the index as Go reads it.
func writeSearchSite(t *testing.T) (string, *Index) {
	t.Helper()
	dir := t.TempDir()
	docs := corpus()
	docs = append(docs, Doc{Lang: "ja", URL: "/ja/cka/09-xss/", Part: 9,
		Title: `<img src=x onerror="window.__xss=1">タイトル`, Text: "<b>太字</b> クォーラム 本文\n<img src=y onerror=\"window.__xss=2\">クォーラムの見出し\nクォーラム の節",
		// a section whose heading and id are hostile too
		Headings: `<img src=y onerror="window.__xss=2">クォーラムの見出し` + "\n", HeadingIDs: `x" onmouseover="window.__xss=3` + "\n"})
	index, st := Files("ja", docs, Options{ExplicitIndex: true, ShardBytes: 120})
	if st.Shards < 10 {
		t.Fatalf("%d shards; the test wants many", st.Shards)
	}
	idx, err := Load("ja", reader(index))
	if err != nil {
		t.Fatal(err)
	}
	engine, err := os.ReadFile(filepath.Join("..", "..", "themes", "default", "static", "js", "search.js"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"js/search.js": string(engine)}
	for p, b := range index {
		files[strings.TrimPrefix(p, "/")] = string(b)
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
	return "file://" + filepath.ToSlash(filepath.Join(dir, "ja", "cka", "02-control-plane", "index.html")), idx
}

// indexRequests are the files of the index the page asked for so far, as
// site paths, sorted, each once.
func indexRequests(b *browsertest.Browser) []string {
	var out []string
	for _, u := range b.Requests() {
		i := strings.Index(u, "/ja/search-")
		if i < 0 || slices.Contains(out, u[i:]) {
			continue
		}
		out = append(out, u[i:])
	}
	sort.Strings(out)
	return out
}

// wantRequests are the files a query should add to those loaded: the
// shards Go reads for it and the fragments of the results the box shows.
func wantRequests(idx *Index, query string, loaded []string) []string {
	var want []string
	for _, i := range idx.shardsFor(query) {
		want = append(want, shardPath("ja", idx.shardNames[i]))
	}
	for i, h := range Search(idx, query) {
		if i == maxShown {
			break
		}
		want = append(want, fragmentPath("ja", idx.pageNames[h.Doc]))
	}
	want = append(want, loaded...)
	sort.Strings(want)
	return slices.Compact(want)
}

// maxShown is the number of results the box shows (search.js MAX_RESULTS).
const maxShown = 10

// checkLoadsWhatItNeeds puts two queries in the box at once, one after
// the other, and checks that each loads exactly the shards it needs and
// the fragments of its results, once.
func checkLoadsWhatItNeeds(t *testing.T, b *browsertest.Browser, idx *Index) {
	t.Helper()
	loaded := indexRequests(b)
	for _, tc := range []struct{ q, mark string }{{"クォーラム", "クォーラム"}, {"etcdctl member list", "etcdctl member list"}, {"クォーラム", "クォーラム"}} {
		q := tc.q
		if len(idx.shardsFor(q)) >= len(idx.shards) {
			t.Fatalf("%q needs every shard", q)
		}
		want := wantRequests(idx, q, loaded)
		if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](`(() => {
			const q = document.querySelector('#q');
			q.value = `+"`"+q+"`"+`;
			q.dispatchEvent(new Event('input', {bubbles: true}));
			return true;
		})()`)); err != nil {
			t.Fatal(err)
		}
		// the results of this query, not those of the one before
		if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`[...document.querySelectorAll('#search-results li:first-child mark')].some(m => m.textContent.includes(`+"`"+tc.mark+"`"+`)) || null`)); err != nil {
			t.Fatalf("no results for %q: %v", q, err)
		}
		if got := indexRequests(b); !slices.Equal(got, want) {
			t.Errorf("%q: the box loaded %q\nwant %q", q, got, want)
		}
		loaded = want
	}
	if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](`(() => {
		const q = document.querySelector('#q');
		q.value = '';
		q.dispatchEvent(new Event('input', {bubbles: true}));
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
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
	// The results follow the typing: wait for those of the whole word.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`[...document.querySelectorAll('#search-results li:first-child mark')].some(m => m.textContent === 'クォーラム') || null`)); err != nil {
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
		const sec = [...ul.querySelectorAll('a.search-section')].find(a => a.getAttribute('href').endsWith('#x%22%20onmouseover%3D%22window.__xss%3D3'));
		return [ul.querySelectorAll('img, b').length, window.__xss || 0,
			ul.textContent.includes('<img src=x') ? 'text' : 'missing',
			sec && sec.querySelector('.search-heading').textContent.startsWith('<img src=y') ? 'section' : 'no section'].join(' ');
	})()`))
	if err != nil || xss != "0 0 text section" {
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
