package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// shiftsJS records every layout shift since the page started loading
// (buffered) that no input caused, with the elements that moved.
const shiftsJS = `(() => {
	window.__shifts = [];
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) {
			if (e.hadRecentInput) continue;
			const who = (e.sources || []).map((s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?").join(",");
			window.__shifts.push(e.value.toFixed(4) + " " + who);
		}
	}).observe({ type: "layout-shift", buffered: true });
	return true;
})()`

// TestNoLayoutShift loads part 5 on a phone's width, a tablet's and a wide
// screen's and lets its calculators come alive: nothing moves. The table
// of contents is folded on the phone and shown on the others from the
// first paint; a live widget keeps its size. The same in the dark theme
// the reader chose (under the OS's light scheme).
func TestNoLayoutShift(t *testing.T) {
	base := serve(t, builtCourse(t))
	type width struct {
		width, height int64
		tocShown      bool
	}
	for _, theme := range []string{"", "dark"} {
		for _, w := range []width{{360, 740, false}, {900, 1000, true}, {1440, 900, true}} {
			name := fmt.Sprint(w.width)
			if theme != "" {
				name += "-" + theme
			}
			t.Run(name, func(t *testing.T) {
				b := browsertest.New(t, browsertest.Options{})
				ctx := b.Ctx
				if theme != "" {
					emulateScheme(t, ctx, "light")
					storeTheme(t, ctx, base+"/ja/", theme)
				}
				if err := chromedp.Do(ctx,
					chromedp.EmulateViewport(w.width, w.height),
					chromedp.Navigate(base+"/ja/cka/05-ha-cluster/"),
					chromedp.WaitVisible(chromedp.CSS(`main h1`)),
				); err != nil {
					t.Fatal(err)
				}
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](shiftsJS)); err != nil {
					t.Fatal(err)
				}
				if got := evalString(t, ctx, `document.documentElement.getAttribute("data-theme") || ""`); got != theme {
					t.Fatalf("data-theme %q, want %q", got, theme)
				}
				shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
				const d = document.querySelector(".toc details");
				return d.querySelector("nav").checkVisibility() && d.offsetHeight > d.querySelector("summary").offsetHeight * 2;
			})()`))
				if err != nil || shown != w.tocShown {
					t.Errorf("table of contents shown: %v, want %v (%v)", shown, w.tocShown, err)
				}
				// Bring each widget into view, as a reader scrolling would, and
				// wait until all are live.
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { for (const el of document.querySelectorAll("[data-calc]")) el.scrollIntoView(); return true; })()`)); err != nil {
					t.Fatal(err)
				}
				waitReady(t, b, 3)
				if err := chromedp.Do(ctx, chromedp.Sleep(500e6)); err != nil {
					t.Fatal(err)
				}
				shifts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__shifts`))
				if err != nil {
					t.Fatal(err)
				}
				if len(shifts) > 0 {
					t.Errorf("the page moved after its first paint:\n%s", strings.Join(shifts, "\n"))
				}
			})
		}
	}
}
