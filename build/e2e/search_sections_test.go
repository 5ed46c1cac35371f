package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// searchGroup is one page of the open results panel as the page shows it.
type searchGroup struct {
	Page     string   `json:"page"`     // the page option's href
	Title    string   `json:"title"`    // its title line
	Sections []string `json:"sections"` // its section options' hrefs
	Headings []string `json:"headings"` // their heading lines
}

const groupsJS = `JSON.stringify([...document.querySelectorAll('#search-results > li.search-group')].map(li => ({
	page: li.querySelector(':scope > a[role="option"].search-page').getAttribute('href'),
	title: li.querySelector('.search-page .search-title').textContent,
	sections: [...li.querySelectorAll('a[role="option"].search-section')].map(a => a.getAttribute('href')),
	headings: [...li.querySelectorAll('.search-section .search-heading')].map(h => h.textContent),
})))`

// openSearch types q into the box of the page at url (the page shown,
// for "") and waits for the results of the whole query, with a section
// among them.
func openSearch(t *testing.T, ctx context.Context, url, q string) []searchGroup {
	t.Helper()
	if url != "" {
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#q`)),
		chromedp.Click(chromedp.CSS(`#q`)),
		chromedp.SendKeys(chromedp.CSS(`#q`), q),
		chromedp.WaitVisible(chromedp.CSS(`#search-results .search-section`)),
	); err != nil {
		t.Fatalf("search for %q: %v", q, err)
	}
	// the results of the whole word, not of its first letters
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`[...document.querySelectorAll('#search-results mark')].every(m => m.textContent.toLowerCase().startsWith(`+jsString(strings.ToLower(q))+`)) || null`)); err != nil {
		t.Fatalf("the marks never became those of %q: %v", q, err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](groupsJS))
	if err != nil {
		t.Fatal(err)
	}
	var gs []searchGroup
	if err := json.Unmarshal([]byte(raw), &gs); err != nil {
		t.Fatal(err)
	}
	return gs
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestSearchSections drives the results panel over the built course:
// results are grouped by page, each with up to three sections whose
// links are the page's and a heading's id; terms are marked as text; the
// count is announced; the keys move through every option; a section
// result lands on its heading, in view and highlighted; on a phone the
// panel covers the window under the box.
func TestSearchSections(t *testing.T) {
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	gs := openSearch(t, ctx, base+"/ja/", "etcd")
	if len(gs) < 2 {
		t.Fatalf("%d pages for etcd, want at least 2: %+v", len(gs), gs)
	}
	sections := 0
	for _, g := range gs {
		if len(g.Sections) > 3 {
			t.Errorf("%s shows %d sections, want at most 3", g.Page, len(g.Sections))
		}
		for i, s := range g.Sections {
			page, id, ok := strings.Cut(s, "#")
			if !ok || page != g.Page || id == "" {
				t.Errorf("section %q of %s does not link to one of its headings", s, g.Page)
			}
			if strings.TrimSpace(g.Headings[i]) == "" {
				t.Errorf("section %q has no heading line", s)
			}
			sections++
		}
	}
	if sections == 0 {
		t.Fatalf("no section results: %+v", gs)
	}
	// Every option is an option with an id, the marks hold text only,
	// and the count of pages is announced.
	check, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const opts = [...document.querySelectorAll('#search-results [role="option"]')];
		const ids = new Set(opts.map(o => o.id));
		if (ids.size !== opts.length || opts.some(o => !o.id || o.getAttribute('aria-selected') !== 'false')) return 'options: ' + opts.map(o => o.id + '=' + o.getAttribute('aria-selected')).join(' ');
		const marks = [...document.querySelectorAll('#search-results mark')];
		if (!marks.length || marks.some(m => m.children.length)) return 'marks: ' + marks.length;
		if ([...document.querySelectorAll('#search-results .search-title, #search-results .search-heading')].every(e => !e.querySelector('mark'))) return 'no title or heading marked';
		return document.querySelector('.search [role="status"]').textContent;
	})()`))
	if want := strings.Replace("%d 件のページが見つかりました", "%d", itoa(len(gs)), 1); check != want {
		t.Errorf("status %q, want %q", check, want)
	}
	// The keys of the APG's combobox.
	active := func() string {
		s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(q => q.getAttribute('aria-expanded') + ' ' + q.getAttribute('aria-activedescendant') + ' ' + [...document.querySelectorAll('#search-results [aria-selected="true"]')].map(o => o.id).join(','))(document.querySelector('#q'))`))
		return s
	}
	n := len(gs) + sections
	steps := []struct {
		key, want string
	}{
		{kb.ArrowDown, "true search-results-0 search-results-0"},
		{kb.ArrowDown, "true search-results-1 search-results-1"},
		{kb.ArrowUp, "true search-results-0 search-results-0"},
		{kb.ArrowUp, "true search-results-" + itoa(n-1) + " search-results-" + itoa(n-1)}, // wraps to the last
		{kb.Home, "true null "},
		{kb.ArrowDown, "true search-results-0 search-results-0"},
		{kb.End, "true null "},
		{kb.Escape, "false null "},
	}
	for _, s := range steps {
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#q`), s.key)); err != nil {
			t.Fatal(err)
		}
		if got := active(); got != s.want {
			t.Errorf("after %q: expanded, activedescendant, selected = %q, want %q", s.key, got, s.want)
		}
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#q`), kb.Escape)); err != nil {
		t.Fatal(err)
	}
	if v, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#q').value`)); v != "" {
		t.Errorf("a second Escape left %q in the box", v)
	}

	// Enter on the first section lands on its heading.
	gs = openSearch(t, ctx, base+"/ja/", "etcd")
	var target string
	downs := 0
	for _, g := range gs {
		downs++
		if len(g.Sections) > 0 {
			target = g.Sections[0]
			downs++
			break
		}
	}
	for range downs {
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#q`), kb.ArrowDown)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := chromedp.RunResponse(ctx, chromedp.SendKeys(chromedp.CSS(`#q`), kb.Enter)); err != nil {
		t.Fatalf("Enter on %s: %v", target, err)
	}
	checkLanded(t, ctx, target)

	// A phone: the panel is the window's width, from under the box down.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	// On a phone the header's search button opens the box.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/ja/"), chromedp.WaitVisible(chromedp.CSS(`.search-toggle`)),
		chromedp.Click(chromedp.CSS(`.search-toggle`)), chromedp.WaitVisible(chromedp.CSS(`#q`))); err != nil {
		t.Fatal(err)
	}
	openSearch(t, ctx, "", "etcd")
	geo, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const r = document.querySelector('#search-results').getBoundingClientRect();
		const q = document.querySelector('#q').getBoundingClientRect();
		const w = document.documentElement.clientWidth;
		return [r.left, Math.round(r.width - w), r.top >= q.bottom, Math.round(r.bottom - innerHeight)].join(' ');
	})()`))
	if geo != "0 0 true 0" {
		t.Errorf("at 390 px the panel's left, width - window's, top under the box, bottom - window's = %q, want \"0 0 true 0\"", geo)
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// checkLanded checks that the window shows the page of a section result
// (href, relative as the option has it), its URL's hash the section's,
// scrolled to its heading, which is highlighted.
func checkLanded(t *testing.T, ctx context.Context, href string) {
	t.Helper()
	_, hash, _ := strings.Cut(href, "#")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`location.hash === `+jsString("#"+hash)+` && document.readyState === 'complete' || null`)); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("landed on %s, want the hash #%s: %v", loc, hash, err)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	page, _, _ := strings.Cut(href, "#")
	page = strings.TrimLeft(strings.ReplaceAll(page, "../", ""), "./")
	if !strings.Contains(strings.Split(loc, "#")[0], strings.TrimSuffix(page, "index.html")) {
		t.Errorf("landed on %s, want the page %s", loc, page)
	}
	got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const h = document.querySelector(':target');
		if (!h) return 'no target';
		if (!/^H[2-4]$/.test(h.tagName)) return 'target is ' + h.tagName;
		const r = h.getBoundingClientRect();
		if (scrollY <= 0) return 'not scrolled';
		// Below the sticky header, not under it.
		const head = document.querySelector('.site-header').getBoundingClientRect().bottom;
		if (r.top < head - 1 || r.top > innerHeight / 3) return 'heading at ' + r.top + ', the header ends at ' + head;
		return getComputedStyle(h).animationName;
	})()`))
	if got != "landed" {
		t.Errorf("the heading of #%s: %s, want it in view and highlighted (animation landed)", hash, got)
	}
}

