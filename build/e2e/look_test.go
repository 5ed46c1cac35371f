package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// The theme's dark and light backgrounds (--bg), as computed.
const (
	darkBG  = "rgb(15, 20, 25)"
	lightBG = "rgb(255, 255, 255)"
)

// firstThemeJS records, for each document, <html>'s data-theme when the
// parser first inserts <body> (before any paint of it: the observer runs
// at the end of the parser's task), and the body's background and the
// root's color-scheme at DOMContentLoaded, in sessionStorage under
// "first:" and the page's path, so that they outlive a navigation.
const firstThemeJS = `(() => {
	const key = "first:" + location.pathname;
	const rec = (what) => {
		try {
			const v = JSON.parse(sessionStorage.getItem(key) || "{}");
			sessionStorage.setItem(key, JSON.stringify(Object.assign(v, what)));
		} catch (e) { /* no storage */ }
	};
	try { sessionStorage.removeItem(key); } catch (e) { /* none */ }
	new MutationObserver((_, mo) => {
		if (!document.body) return;
		mo.disconnect();
		rec({ atBody: document.documentElement.getAttribute("data-theme") || "auto" });
	}).observe(document, { childList: true, subtree: true });
	document.addEventListener("DOMContentLoaded", () => rec({
		bg: getComputedStyle(document.body).backgroundColor,
		scheme: getComputedStyle(document.documentElement).colorScheme,
	}));
})()`

type firstTheme struct {
	AtBody string `json:"atBody"`
	BG     string `json:"bg"`
	Scheme string `json:"scheme"`
}

func readFirst(t *testing.T, ctx context.Context, path string) firstTheme {
	t.Helper()
	// A page that sent the reader on wrote from its own document: wait
	// for its record to reach this one.
	raw, err := chromedp.Run(ctx, chromedp.Poll[string](`(v => v && v.includes("atBody") ? v : null)(sessionStorage.getItem(`+quoteJS("first:"+path)+`))`, chromedp.WithPollingTimeout(2*time.Second)))
	if err != nil {
		raw = "{}"
	}
	var f firstTheme
	if err := json.Unmarshal([]byte(raw), &f); err != nil {
		t.Fatal(err)
	}
	return f
}

func emulateScheme(t *testing.T, ctx context.Context, scheme string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		t.Fatal(err)
	}
}

