package serve

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// TestLiveReloadInBrowser drives headless Chromium against the server on a
// copy of the bundled course: an appended paragraph appears without
// touching the browser, keeping the scroll position; a stylesheet edit is
// swapped in without a reload; broken front matter shows the overlay with
// file:line:col and the offending line; the fix removes it.
func TestLiveReloadInBrowser(t *testing.T) {
	root := copyCourse(t)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := New(ctx, Options{Root: root})
	must(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	runErr := make(chan error, 1)
	go func() { runErr <- s.Run(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-runErr; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	base := "http://" + ln.Addr().String()

	b := browsertest.New(t, browsertest.Options{})
	bctx := b.Ctx
	if err := chromedp.Do(bctx,
		chromedp.Navigate(base+"/ja/cka/05-ha-cluster/"),
		chromedp.WaitVisible(chromedp.CSS("main h1")),
	); err != nil {
		t.Fatal(err)
	}
	// Wait for the event stream to be open, then scroll down and mark the
	// page so a reload can be told from a stylesheet swap.
	if _, err := poll[bool](bctx, `window.__kakehashiLive || null`); err != nil {
		t.Fatalf("live.js did not start: %v", err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => { window.scrollTo(0, 900); window.__marker = 1; return true; })()`)); err != nil {
		t.Fatal(err)
	}
	waitStreams(t, s, 1)

	// A stylesheet edit is swapped in: the style applies, the page stays.
	appendFile(t, root, "themes/default/static/css/main.css", "\nbody { outline: 3px solid rgb(1, 2, 3); }\n")
	if _, err := poll[bool](bctx, `getComputedStyle(document.body).outlineColor === "rgb(1, 2, 3)" || null`); err != nil {
		t.Fatalf("the stylesheet edit did not show: %v", err)
	}
	if m, err := chromedp.Run(bctx, chromedp.Evaluate[int](`window.__marker || 0`)); err != nil || m != 1 {
		t.Fatalf("a stylesheet edit reloaded the page (%v)", err)
	}

	// An appended paragraph appears by itself, and the reader still sees
	// what they were reading: the first block at the top of the window
	// stays where it was. (The scroll offset itself may move: when a
	// widget above finishes loading after the reload, the browser keeps
	// the visible text in place by scrolling.)
	const topBlock = `(() => {
		const els = [...document.querySelectorAll("main :is(h2, h3, p, li, pre, table)")];
		const i = els.findIndex(e => e.getBoundingClientRect().top >= 0);
		return [i, Math.round(els[i].getBoundingClientRect().top)];
	})()`
	before, err := chromedp.Run(bctx, chromedp.Evaluate[[]int](topBlock))
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, root, article, "\nブラウザーで見える新しい段落 LIVE-PARAGRAPH です。\n")
	if _, err := poll[bool](bctx, `document.querySelector("main").textContent.includes("LIVE-PARAGRAPH") || null`); err != nil {
		t.Fatalf("the new paragraph did not appear: %v", err)
	}
	if m, err := chromedp.Run(bctx, chromedp.Evaluate[int](`window.__marker || 0`)); err != nil || m != 0 {
		t.Fatalf("the page was not reloaded (%v)", err)
	}
	// The reloaded page settles over a few frames (the position is
	// restored, then widgets and fonts above may load): look for up to
	// five seconds for the block to be back where it was.
	where := fmt.Sprintf(`(() => {
		const e = [...document.querySelectorAll("main :is(h2, h3, p, li, pre, table)")][%d];
		return [window.scrollY, Math.round(e.getBoundingClientRect().top)];
	})()`, before[0])
	var after []int
	for range 50 {
		after, err = chromedp.Run(bctx, chromedp.Evaluate[[]int](where))
		if err == nil && len(after) == 2 && after[0] >= 450 && after[1] >= before[1]-50 && after[1] <= before[1]+50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil || len(after) != 2 || after[0] < 450 || after[1] < before[1]-50 || after[1] > before[1]+50 {
		t.Fatalf("after the reload: scrolled to %v, block %d at %v (%v); before: at %d px, scrolled to 900",
			after, before[0], after, err, before[1])
	}

	// Broken front matter: the overlay names file:line:col and marks the
	// line; the last good page stays.
	good, err := os.ReadFile(filepath.Join(root, article))
	must(t, err)
	broken := bytes.Replace(good, []byte("part: 5\n"), []byte("part: [5\n"), 1)
	must(t, os.WriteFile(filepath.Join(root, article), broken, 0o644))
	const overlay = `document.querySelector("#kakehashi-overlay")`
	text, err := poll[string](bctx, overlay+` && `+overlay+`.shadowRoot.textContent || null`)
	if err != nil {
		t.Fatalf("no overlay after breaking the front matter: %v", err)
	}
	errs := s.Errors()
	if len(errs) == 0 {
		t.Fatal("the server has no errors")
	}
	loc := errs[0].Header()[:strings.Index(errs[0].Header(), ": ")]
	if !strings.HasPrefix(loc, article+":") || !strings.Contains(text, loc) || !strings.Contains(text, errs[0].Msg) {
		t.Fatalf("overlay %q, want %s and %q", text, loc, errs[0].Msg)
	}
	role, err := chromedp.Run(bctx, chromedp.Evaluate[string](overlay+`.shadowRoot.querySelector("[role=alertdialog]") ? "alertdialog" : ""`))
	if err != nil || role != "alertdialog" {
		t.Fatalf("overlay has no alertdialog (%v)", err)
	}
	bad, err := chromedp.Run(bctx, chromedp.Evaluate[string](overlay+`.shadowRoot.querySelector(".line.bad").textContent`))
	if err != nil || !strings.Contains(bad, fmt.Sprintf("%d | %s", errs[0].Line, errs[0].Source)) {
		t.Fatalf("marked line %q (%v), want line %d: %q", bad, err, errs[0].Line, errs[0].Source)
	}
	focus, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.activeElement === document.body || document.activeElement === null`))
	if err != nil || !focus {
		t.Fatalf("the overlay took the focus (%v)", err)
	}
	if still, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.querySelector("main").textContent.includes("LIVE-PARAGRAPH")`)); err != nil || !still {
		t.Fatalf("the last good page is gone (%v)", err)
	}

	// The fix: the overlay goes and the fixed text shows.
	must(t, os.WriteFile(filepath.Join(root, article), bytes.Replace(good, []byte("LIVE-PARAGRAPH"), []byte("FIXED-PARAGRAPH"), 1), 0o644))
	if _, err := poll[bool](bctx, `(!document.querySelector("#kakehashi-overlay") && document.querySelector("main").textContent.includes("FIXED-PARAGRAPH")) || null`); err != nil {
		t.Fatalf("the overlay did not go after the fix: %v", err)
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// poll evaluates expr until it is truthy, across the page reloads that
// interrupt an evaluation.
func poll[T any](ctx context.Context, expr string) (T, error) {
	var err error
	for range 20 {
		var v T
		v, err = chromedp.Run(ctx, chromedp.Poll[T](expr))
		if err == nil {
			return v, nil
		}
		if ctx.Err() != nil || !strings.Contains(err.Error(), "navigated") && !strings.Contains(err.Error(), "context") {
			break
		}
	}
	var zero T
	return zero, err
}

// waitStreams waits until n event streams are connected: an edit made
// before the browser listens would otherwise pass unseen.
func waitStreams(t *testing.T, s *Server, n int) {
	t.Helper()
	for range 3000 {
		if s.hub.count() >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%d event streams connected, want %d", s.hub.count(), n)
}
