package serve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/serve/watch"
)

// answered is one request as the server answered it.
type answered struct {
	Host, Path, Origin, FetchSite string
	Status                        int
}

// requestLog records what a handler answered.
type requestLog struct {
	mu   sync.Mutex
	seen []answered
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var once sync.Once
		record := func(status int) {
			once.Do(func() {
				l.mu.Lock()
				defer l.mu.Unlock()
				l.seen = append(l.seen, answered{r.Host, r.URL.Path, r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site"), status})
			})
		}
		h.ServeHTTP(&statusWriter{ResponseWriter: w, record: record}, r)
		record(http.StatusOK)
	})
}

// find returns the requests for path whose Host is host.
func (l *requestLog) find(host, path string) []answered {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []answered
	for _, s := range l.seen {
		if s.Host == host && s.Path == path {
			out = append(out, s)
		}
	}
	return out
}

// statusWriter records the status as the handler writes it (an event
// stream is answered long before it ends); it streams as the writer it
// wraps does.
type statusWriter struct {
	http.ResponseWriter
	record func(status int)
}

func (w *statusWriter) WriteHeader(code int) {
	w.record(code)
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.record(http.StatusOK)
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// otherOriginPage is a page of another site that tries to read the
// authoring server at %[1]s: the search index as a script, a page with
// fetch, the event stream.
const otherOriginPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>another site</title></head>
<body><p>another site</p>
<script>
window.results = {};
const dev = %[1]q;
const s = document.createElement("script");
s.src = dev + "/ja/search-index.js";
s.onload = () => { results.script = globalThis.kakehashiSearch ? "read" : "loaded"; };
s.onerror = () => { results.script = "blocked"; };
document.head.append(s);
fetch(dev + "/ja/cka/05-ha-cluster/").then(r => r.text()).then(t => { results.fetch = "read " + t.length; }, () => { results.fetch = "blocked"; });
const es = new EventSource(dev + "/_kakehashi/events");
es.addEventListener("ok", () => { results.events = "read"; es.close(); });
es.onerror = () => { results.events = "blocked"; es.close(); };
</script>
</body></html>
`

// TestOtherOriginsInBrowser drives headless Chromium: the server's own
// pages, under 127.0.0.1 and localhost, load with their search and
// calculators and live-reload; a page of another origin (another port)
// cannot read the search index as a script, a page, or the event stream;
// and a name of another site resolving to this machine (evil.localhost,
// which Chromium resolves to the loopback address: DNS rebinding) gets
// 403 for everything.
func TestOtherOriginsInBrowser(t *testing.T) {
	root := copyCourse(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := New(ctx, Options{Root: root, Watch: watch.Options{Quiet: 30 * time.Millisecond},
		Build: build.Options{WasmRoot: root, WasmCache: filepath.Join(os.TempDir(), "kakehashi-calc-wasm-cache")}})
	must(t, err)
	if errs := s.Errors(); errs != nil {
		t.Fatalf("the bundled course does not build:\n%v", errs)
	}
	var reqs requestLog
	ts := httptest.NewServer(reqs.wrap(s))
	t.Cleanup(func() { s.Close(); ts.Close() })
	startWatch(t, s)
	port := strconv.Itoa(ts.Listener.Addr().(*net.TCPAddr).Port)
	own := "127.0.0.1:" + port
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, otherOriginPage, ts.URL)
	}))
	defer other.Close()

	b := browsertest.New(t, browsertest.Options{Timeout: 120 * time.Second})
	bctx := b.Ctx

	// The server's own page: live reload connects, search finds, the
	// calculators run.
	if err := chromedp.Do(bctx,
		chromedp.Navigate(ts.URL+"/ja/cka/05-ha-cluster/"),
		chromedp.WaitVisible(chromedp.CSS("main h1")),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := poll[bool](bctx, `window.__kakehashiLive || null`); err != nil {
		t.Fatalf("live.js did not start: %v", err)
	}
	waitStreams(t, s, 1)
	streams := reqs.find(own, "/_kakehashi/events")
	if len(streams) == 0 || streams[0].Status != 200 {
		t.Fatalf("the page's own event stream: %+v", streams)
	}
	t.Logf("Chromium's own EventSource request: Origin %q, Sec-Fetch-Site %q", streams[0].Origin, streams[0].FetchSite)
	if err := chromedp.Do(bctx, chromedp.SendKeys(chromedp.CSS(`.search input[role=combobox]`), "クォーラム")); err != nil {
		t.Fatal(err)
	}
	if _, err := poll[bool](bctx, `document.querySelectorAll('.search [role=listbox] [role=option]').length > 0 || null`); err != nil {
		t.Fatalf("search found nothing: %v\n%s", err, strings.Join(b.Console(), "\n"))
	}
	// A reader reaching for a calculator starts it.
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => {
		const w = document.querySelector("[data-calc]");
		w.scrollIntoView();
		w.dispatchEvent(new PointerEvent("pointerover"));
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	if _, err := poll[bool](bctx, `document.querySelector('[data-calc][data-ready]') ? document.querySelector('[data-calc]').dataset.ready === "true" : null`); err != nil {
		t.Fatalf("no calculator became ready: %v\n%s", err, strings.Join(b.Console(), "\n"))
	}
	appendFile(t, root, article, "\nブラウザーで見える新しい段落 ORIGIN-LIVE です。\n")
	if _, err := poll[bool](bctx, `document.querySelector("main").textContent.includes("ORIGIN-LIVE") || null`); err != nil {
		t.Fatalf("the page did not live-reload: %v", err)
	}
	// Under localhost too.
	if err := chromedp.Do(bctx,
		chromedp.Navigate("http://localhost:"+port+"/ko/cka/05-ha-cluster/"),
		chromedp.WaitVisible(chromedp.CSS("main h1")),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := poll[bool](bctx, `window.__kakehashiLive || null`); err != nil {
		t.Fatalf("live.js did not start under localhost: %v", err)
	}
	waitStreams(t, s, 1)
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors on the server's own pages:\n%s", strings.Join(c, "\n"))
	}

	// A page of another origin reads nothing.
	if err := chromedp.Do(bctx, chromedp.Navigate(other.URL+"/")); err != nil {
		t.Fatal(err)
	}
	got, err := poll[map[string]string](bctx, `(results.script && results.fetch && results.events) ? results : null`)
	if err != nil {
		t.Fatal(err)
	}
	if got["script"] != "blocked" || got["fetch"] != "blocked" || got["events"] != "blocked" {
		t.Errorf("a page of another origin: %v, want every read blocked", got)
	}
	otherOrigin := strings.TrimSuffix(other.URL, "/")
	for _, r := range reqs.find(own, "/_kakehashi/events") {
		if r.Origin == otherOrigin && r.Status != 403 {
			t.Errorf("the event stream for %s: %d, want 403", otherOrigin, r.Status)
		}
	}
	if len(reqs.find(own, "/ja/search-index.js")) == 0 {
		t.Error("the other origin's script never asked for the search index")
	}

	// A name of another site that resolves to this machine: 403, for the
	// page, its scripts and the event stream.
	evil := "evil.localhost:" + port
	if err := chromedp.Do(bctx, chromedp.Navigate("http://"+evil+"/ja/cka/05-ha-cluster/")); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil || !strings.Contains(text, "403 Forbidden") || !strings.Contains(text, "--allowed-host evil.localhost") {
		t.Fatalf("the page under %s: %q (%v), want the 403", evil, truncate(text, 200), err)
	}
	status, err := chromedp.Run(bctx, chromedp.Evaluate[int](`fetch("/ja/search-index.js").then(r => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != 403 {
		t.Errorf("the search index under %s: %d (%v), want 403", evil, status, err)
	}
	events, err := chromedp.Run(bctx, chromedp.Evaluate[string](`new Promise(done => {
		const es = new EventSource("/_kakehashi/events");
		es.addEventListener("ok", () => { es.close(); done("read"); });
		es.onerror = () => { es.close(); done("blocked"); };
	})`, chromedp.EvalAwaitPromise))
	if err != nil || events != "blocked" {
		t.Errorf("the event stream under %s: %q (%v), want blocked", evil, events, err)
	}
	for _, p := range []string{"/ja/cka/05-ha-cluster/", "/ja/search-index.js", "/_kakehashi/events"} {
		rs := reqs.find(evil, p)
		if len(rs) == 0 {
			t.Errorf("%s%s: never asked", evil, p)
		}
		for _, r := range rs {
			if r.Status != 403 {
				t.Errorf("%s%s: %d, want 403", evil, p, r.Status)
			}
		}
	}
}
