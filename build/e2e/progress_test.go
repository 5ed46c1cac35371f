package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// progressState is the stored progress of the course's series, "" when
// there is none.
const progressState = `localStorage.getItem("kakehashi-progress:cka") || ""`

// pollTrue waits until expr is true.
func pollTrue(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Run(pctx, chromedp.Poll[bool](`!!(`+expr+`) || null`)); err != nil {
		t.Fatalf("%s: never (%s): %v", what, expr, err)
	}
}

// goTo opens url and waits for its heading.
func goTo(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`main h1`))); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}

// readMarks lists the parts a series list marks read, with their hidden
// text: "2 (読了)".
const readMarks = `[...document.querySelectorAll("ol.parts li.read")].map(li => li.dataset.part + " " + li.querySelector(".read-mark .visually-hidden").textContent.trim()).join(",")`

// TestProgress reads the course in headless Chromium: an article opened
// is the last one, read at its end; the button marks it unread and read
// again; its Korean twin shares the state; the series page counts and
// marks what is read; the home page offers to continue; the series page
// clears the progress and undoes it.
func TestProgress(t *testing.T) {
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{Timeout: 3 * time.Minute})
	ctx := b.Ctx
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 900)); err != nil {
		t.Fatal(err)
	}
	const btn = `.progress-end button`

	t.Run("read at the end", func(t *testing.T) {
		goTo(t, ctx, base+"/ja/cka/02-control-plane/")
		pollTrue(t, ctx, "the button", `document.querySelector("`+btn+`")?.textContent === "読了にする"`)
		if got := evalString(t, ctx, progressState); got != `{"read":[],"last":2}` {
			t.Fatalf("after opening #2 the state is %q", got)
		}
		if got := evalString(t, ctx, readMarks); got != "" {
			t.Fatalf("marked read before the end: %q", got)
		}
		// flicking past the end is not reading it
		if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(`.progress-end`)), chromedp.Sleep(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.scrollTo(0, 0), true`)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(1300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if got := evalString(t, ctx, progressState); got != `{"read":[],"last":2}` {
			t.Fatalf("after a glimpse of the end the state is %q", got)
		}
		if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(`.progress-end`))); err != nil {
			t.Fatal(err)
		}
		pollTrue(t, ctx, "read at the end", `document.querySelector("`+btn+`").textContent === "未読に戻す"`)
		if got := evalString(t, ctx, progressState); got != `{"read":[2],"last":2}` {
			t.Fatalf("after the end the state is %q", got)
		}
		if got := evalString(t, ctx, readMarks); got != "2 (読了)" {
			t.Fatalf("the sidebar marks %q", got)
		}
		if got := evalString(t, ctx, `document.querySelector(".series-nav .progress-count").textContent`); got != "全 2 回中 1 回読了" {
			t.Fatalf("the sidebar counts %q", got)
		}
	})

	t.Run("button", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(btn))); err != nil {
			t.Fatal(err)
		}
		pollTrue(t, ctx, "unread", `document.querySelector("`+btn+`").textContent === "読了にする"`)
		if got := evalString(t, ctx, progressState); got != `{"read":[],"last":2}` {
			t.Fatalf("after mark as unread the state is %q", got)
		}
		if got := evalString(t, ctx, readMarks); got != "" {
			t.Fatalf("the sidebar still marks %q", got)
		}
		// still at the end: it is not read again behind the reader's back
		if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if got := evalString(t, ctx, progressState); got != `{"read":[],"last":2}` {
			t.Fatalf("the end marked it read again: %q", got)
		}
		if got := evalString(t, ctx, `document.querySelector("`+btn+`").tagName + " " + document.querySelector("`+btn+`").type`); got != "BUTTON button" {
			t.Fatalf("the control is %s", got)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(btn))); err != nil {
			t.Fatal(err)
		}
		pollTrue(t, ctx, "read", `document.querySelector("`+btn+`").textContent === "未読に戻す"`)
	})

	t.Run("the Korean twin", func(t *testing.T) {
		goTo(t, ctx, base+"/ko/cka/02-control-plane/")
		pollTrue(t, ctx, "the twin is read", `document.querySelector("`+btn+`")?.textContent === "읽지 않음으로 표시"`)
		if got := evalString(t, ctx, readMarks); got != "2 (읽음)" {
			t.Fatalf("the Korean sidebar marks %q", got)
		}
	})

	t.Run("series page", func(t *testing.T) {
		goTo(t, ctx, base+"/ko/cka/")
		pollTrue(t, ctx, "the count", `document.querySelector(".progress-bar .progress-text")?.textContent === "2편 중 1편 읽음"`)
		if got := evalString(t, ctx, readMarks); got != "2 (읽음)" {
			t.Fatalf("the series page marks %q", got)
		}
		// #5 read in Japanese, to its end: two of two
		goTo(t, ctx, base+"/ja/cka/05-ha-cluster/")
		pollTrue(t, ctx, "the button", `document.querySelector("`+btn+`")?.textContent === "読了にする"`)
		if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(btn))); err != nil {
			t.Fatal(err)
		}
		pollTrue(t, ctx, "read", `document.querySelector("`+btn+`").textContent === "未読に戻す"`)
		goTo(t, ctx, base+"/ja/cka/")
		pollTrue(t, ctx, "the count", `document.querySelector(".progress-bar .progress-text")?.textContent === "全 2 回中 2 回読了"`)
		if got := evalString(t, ctx, readMarks); got != "2 (読了),5 (読了)" {
			t.Fatalf("the series page marks %q", got)
		}
	})

	t.Run("continue", func(t *testing.T) {
		// all read: nothing to continue
		goTo(t, ctx, base+"/ja/")
		if err := chromedp.Do(ctx, chromedp.Sleep(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if got := evalString(t, ctx, `document.querySelector(".progress-continue").textContent`); got != "" {
			t.Fatalf("all read, yet the home page offers %q", got)
		}
		// #2 read and #5 not: continue at #5, the first unread after #2
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`localStorage.setItem("kakehashi-progress:cka", '{"read":[2],"last":2}'), true`)); err != nil {
			t.Fatal(err)
		}
		goTo(t, ctx, base+"/ja/")
		pollTrue(t, ctx, "continue", `document.querySelector(".progress-continue a")`)
		got := evalString(t, ctx, `(a => a.parentNode.textContent + " -> " + a.getAttribute("href"))(document.querySelector(".progress-continue a"))`)
		if !strings.HasPrefix(got, "続きから読む: #5 HA クラスター") || !strings.HasSuffix(got, "ja/cka/05-ha-cluster/") {
			t.Fatalf("continue: %q", got)
		}
		// the last opened, when unread: #2
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`localStorage.setItem("kakehashi-progress:cka", '{"read":[5],"last":2}'), true`)); err != nil {
			t.Fatal(err)
		}
		goTo(t, ctx, base+"/ko/")
		pollTrue(t, ctx, "continue", `document.querySelector(".progress-continue a")`)
		got = evalString(t, ctx, `(a => a.parentNode.textContent + " -> " + a.getAttribute("href"))(document.querySelector(".progress-continue a"))`)
		if !strings.HasPrefix(got, "이어서 읽기: #2 ") || !strings.HasSuffix(got, "ko/cka/02-control-plane/") {
			t.Fatalf("continue: %q", got)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.progress-continue a`)), chromedp.WaitVisible(chromedp.CSS(`.kind-article main h1`))); err != nil {
			t.Fatal(err)
		}
		if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.HasSuffix(loc, "/ko/cka/02-control-plane/") {
			t.Fatalf("continue led to %s", loc)
		}
	})

	t.Run("clear", func(t *testing.T) {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`localStorage.setItem("kakehashi-progress:cka", '{"read":[2,5],"last":5}'), true`)); err != nil {
			t.Fatal(err)
		}
		goTo(t, ctx, base+"/ja/cka/")
		const clear = `.progress-bar button`
		pollTrue(t, ctx, "the clear button", `document.querySelector("`+clear+`")?.textContent === "読了の記録を消す" && !document.querySelector("`+clear+`").hidden`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(clear))); err != nil {
			t.Fatal(err)
		}
		pollTrue(t, ctx, "cleared", `document.querySelector("`+clear+`").textContent === "元に戻す"`)
		if got := evalString(t, ctx, progressState); got != "" {
			t.Fatalf("cleared, yet stored: %q", got)
		}
		if got := evalString(t, ctx, readMarks+` + "|" + document.querySelector(".progress-text").textContent`); got != "|読了の記録を消しました。" {
			t.Fatalf("after clearing: %q", got)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(clear))); err != nil {
			t.Fatal(err)
		}
		pollTrue(t, ctx, "undone", `document.querySelector(".progress-text").textContent === "全 2 回中 2 回読了"`)
		if got := evalString(t, ctx, progressState); got != `{"read":[2,5],"last":5}` {
			t.Fatalf("undone, the state is %q", got)
		}
		if got := evalString(t, ctx, readMarks+` + "|" + document.querySelector("`+clear+`").textContent`); got != "2 (読了),5 (読了)|読了の記録を消す" {
			t.Fatalf("after undoing: %q", got)
		}
		// cleared for good: nothing to clear, nothing on the home page
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(clear))); err != nil {
			t.Fatal(err)
		}
		pollTrue(t, ctx, "cleared", `document.querySelector("`+clear+`").textContent === "元に戻す"`)
		goTo(t, ctx, base+"/ja/cka/")
		pollTrue(t, ctx, "no clear button", `document.querySelector("`+clear+`")?.hidden === true`)
		goTo(t, ctx, base+"/ja/")
		if got := evalString(t, ctx, `document.querySelector(".progress-continue").textContent + document.querySelectorAll("li.read").length`); got != "0" {
			t.Fatalf("after clearing the home page shows %q", got)
		}
	})

	for _, u := range b.Requests() {
		if !strings.HasPrefix(u, base) && !strings.HasPrefix(u, "data:") {
			t.Errorf("a request left the site: %s", u)
		}
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// TestProgressOriginalOnly: in a site whose part 2 is only in Japanese,
// the Korean series page counts it among what a Korean reader can read,
// and marks it read when its Japanese page was.
func TestProgressOriginalOnly(t *testing.T) {
	served, _ := translationCourse(t)
	base := serve(t, served)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	// a short page: its end is in view, it is read at once
	goTo(t, ctx, base+"/ja/cka/02-inside/")
	pollTrue(t, ctx, "read", `localStorage.getItem("kakehashi-progress:cka")?.includes('"read":[2]')`)
	goTo(t, ctx, base+"/ko/cka/")
	pollTrue(t, ctx, "the count", `document.querySelector(".progress-text")?.textContent === "2편 중 1편 읽음"`)
	if got := evalString(t, ctx, readMarks); got != "2 (읽음)" {
		t.Fatalf("the Korean series page marks %q", got)
	}
	// its placeholder page marks it too, and has the pager
	goTo(t, ctx, base+"/ko/cka/02-inside/")
	pollTrue(t, ctx, "marked", `document.querySelector('.series-nav li.read a[aria-current="page"]')`)
	if got := evalString(t, ctx, `document.querySelector(".pager a.prev")?.getAttribute("href") || ""`); !strings.HasSuffix(got, "ko/cka/01-intro/") {
		t.Fatalf("the placeholder's pager leads back to %q", got)
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// TestProgressWithoutScript: with JavaScript off no control, mark, count
// or link of the progress shows, and the lists and the pager work.
func TestProgressWithoutScript(t *testing.T) {
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{DisableJS: true})
	ctx := b.Ctx
	for _, p := range []string{"/ja/", "/ja/cka/", "/ja/cka/02-control-plane/", "/ko/cka/05-ha-cluster/"} {
		goTo(t, ctx, base+p)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[".progress-end", ".progress-bar", ".progress-count", ".progress-continue"].map(s => [...document.querySelectorAll(s)].map(e => e.textContent.trim() + e.children.length).join("")).join("") + "|" + document.querySelectorAll(".read-mark, li.read, .progress-end button, .progress-bar button").length`))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Trim(got, "0") != "|" {
			t.Errorf("%s without JavaScript shows progress: %q", p, got)
		}
		links, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("ol.parts li[data-part] a[href]").length`))
		if err != nil {
			t.Fatal(err)
		}
		if links < 2 {
			t.Errorf("%s lists %d parts", p, links)
		}
	}
}