// TestSearchAnswersAtOnce: with what a query needs loaded, the box
// answers a keystroke in its input event, without waiting for a frame;
// a second keystroke in the same frame is answered once, on the next.
func TestSearchAnswersAtOnce(t *testing.T) {
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	openSearch(t, ctx, base+"/ja/", "kubeadm")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(q => { q.value = ''; q.dispatchEvent(new Event('input', { bubbles: true })); return true; })(document.querySelector('#q'))`)); err != nil {
		t.Fatal(err)
	}
	openSearch(t, ctx, "", "etcd")
	// Typed in one task with both loaded: "kubeadm" (answered in its
	// event), then "etcd" (in the same frame: answered on the next).
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new Promise(ok => requestAnimationFrame(() => setTimeout(() => {
		const q = document.querySelector('#q');
		const shows = w => { const ms = [...document.querySelectorAll('#search-results mark')]; return ms.length > 0 && ms.every(m => m.textContent.toLowerCase().startsWith(w)); };
		const type = v => { q.value = v; q.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' })); };
		type('kubeadm');
		const first = shows('kubeadm') ? 'kubeadm at once' : 'kubeadm late';
		type('etcd');
		const second = shows('kubeadm') ? 'etcd waits' : 'etcd at once too';
		requestAnimationFrame(() => setTimeout(() => ok(first + '; ' + second + '; ' + (shows('etcd') ? 'etcd next frame' : 'etcd never'))));
	})))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if want := "kubeadm at once; etcd waits; etcd next frame"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// TestSearchFillsThePanelFirst: on a site whose queries find many pages,
// the keystroke's event makes the results that fill the open panel and
// leaves the others, below its fold, for after the paint; a key that moves
// to them adds them at once, and a keystroke that comes first drops them.
func TestSearchFillsThePanelFirst(t *testing.T) {
	ctx := context.Background()
	c, err := corpus.LoadDir(ctx, filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src, err := c.MemSite(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	bld, err := build.New(src, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := bld.Build(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "public")
	if err := output.Publish(ctx, afero.NewOsFs(), dir, res.Site); err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t, browsertest.Options{})
	openSearch(t, b.Ctx, serve(t, dir)+"/ja/", "kubeadm")
	if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`document.querySelectorAll('#search-results > li.search-group').length === 10 || null`)); err != nil {
		t.Fatalf("kubeadm does not find ten pages on a site of ten parts: %v", err)
	}
	// What the keystroke's event shows, and what the list holds after
	// the paint; then a keystroke whose rest is taken by the next one;
	// then ArrowUp at once after a keystroke, which selects the last result.
	got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`new Promise(ok => {
		const q = document.querySelector('#q'), list = document.getElementById('search-results');
		const type = v => { q.value = v; q.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' })); };
		const groups = () => list.querySelectorAll(':scope > li.search-group').length;
		const after = f => requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => setTimeout(f, 50))));
		const pages = () => [...list.querySelectorAll('a.search-page')].map(a => a.getAttribute('href'));
		after(() => {
			type('kubead');
			const first = groups(), filled = list.scrollHeight > list.clientHeight + 8;
			after(() => {
				const all = groups();
				// kubeadm's event, then etcd's in the same frame
				type('kubeadm');
				type('etcd');
				after(() => {
					const hrefs = pages();
					const stale = hrefs.length - new Set(hrefs).size + [...list.querySelectorAll('mark')].filter(m => m.textContent.toLowerCase().startsWith('kubeadm')).length;
					type('kubead');
					q.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
					const opts = list.querySelectorAll('[role="option"]');
					const sel = list.querySelector('[aria-selected="true"]');
					ok(JSON.stringify({ first, filled, all, stale, groups: groups(), last: sel === opts[opts.length - 1] }));
				});
			});
		});
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		First, All, Stale, Groups int
		Filled, Last              bool
	}
	if err := json.Unmarshal([]byte(got), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Filled || r.First == 0 || r.First >= r.All || r.All != 10 {
		t.Errorf("the keystroke's event made %d of %d results (the panel filled: %v); want those that fill it, fewer than all ten", r.First, r.All, r.Filled)
	}
	if r.Stale != 0 {
		t.Errorf("after kubeadm and etcd in one frame: %d results of kubeadm's left in the list (pages twice or its marks)", r.Stale)
	}
	if r.Groups != 10 || !r.Last {
		t.Errorf("ArrowUp right after a keystroke: %d results, the last selected %v; want all ten and the last", r.Groups, r.Last)
	}
}
