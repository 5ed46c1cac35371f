package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

var (
	exportOnce sync.Once
	exportDir  string
	exportErr  error
)

// exportedCourse writes the offline copy of the bundled course, as
// kakehashi export does, once per test binary.
func exportedCourse(t *testing.T) string {
	t.Helper()
	exportOnce.Do(func() {
		root, _ := filepath.Abs("../..")
		dir, err := os.MkdirTemp("", "kakehashi-export-")
		if err != nil {
			exportErr = err
			return
		}
		exportDir = filepath.Join(dir, "course")
		b, err := build.New(afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), root)), build.Options{ExplicitIndex: true, WasmRoot: root, WasmCache: filepath.Join(root, ".kakehashi-cache", "wasm")})
		if err != nil {
			exportErr = err
			return
		}
		res, err := b.Build(context.Background())
		if err != nil {
			exportErr = err
			return
		}
		exportErr = output.Publish(context.Background(), afero.NewOsFs(), exportDir, export.Site(res.Site))
	})
	if exportErr != nil {
		t.Fatalf("exporting the bundled course: %v", exportErr)
	}
	return exportDir
}

// TestExportFromFile opens the offline copy straight from disk: the root
// page sends the reader to a language, search finds クォーラム and its
// result's first section leads to its heading in part 5, the language switcher works, and no request
// leaves file://.
func TestExportFromFile(t *testing.T) {
	dir := exportedCourse(t)
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx
	if err := chromedp.Do(ctx,
		chromedp.Navigate("file://"+filepath.Join(dir, "index.html")),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="ja"] main`)),
	); err != nil {
		t.Fatalf("root page did not send the reader to a language: %v", err)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	if !strings.HasSuffix(loc, "/ja/index.html") {
		t.Fatalf("root sent the reader to %s", loc)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#q`)),
		chromedp.SendKeys(chromedp.CSS(`#q`), "クォーラム"),
		chromedp.WaitVisible(chromedp.CSS(`#search-results li a`)),
	); err != nil {
		t.Fatalf("search: %v", err)
	}
	first, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#search-results li a').getAttribute('href')`))
	if !strings.HasSuffix(first, "ja/cka/05-ha-cluster/index.html") {
		t.Fatalf("first result links to %q", first)
	}
	// The results follow the typing: wait for those of the whole word.
	const marks = `[...document.querySelectorAll('#search-results li:first-child mark')].map(m => m.textContent).join(' ')`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](marks+`.includes('クォーラム') || null`)); err != nil {
		marked, _ := chromedp.Run(ctx, chromedp.Evaluate[string](marks))
		t.Errorf("snippet marks %q (%v)", marked, err)
	}
	// The first page's first section leads to its heading, from disk too.
	const section = `#search-results > li:first-child .search-section`
	href, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(a => a ? a.getAttribute('href') : '')(document.querySelector('`+section+`'))`))
	if page, hash, _ := strings.Cut(href, "#"); !strings.HasSuffix(page, "ja/cka/05-ha-cluster/index.html") || hash == "" {
		t.Fatalf("the first result's first section links to %q", href)
	}
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(section))); err != nil {
		t.Fatalf("following the first section result: %v", err)
	}
	checkLanded(t, ctx, href)
	loc, _ = chromedp.Run(ctx, chromedp.Location())
	if page, _, _ := strings.Cut(loc, "#"); !strings.HasSuffix(page, "/ja/cka/05-ha-cluster/index.html") {
		t.Fatalf("following the result landed on %s", loc)
	}
	// The quorum widget works from disk: the module arrives as a script.
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(`[data-calc="quorum"]`))); err != nil {
		t.Fatal(err)
	}
	waitReady(t, b, 3)
	const q = `[data-calc="quorum"] `
	if err := chromedp.Do(ctx, setValue(q+`[name="members"]`, "5"), setValue(q+`[name="failed"]`, "3")); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, q+`[data-out="status"]`, "書き込めません: 5 メンバー中、生存は 2 で")
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`a[hreflang="ko"]`)),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="ko"] main h1`)),
	); err != nil {
		t.Fatalf("language switcher: %v", err)
	}
	loc, _ = chromedp.Run(ctx, chromedp.Location())
	// at the section the reader was at (TestSwitcherKeepsSection)
	if page, _, _ := strings.Cut(loc, "#"); !strings.HasSuffix(page, "/ko/cka/05-ha-cluster/index.html") {
		t.Fatalf("switcher landed on %s", loc)
	}
	reqs := b.Requests()
	if len(reqs) < 5 {
		t.Fatalf("only %d requests seen; is the network domain recording?", len(reqs))
	}
	for _, u := range reqs {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			t.Errorf("a request left file://: %s", u)
		}
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}
