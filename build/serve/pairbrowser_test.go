package serve

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// TestPairViewInBrowser drives headless Chromium as a translator: the
// index of /_pair/ filtered to the stale translations at once, without
// a reload; the stale pair opened from its row; "mark as translated"
// clicked; the pair then current, the file marked on disk.
func TestPairViewInBrowser(t *testing.T) {
	site := sitetest.New(t, pairSite, sitetest.OnDisk())
	root := site.Root()
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
		chromedp.Navigate(base+"/_pair/"),
		chromedp.WaitVisible(chromedp.CSS("tbody tr")),
	); err != nil {
		t.Fatal(err)
	}
	const shown = `[...document.querySelectorAll("tbody tr")].filter(r => !r.hidden).map(r => r.dataset.state + " " + r.querySelector("a").getAttribute("href")).join(", ")`
	if got, err := chromedp.Run(bctx, chromedp.Evaluate[string](shown)); err != nil || strings.Count(got, ",") != 5 {
		t.Fatalf("the index shows %q (%v), want its 6 pairs", got, err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => { window.__marker = 1; return true; })()`)); err != nil {
		t.Fatal(err)
	}

	// The state filter applies at once, and says so in the address.
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`a[data-filter="state"][data-value="stale"]`))); err != nil {
		t.Fatal(err)
	}
	if _, err := poll[bool](bctx, shown+` === "stale /_pair/ko/, stale /_pair/ko/cka/02-inside/" && location.search === "?state=stale" || null`); err != nil {
		got, _ := chromedp.Run(bctx, chromedp.Evaluate[string](shown+` + " at " + location.href`))
		t.Fatalf("after filtering to stale: %s (%v)", got, err)
	}
	for expr, want := range map[string]string{
		`String(window.__marker)`:                                                               "1", // no reload
		`document.querySelector("[data-shown]").textContent`:                                    "2",
		`document.querySelector('a[data-filter="state"][aria-current]').dataset.value`:          "stale",
		`document.querySelector('a[data-filter="lang"][data-value="ko"]').getAttribute("href")`: "/_pair/?state=stale&lang=ko",
		`document.querySelector('a[data-filter="lang"][data-value="ja"] .count').textContent`:   "(0)",
		`document.querySelector('a[data-filter="lang"][data-value="ko"] .count').textContent`:   "(2)",
	} {
		if got, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr)); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", expr, got, err, want)
		}
	}

	// The pair, from its row; marked from its button.
	if err := chromedp.Do(bctx,
		chromedp.Click(chromedp.CSS(`tr[data-state="stale"] a[href="/_pair/ko/cka/02-inside/"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.mark button`)),
	); err != nil {
		t.Fatal(err)
	}
	if got, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.documentElement.lang + " " + document.querySelector('.note[data-lang="ko"]').dataset.state`)); err != nil || got != "ko stale" {
		t.Fatalf("the pair view: %q (%v), want it in Korean, stale", got, err)
	}
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`form.mark button`))); err != nil {
		t.Fatal(err)
	}
	if _, err := poll[bool](bctx, `location.pathname === "/_pair/ko/cka/02-inside/" && document.querySelector('.note[data-lang="ko"][data-state="current"]') && !document.querySelector("form.mark") || null`); err != nil {
		got, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
		t.Fatalf("after marking, not current: %v\n%s", err, got)
	}
	if !strings.Contains(readFile(t, root, ko2), "\ntranslated: ") || strings.Contains(readFile(t, root, ko2), "000000000000") {
		t.Fatalf("the translation is not marked on disk:\n%s", readFile(t, root, ko2))
	}

	// A missing page's scaffold: its copy buttons show with script on.
	if err := chromedp.Do(bctx,
		chromedp.Navigate(base+"/_pair/ko/cka/04-exam/"),
		chromedp.WaitVisible(chromedp.CSS(`button.copy[data-copy="scaffold-text-ko"]`)),
	); err != nil {
		t.Fatalf("the scaffold's copy button: %v", err)
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}