// TestProgressFromFile opens the offline copy from disk: an article read
// there is marked on the series page when Chromium shares localStorage
// between file:// pages; when it does not, the pages still work and show
// no progress they do not have.
func TestProgressFromFile(t *testing.T) {
	dir := exportedCourse(t)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	goTo(t, ctx, "file://"+filepath.Join(dir, "ja", "cka", "02-control-plane", "index.html"))
	pollTrue(t, ctx, "the button", `document.querySelector(".progress-end button")?.textContent === "読了にする"`)
	// read to its end (a click would scroll there first, and race the
	// end's mark with its own)
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(`.progress-end`))); err != nil {
		t.Fatal(err)
	}
	pollTrue(t, ctx, "read", `document.querySelector(".progress-end button").textContent === "未読に戻す"`)
	origin := evalString(t, ctx, `location.origin`)
	goTo(t, ctx, "file://"+filepath.Join(dir, "ja", "cka", "index.html"))
	if err := chromedp.Do(ctx, chromedp.Sleep(200*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	shared := evalString(t, ctx, progressState) != ""
	t.Logf("file:// origin %q; localStorage shared between file:// pages: %v", origin, shared)
	marks := evalString(t, ctx, readMarks+` + "|" + (document.querySelector(".progress-text")?.textContent || "")`)
	if shared && marks != "2 (読了)|全 2 回中 1 回読了" {
		t.Errorf("shared storage, yet the series page shows %q", marks)
	}
	if !shared && marks != "|" {
		t.Errorf("no shared storage, yet the series page shows %q", marks)
	}
	// the home page's continue link resolves from disk
	goTo(t, ctx, "file://"+filepath.Join(dir, "ja", "index.html"))
	if shared {
		pollTrue(t, ctx, "continue", `document.querySelector(".progress-continue a")`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.progress-continue a`)), chromedp.WaitVisible(chromedp.CSS(`.kind-article main h1`))); err != nil {
			t.Fatal(err)
		}
		if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.HasSuffix(loc, "/ja/cka/05-ha-cluster/index.html") {
			t.Fatalf("continue led to %s", loc)
		}
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// TestProgressNoLayoutShift loads the series page, the home page and a
// short article with progress stored, on a phone's width, a tablet's and
// a wide screen's: the marks, the count, the continue link and the
// buttons fill space kept for them; nothing moves. axe finds nothing on
// the series page with its progress shown.
func TestProgressNoLayoutShift(t *testing.T) {
	c := findCheckers(t)
	axeJS, err := os.ReadFile(c.axe)
	if err != nil {
		t.Fatal(err)
	}
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{Timeout: 3 * time.Minute})
	ctx := b.Ctx
	goTo(t, ctx, base+"/ja/")
	for _, w := range []struct{ width, height int64 }{{360, 740}, {900, 1000}, {1440, 900}} {
		for _, p := range []string{"/ja/cka/", "/ko/cka/", "/ja/", "/ko/", "/ko/cka/02-control-plane/"} {
			t.Run(fmt.Sprint(w.width, p), func(t *testing.T) {
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`localStorage.setItem("kakehashi-progress:cka", '{"read":[2],"last":2}'), true`)); err != nil {
					t.Fatal(err)
				}
				if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.width, w.height)); err != nil {
					t.Fatal(err)
				}
				goTo(t, ctx, base+p)
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](shiftsJS)); err != nil {
					t.Fatal(err)
				}
				pollTrue(t, ctx, "progress shown", `document.querySelector("li.read")`)
				if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
					t.Fatal(err)
				}
				shifts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__shifts`))
				if err != nil {
					t.Fatal(err)
				}
				if len(shifts) > 0 {
					t.Errorf("the page moved after its first paint:\n%s", strings.Join(shifts, "\n"))
				}
				// the continue link and the count stay on their line
				over, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll(".progress-continue, .progress-count, .progress-bar")].filter(e => e.textContent && e.scrollHeight > e.clientHeight + 1).map(e => e.className).join(",")`))
				if err != nil {
					t.Fatal(err)
				}
				if over != "" {
					t.Errorf("overflowing its slot: %s", over)
				}
			})
		}
	}
	t.Run("axe", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 900)); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/ja/cka/", "/ko/", "/ja/cka/02-control-plane/"} {
			goTo(t, ctx, base+p)
			pollTrue(t, ctx, "progress shown", `document.querySelector("li.read")`)
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(axeJS)+"\n;true")); err != nil {
				t.Fatalf("loading axe-core: %v", err)
			}
			raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatalf("axe.run: %v", err)
			}
			var vs []axeViolation
			if err := json.Unmarshal([]byte(raw), &vs); err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				t.Errorf("%s: axe %s (%s), %d nodes", p, v.ID, v.Help, len(v.Nodes))
			}
		}
	})
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}
