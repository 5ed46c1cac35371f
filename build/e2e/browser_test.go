package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// TestArticleInBrowser opens an article of the bundled course in headless
// Chromium: it loads with no console error, the copy button hands the
// clipboard a command without its prompt or output, and the language
// switcher lands on the same article in Korean.
func TestArticleInBrowser(t *testing.T) {
	base := serve(t, builtCourse(t))
	b := browsertest.New(t, browsertest.Options{})
	ctx := b.Ctx

	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/ja/cka/05-ha-cluster/"),
		chromedp.WaitVisible(chromedp.CSS(`main h1`)),
	); err != nil {
		t.Fatal(err)
	}
	lang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
	if err != nil || lang != "ja" {
		t.Fatalf("html lang %q (%v)", lang, err)
	}
	title, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`main h1`)))
	if err != nil || !strings.Contains(title, "HA クラスター") {
		t.Fatalf("title %q (%v)", title, err)
	}

	// Record what the page hands the clipboard, then press the copy button
	// of the "k get nodes" session.
	const btn = `figure.code[data-lang="console"] .code-copy`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		window.__copied = [];
		navigator.clipboard.writeText = (s) => { window.__copied.push(s); return Promise.resolve(); };
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(btn))); err != nil {
		t.Fatalf("copy button: %v", err)
	}
	copied, err := chromedp.Run(ctx, chromedp.Poll[[]string](`window.__copied.length ? window.__copied : null`))
	if err != nil {
		t.Fatalf("nothing copied: %v", err)
	}
	if len(copied) != 1 || copied[0] != "k get nodes" {
		t.Fatalf("copied %q, want the command without its prompt and output", copied)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('`+btn+`').textContent.includes('コピーしました') || null`)); err != nil {
		t.Fatalf("the button does not confirm the copy: %v", err)
	}

	// The language switcher lands on the same article in Korean.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`a[hreflang="ko"]`)),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="ko"] main h1`)),
	); err != nil {
		t.Fatalf("language switcher: %v", err)
	}
	url, _ := chromedp.Run(ctx, chromedp.Location())
	title, _ = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`main h1`)))
	// (At the section read: the header, and the switcher, stay in view.)
	if page, _, _ := strings.Cut(url, "#"); !strings.HasSuffix(page, "/ko/cka/05-ha-cluster/") || !strings.Contains(title, "HA 클러스터") {
		t.Fatalf("switcher landed on %s (%q)", url, title)
	}
	if c := b.Console(); len(c) > 0 {
		t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
	}
}
