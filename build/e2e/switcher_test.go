package e2e

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
)

// TestSwitcherKeepsSection: a reader of part #5 in Japanese who switches
// to Korean lands at the same section, whether the section is in the
// address (a link to it) or merely scrolled to, served and from file://.
func TestSwitcherKeepsSection(t *testing.T) {
	served := serve(t, builtCourse(t)) + "/ja/cka/05-ha-cluster/"
	offline := "file://" + filepath.Join(exportedCourse(t), "ja", "cka", "05-ha-cluster", "index.html")
	for _, tt := range []struct{ name, page string }{{"served", served}, {"file", offline}} {
		t.Run(tt.name, func(t *testing.T) {
			b := browsertest.New(t, browsertest.Options{})
			// In the address: the quorum section, the 6th h2 of both.
			switchAt(t, b.Ctx, tt.page+"#"+url.PathEscape("etcd-クォーラムと耐障害性"), "", "etcd-쿼럼과-내결함성")
			// Scrolled to, with no fragment: the Korean twin of an h3.
			switchAt(t, b.Ctx, tt.page, "etcd-メンバーの確認", "etcd-멤버-확인")
			// At the top: the Korean page, at its top.
			switchAt(t, b.Ctx, tt.page, "", "")
			if c := b.Console(); len(c) > 0 {
				t.Fatalf("console errors:\n%s", strings.Join(c, "\n"))
			}
		})
	}
}

// switchAt opens page, scrolls to the heading scrollTo when given and
// waits there, follows
// the Korean link of the switcher and checks the fragment it lands on and
// that the Korean section is on screen.
func switchAt(t *testing.T, ctx context.Context, page, scrollTo, want string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`html[lang="ja"] main h1`))); err != nil {
		t.Fatal(err)
	}
	if scrollTo != "" {
		// The reader settles there, then goes back up to the switcher
		// (the click scrolls it into view).
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.getElementById(`+quoteJS(scrollTo)+`).scrollIntoView(), true)`)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`.lang-switch a[hreflang="ko"]`)),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="ko"] main h1`)),
	); err != nil {
		t.Fatalf("switching from %s: %v", page, err)
	}
	hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`decodeURIComponent(location.hash.slice(1))`))
	if err != nil {
		t.Fatal(err)
	}
	if hash != want {
		t.Fatalf("from %s (at %q) the switcher landed at #%s, want #%s", page, scrollTo, hash, want)
	}
	if want == "" {
		return
	}
	top, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.getElementById(`+quoteJS(want)+`).getBoundingClientRect().top`))
	if err != nil || top < -1 || top > 200 {
		t.Fatalf("the Korean section is not on screen: top %v (%v)", top, err)
	}
}