// storeTheme opens at (a page of the origin to store for) and stores the
// reader's theme there ("" for none: auto).
func storeTheme(t *testing.T, ctx context.Context, at, theme string) {
	t.Helper()
	js := `localStorage.removeItem("kakehashi-theme")`
	if theme != "" {
		js = `localStorage.setItem("kakehashi-theme", ` + quoteJS(theme) + `)`
	}
	run(t, ctx, chromedp.Navigate(at), chromedp.WaitReady(chromedp.CSS(`body`)))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(`+js+`, true)`)); err != nil {
		t.Fatal(err)
	}
}

// TestThemeBeforeFirstPaint: a theme stored by the reader is on <html>
// before the body is parsed, and painted from the first frame, on every
// kind of page, served and from file:// (the exported copy), whatever the
// OS prefers; with none stored, the OS's scheme applies.
func TestThemeBeforeFirstPaint(t *testing.T) {
	var noScript atomic.Bool
	course := serveCourseAtItsURL(t, &noScript)
	served, _ := translationCourse(t)
	trans := serve(t, served)
	exported := exportedCourse(t)
	type site struct {
		name, base string
		pages      []string // paths; the first is opened to store the theme
		index      string   // what a folder's address adds
	}
	kinds := []string{"/ja/", "/", "/ja/cka/", "/ja/cka/05-ha-cluster/", "/ko/cka/02-control-plane/", "/ja/tags/", "/ja/tags/cka/", "/ja/glossary/", "/404.html"}
	// From file://, the root page's record (written just before it sends
	// the reader on) does not always reach the next document: its root is
	// the served one's.
	var offline []string
	for _, p := range kinds {
		if p != "/" {
			offline = append(offline, p)
		}
	}
	sites := []site{
		{"served", course, kinds, ""},
		{"untranslated", trans, []string{"/ko/cka/01-intro/", "/ko/cka/02-inside/"}, ""},
		{"file", "file://" + exported, offline, "index.html"},
	}
	if _, err := os.Stat(filepath.Join(exported, "404.html")); err != nil {
		sites[2].pages = offline[:len(offline)-1]
	}
	b := browsertest.New(t, browsertest.Options{Timeout: 3 * time.Minute})
	ctx := b.Ctx
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstThemeJS}); err != nil {
		t.Fatal(err)
	}
	for _, s := range sites {
		for _, c := range []struct{ os, stored, want, bg string }{
			{"light", "dark", "dark", darkBG},
			{"dark", "light", "light", lightBG},
			{"dark", "", "auto", darkBG},
			{"light", "", "auto", lightBG},
		} {
			t.Run(fmt.Sprintf("%s/os-%s/stored-%s", s.name, c.os, c.want), func(t *testing.T) {
				emulateScheme(t, ctx, c.os)
				addr := func(p string) string {
					if strings.HasSuffix(p, "/") {
						p += s.index
					}
					return s.base + p
				}
				storeTheme(t, ctx, addr(s.pages[0]), c.stored)
				for _, p := range s.pages {
					ready := `footer`
					if p == "/" {
						ready = `body.kind-home footer` // where the root page sends the reader
					}
					run(t, ctx, chromedp.Navigate(addr(p)), chromedp.WaitVisible(chromedp.CSS(ready)))
					path := p
					if strings.HasSuffix(p, "/") {
						path += s.index
					}
					if s.index != "" {
						path = filepath.Join(exported, path)
					}
					f := readFirst(t, ctx, path)
					if f.AtBody != c.want {
						t.Errorf("%s: data-theme when <body> was parsed: %q, want %q", p, f.AtBody, c.want)
					}
					if p == "/" {
						continue // sent on before its DOMContentLoaded
					}
					if f.BG != c.bg {
						t.Errorf("%s: background at DOMContentLoaded %q, want %q", p, f.BG, c.bg)
					}
					if want := map[string]string{darkBG: "dark", lightBG: "light"}[c.bg]; f.Scheme != want && !(c.want == "auto" && f.Scheme == "light dark") {
						t.Errorf("%s: color-scheme %q, want %q", p, f.Scheme, want)
					}
				}
			})
		}
	}
	if c := b.Console(); len(c) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// TestThemeChoice: the header's theme choice is a labelled select worked
// by keyboard; the choice applies at once, is kept for the next page and
// visit, and "auto" forgets it. Without JavaScript it is not shown.
func TestThemeChoice(t *testing.T) {
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstThemeJS}); err != nil {
		t.Fatal(err)
	}
	emulateScheme(t, ctx, "light")
	storeTheme(t, ctx, base+"/ja/", "")
	state := func() string {
		return evalString(t, ctx, `(() => {
			const s = document.querySelector(".theme-choice select");
			return [s.value, document.documentElement.getAttribute("data-theme") || "-", localStorage.getItem("kakehashi-theme") || "-", getComputedStyle(document.body).backgroundColor].join(" ");
		})()`)
	}
	run(t, ctx, chromedp.Navigate(base+"/ja/cka/05-ha-cluster/"), chromedp.WaitVisible(chromedp.CSS(`.theme-choice select`)))
	label := evalString(t, ctx, `(s => s.labels.length + ":" + s.labels[0].querySelector(".visually-hidden").textContent.trim() + ":" + [...s.options].map(o => o.value + "=" + o.textContent.trim()).join(","))(document.querySelector(".theme-choice select"))`)
	if !strings.HasPrefix(label, "1:テーマ:auto=自動,light=ライト,dark=ダーク") {
		t.Errorf("the theme choice's label and options: %s", label)
	}
	if got, want := state(), "auto - - "+lightBG; got != want {
		t.Errorf("at first: %q, want %q", got, want)
	}
	run(t, ctx, chromedp.Focus(chromedp.CSS(`.theme-choice select`)), chromedp.KeyEvent(kb.ArrowDown))
	if got, want := state(), "light light light "+lightBG; got != want {
		t.Errorf("after ArrowDown: %q, want %q", got, want)
	}
	run(t, ctx, chromedp.KeyEvent(kb.ArrowDown))
	if got, want := state(), "dark dark dark "+darkBG; got != want {
		t.Errorf("after ArrowDown twice: %q, want %q", got, want)
	}
	// The next page, and a later visit (a new tab of the same profile).
	run(t, ctx, chromedp.Navigate(base+"/ja/cka/"), chromedp.WaitVisible(chromedp.CSS(`.theme-choice select`)))
	if f := readFirst(t, ctx, "/ja/cka/"); f.AtBody != "dark" {
		t.Errorf("the next page's data-theme at <body>: %q, want dark", f.AtBody)
	}
	if got, want := state(), "dark dark dark "+darkBG; got != want {
		t.Errorf("on the next page: %q, want %q", got, want)
	}
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	run(t, tab, chromedp.Navigate(base+"/ja/tags/"), chromedp.WaitVisible(chromedp.CSS(`.theme-choice select`)))
	if got, want := evalString(t, tab, `document.querySelector(".theme-choice select").value + " " + document.documentElement.dataset.theme`), "dark dark"; got != want {
		t.Errorf("in a new tab: %q, want %q", got, want)
	}
	cancel()
	run(t, ctx, chromedp.Focus(chromedp.CSS(`.theme-choice select`)), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp))
	if got, want := state(), "auto - - "+lightBG; got != want {
		t.Errorf("back to auto: %q, want %q", got, want)
	}
	emulateScheme(t, ctx, "dark")
	if got, want := state(), "auto - - "+darkBG; got != want {
		t.Errorf("auto, the OS dark: %q, want %q", got, want)
	}

	t.Run("without-js", func(t *testing.T) {
		b := browsertest.New(t, browsertest.Options{DisableJS: true})
		run(t, b.Ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/ja/cka/05-ha-cluster/"), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
		got := evalString(t, b.Ctx, `[".theme-choice", ".search-toggle", "#q"].map(s => s + "=" + document.querySelector(s).checkVisibility()).join(" ")`)
		if want := ".theme-choice=false .search-toggle=false #q=true"; got != want {
			t.Errorf("without JavaScript at 390 px: %s, want %s", got, want)
		}
	})
	if c := b.Console(); len(c) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// headerJS measures the header: its top and height, and whether every
// item of its bar sits within it (one line).
const headerJS = `(() => {
	const h = document.querySelector(".site-header").getBoundingClientRect();
	const bar = document.querySelector(".site-header>.bar");
	// (The search row a phone's button opens is under the bar, on purpose.)
	const off = [...bar.children].filter(e => e.checkVisibility() && !(e.matches(".search-open .search"))).filter(e => {
		const r = e.getBoundingClientRect();
		return r.top < h.top - 0.5 || r.bottom > h.bottom + 0.5;
	}).map(e => e.className);
	return Math.round(h.top) + " " + Math.round(h.height) + " " + (off.join(",") || "one-line");
})()`

// TestStickyHeader: on a phone's width and a wide screen's, the header is
// one line at most 56 px high and stays at the top as the reader scrolls;
// a heading linked to lands below it. On the phone the search button
// opens the search row under the bar and focuses the box; the button
// again, or Escape, closes it.
func TestStickyHeader(t *testing.T) {
	base := serve(t, builtCourse(t))
	art := base + "/ja/cka/05-ha-cluster/"
	for _, w := range []struct {
		width, height int64
		phone         bool
	}{{390, 844, true}, {1440, 900, false}} {
		t.Run(fmt.Sprint(w.width), func(t *testing.T) {
			b := browsertest.New(t, browsertest.Options{})
			ctx := b.Ctx
			run(t, ctx, chromedp.EmulateViewport(w.width, w.height), chromedp.Navigate(art), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
			check := func(when string) {
				t.Helper()
				var top, height int
				var line string
				fmt.Sscan(evalString(t, ctx, headerJS), &top, &height, &line)
				if top != 0 || height > 56 || height < 40 || line != "one-line" {
					t.Errorf("%s: header at %d px, %d px high, %s; want at 0, 40-56 px, one line", when, top, height, line)
				}
			}
			check("at the top")
			// A phone's header shows the course's short title (shortTitle).
			brand := evalString(t, ctx, `[...document.querySelectorAll(".brand span")].filter(s => s.checkVisibility()).map(s => s.textContent).join("|")`)
			if want := map[bool]string{true: "CKA コース", false: "Certified Kubernetes Administrator (CKA) コース"}[w.phone]; brand != want {
				t.Errorf("the header's title reads %q, want %q", brand, want)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(scrollTo(0, 3000), true)`)); err != nil {
				t.Fatal(err)
			}
			if y := evalString(t, ctx, `String(Math.round(scrollY))`); y == "0" {
				t.Fatal("the page did not scroll")
			}
			check("scrolled")
			// Focusing what the header holds (by Tab, or a click) leaves the
			// page where it is: the header is in view, whatever the
			// scroll padding above the targets.
			if moved := evalString(t, ctx, `(() => {
				const y = scrollY, out = [];
				for (const el of document.querySelectorAll(".site-header a, .site-header button, .site-header select, #q")) {
					if (!el.checkVisibility()) continue;
					el.focus();
					if (scrollY !== y) out.push((el.className || el.id || el.nodeName) + ":" + (scrollY - y));
					scrollTo(0, y);
				}
				document.activeElement.blur();
				return out.join(" ");
			})()`); moved != "" {
				t.Errorf("focusing the header's controls scrolled the page: %s", moved)
			}
			shown := evalString(t, ctx, `[".search-toggle", "#q"].map(s => document.querySelector(s).checkVisibility()).join(" ")`)
			if want := map[bool]string{true: "true false", false: "false true"}[w.phone]; shown != want {
				t.Errorf("search button, box shown: %s, want %s", shown, want)
			}
			if w.phone {
				row := `(() => {
					const h = document.querySelector(".site-header"), q = document.querySelector("#q");
					const bar = h.querySelector(".bar").getBoundingClientRect(), r = q.closest(".search").getBoundingClientRect();
					return [h.classList.contains("search-open"), h.querySelector(".search-toggle").getAttribute("aria-expanded"), q.checkVisibility(), document.activeElement === q,
						q.checkVisibility() ? Math.abs(r.top - bar.bottom) <= 2 && r.width >= document.documentElement.clientWidth - 1 || [r.top, bar.bottom, r.width, innerWidth] : "-"].join(" ");
				})()`
				y := evalString(t, ctx, `String(scrollY)`)
				run(t, ctx, chromedp.Click(chromedp.CSS(`.search-toggle`)))
				if got, want := evalString(t, ctx, row), "true true true true true"; got != want {
					t.Errorf("after the button (open, expanded, shown, focused, a full row under the bar): %s, want %s", got, want)
				}
				if y2 := evalString(t, ctx, `String(scrollY)`); y2 != y {
					t.Errorf("opening the search scrolled the page from %s to %s", y, y2)
				}
				check("the search open")
				run(t, ctx, chromedp.KeyEvent(kb.Escape))
				if got, want := evalString(t, ctx, row), "false false false false -"; got != want {
					t.Errorf("after Escape: %s, want %s", got, want)
				}
				if f := evalString(t, ctx, `document.activeElement.className`); f != "search-toggle" {
					t.Errorf("after Escape the focus is on %q, want the button", f)
				}
				run(t, ctx, chromedp.KeyEvent("\r"))
				if got, want := evalString(t, ctx, row), "true true true true true"; got != want {
					t.Errorf("after Enter on the button: %s, want %s", got, want)
				}
				run(t, ctx, chromedp.Click(chromedp.CSS(`.search-toggle`)))
				if got, want := evalString(t, ctx, row), "false false false false -"; got != want {
					t.Errorf("after the button again: %s, want %s", got, want)
				}
			}
			// A heading linked to lands below the header.
			id := "etcd-クォーラムと耐障害性"
			run(t, ctx, chromedp.Navigate(base+"/ja/cka/"), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
			run(t, ctx, chromedp.Navigate(art+"#"+url.PathEscape(id)), chromedp.WaitVisible(chromedp.CSS(`main h1`)), chromedp.Sleep(300*time.Millisecond))
			gap := evalString(t, ctx, `String(Math.round(document.getElementById(`+quoteJS(id)+`).getBoundingClientRect().top - document.querySelector(".site-header").getBoundingClientRect().bottom))`)
			var n int
			fmt.Sscan(gap, &n)
			if n < 0 || n > 40 {
				t.Errorf("the linked heading is %d px below the header, want 0-40", n)
			}
			if c := b.Console(); len(c) > 0 {
				t.Errorf("console errors:\n%s", strings.Join(c, "\n"))
			}
		})
	}
}

