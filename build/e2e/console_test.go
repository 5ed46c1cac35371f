package e2e

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// TestExportNoConsoleErrors opens every page of the offline copy from
// file:// and waits for it to load and for its calculators to settle
// (started at once by a pointer over the first one): no page logs a
// console error, throws, has the browser log an error (a refused fetch,
// a CORS error) or fails a request.
func TestExportNoConsoleErrors(t *testing.T) {
	dir := exportedCourse(t)
	var pages []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			pages = append(pages, p)
		}
		return nil
	})
	if len(pages) < 10 {
		t.Fatalf("only %d pages exported", len(pages))
	}
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	var mu sync.Mutex
	var logged []string // the browser's own errors and failed requests
	chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *log.EventEntryAdded:
			if e.Entry != nil && e.Entry.Level == log.EntryLevelError {
				logged = append(logged, fmt.Sprintf("log %s: %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
			}
		case *network.EventLoadingFailed:
			logged = append(logged, fmt.Sprintf("request failed: %s %s", e.ErrorText, e.BlockedReason))
		}
	})
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	calcPages := 0
	seen, seenLog := 0, 0
	for _, p := range pages {
		rel, _ := filepath.Rel(dir, p)
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+p)); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === "complete" || null`)); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		widgets, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => {
			const w = document.querySelectorAll("[data-calc]");
			if (w.length) w[0].dispatchEvent(new PointerEvent("pointerover", { bubbles: true }));
			return w.length;
		})()`))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if widgets > 0 {
			calcPages++
			// Settled: every widget ready, or marked not ready.
			settled := `[...document.querySelectorAll("[data-calc]")].every(e => e.dataset.ready) || null`
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](settled)); err != nil {
				t.Fatalf("%s: the calculators did not settle: %v", rel, err)
			}
			notReady, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("[data-calc]")].filter(e => e.dataset.ready !== "true").map(e => e.id).join(" ")`))
			if notReady != "" {
				t.Errorf("%s: calculators not ready from file://: %s", rel, notReady)
			}
		}
		console := b.Console()
		for _, c := range console[seen:] {
			t.Errorf("%s: %s", rel, c)
		}
		seen = len(console)
		mu.Lock()
		for _, l := range logged[seenLog:] {
			t.Errorf("%s: %s", rel, l)
		}
		seenLog = len(logged)
		mu.Unlock()
	}
	if calcPages == 0 {
		t.Error("no exported page holds a calculator")
	}
	t.Logf("%d pages, %d with calculators", len(pages), calcPages)
}
