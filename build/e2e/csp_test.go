package e2e

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// evilServer is another origin, counting the requests it gets; each
// script it serves marks the window it ran in.
func evilServer(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	url := serveHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		fmt.Fprint(w, "window.__pwned = (window.__pwned || 0) + 1;")
	}))
	return url, &hits
}

// withGadgets returns page's HTML as if every way of naming a foreign
// script had slipped into it: a script element, an inline script, an
// event handler, the attributes the theme's scripts once read (on the
// real search box and quorum widget) and a second configuration block in
// the body.
func withGadgets(t *testing.T, page []byte, evil string) []byte {
	t.Helper()
	html := string(page)
	for _, r := range [][2]string{
		{`<div class="search"`, `<div class="search" data-script="` + evil + `/search.js" data-index="` + evil + `/index.js" data-base="` + evil + `/"`},
		{`data-calc="quorum"`, `data-calc="quorum" data-wasm-exec="` + evil + `/exec.js" data-wasm="` + evil + `/calc.wasm" data-wasm-script="` + evil + `/calc.wasm.js"`},
		{`</main>`, `</main><script src="` + evil + `/direct.js"></script><script>window.__inline = 1;</script><img src="nowhere.png" alt="" onerror="window.__handler = 1"><script type="application/json" id="kakehashi-config">{"search":{"script":"` + evil + `/config.js","index":"` + evil + `/config-index.js"}}</script>`},
	} {
		if !strings.Contains(html, r[0]) {
			t.Fatalf("the page has no %s to put a gadget on", r[0])
		}
		html = strings.Replace(html, r[0], r[1], 1)
	}
	return []byte(html)
}

// checkGadgetsBlocked drives the page at url (gadgets in): the site's own
// search and calculators still work, and no foreign script was fetched or
// ran, nor the inline script and the handler.
func checkGadgetsBlocked(t *testing.T, url string, hits *atomic.Int32) {
	t.Helper()
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`main h1`)),
		chromedp.Click(chromedp.CSS(`#q`)),
		chromedp.SendKeys(chromedp.CSS(`#q`), "クォーラム"),
		chromedp.WaitVisible(chromedp.CSS(`#search-results li a`)),
		chromedp.ScrollIntoView(chromedp.CSS(`[data-calc="quorum"]`)),
	); err != nil {
		t.Fatalf("the site's own search: %v\n%s", err, strings.Join(b.Console(), "\n"))
	}
	waitReady(t, b, 3)
	if err := chromedp.Do(ctx, setValue(`[data-calc="quorum"] [name="members"]`, "5")); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, `[data-calc="quorum"] [data-out="quorum"]`, "3")
	ran, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({pwned: window.__pwned || 0, inline: window.__inline || 0, handler: window.__handler || 0})`))
	if err != nil {
		t.Fatal(err)
	}
	if ran != `{"pwned":0,"inline":0,"handler":0}` {
		t.Errorf("foreign code ran: %s", ran)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the other origin was asked for %d files", n)
	}
}

// TestForeignScriptBlocked: even if content found a way to name a foreign
// script (the attributes the theme's scripts read before, a script
// element, an inline script, a handler), none is fetched or runs, over
// HTTP and from file://, while the site's own search and calculators work.
func TestForeignScriptBlocked(t *testing.T) {
	evil, hits := evilServer(t)
	const page = "ja/cka/05-ha-cluster"

	t.Run("http", func(t *testing.T) {
		dir := builtCourse(t)
		src, err := os.ReadFile(filepath.Join(dir, page, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		gadget := withGadgets(t, src, evil)
		files := http.FileServer(http.Dir(dir))
		base := serveHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/"+page+"/gadget.html" {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write(gadget)
				return
			}
			files.ServeHTTP(w, r)
		}))
		checkGadgetsBlocked(t, base+"/"+page+"/gadget.html", hits)
	})

	t.Run("file", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "course")
		if err := copyTree(exportedCourse(t), dir); err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(filepath.Join(dir, page, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, page, "gadget.html"), withGadgets(t, src, evil), 0o644); err != nil {
			t.Fatal(err)
		}
		checkGadgetsBlocked(t, "file://"+filepath.Join(dir, page, "gadget.html"), hits)
	})
}

// copyTree copies the folder from into to.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