// TestTOCInView: as the reader scrolls, the table of contents marks the
// section in view, one link at a time (aria-current="true", with its own
// background), the last at the page's end and none above the first.
func TestTOCInView(t *testing.T) {
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	run(t, ctx, chromedp.EmulateViewport(1440, 900), chromedp.Navigate(base+"/ja/cka/05-ha-cluster/"), chromedp.WaitVisible(chromedp.CSS(`.toc nav`)))
	current := func(scroll, want string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(`+scroll+`, true)`)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => {
			const cur = [...document.querySelectorAll(".toc a[aria-current]")];
			const got = cur.map(a => a.getAttribute("aria-current") + ":" + decodeURIComponent(a.hash.slice(1))).join(" ");
			return got === `+quoteJS(want)+` ? "=" + got : null;
		})()`, chromedp.WithPollingTimeout(3*time.Second)))
		if err != nil {
			got = evalString(t, ctx, `[...document.querySelectorAll(".toc a[aria-current]")].map(a => a.getAttribute("aria-current") + ":" + decodeURIComponent(a.hash.slice(1))).join(" ")`)
			t.Errorf("after %s: marked %q, want %q", scroll, got, want)
		}
	}
	at := func(id string) string { return `document.getElementById(` + quoteJS(id) + `).scrollIntoView()` }
	current(`scrollTo(0, 0)`, "")
	current(at("etcd-クォーラムと耐障害性"), "true:etcd-クォーラムと耐障害性")
	differs := evalString(t, ctx, `(() => {
		const cur = document.querySelector(".toc a[aria-current]"), other = document.querySelector(".toc a:not([aria-current])");
		return String(getComputedStyle(cur).backgroundColor !== getComputedStyle(other).backgroundColor && getComputedStyle(cur).color !== getComputedStyle(other).color);
	})()`)
	if differs != "true" {
		t.Error("the marked link looks like the others")
	}
	current(at("etcd-メンバーの確認"), "true:etcd-メンバーの確認")
	current(at("stacked-etcd-トポロジー"), "true:stacked-etcd-トポロジー")
	last := evalString(t, ctx, `decodeURIComponent([...document.querySelectorAll(".toc nav a")].pop().hash.slice(1))`)
	current(`scrollTo(0, document.documentElement.scrollHeight)`, "true:"+last)
	current(`scrollTo(0, 0)`, "")
	if c := b.Console(); len(c) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// TestSearchShortcut: "/" and Ctrl+K go to the search box from the page,
// opening its row on a phone; a "/" typed in a field stays in it.
func TestSearchShortcut(t *testing.T) {
	base := serve(t, builtCourse(t))
	art := base + "/ja/cka/05-ha-cluster/"
	for _, w := range []struct {
		width, height int64
		phone         bool
	}{{390, 844, true}, {1440, 900, false}} {
		t.Run(fmt.Sprint(w.width), func(t *testing.T) {
			b := browsertest.New(t, browsertest.Options{})
			ctx := b.Ctx
			state := `[document.activeElement === document.querySelector("#q"), document.querySelector(".site-header").classList.contains("search-open")].join(" ")`
			for _, key := range []struct {
				name string
				send chromedp.Action[chromedp.Void]
			}{
				{"/", chromedp.KeyEvent("/")},
				{"Ctrl+K", chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl))},
			} {
				run(t, ctx, chromedp.EmulateViewport(w.width, w.height), chromedp.Navigate(art), chromedp.WaitVisible(chromedp.CSS(`main h1`)))
				if got := evalString(t, ctx, state); got != "false false" {
					t.Fatalf("before %s: box focused, row open = %s", key.name, got)
				}
				run(t, ctx, key.send)
				want := map[bool]string{true: "true true", false: "true false"}[w.phone]
				if got := evalString(t, ctx, state); got != want {
					t.Errorf("after %s: box focused, row open = %s, want %s", key.name, got, want)
				}
			}
			// In the box, "/" is text.
			run(t, ctx, chromedp.KeyEvent("a/b"))
			if v := evalString(t, ctx, `document.querySelector("#q").value`); v != "a/b" {
				t.Errorf("typed a/b in the box, which holds %q", v)
			}
		})
	}
}
