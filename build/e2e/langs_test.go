package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// threeLangsSite builds build/testdata/sites/three-langs.txtar, a course
// in Japanese, Korean and English, into a folder (an export for file://
// when offline).
func threeLangsSite(t *testing.T, offline bool) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "sites", "three-langs.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	in := afero.NewMemMapFs()
	for _, f := range txtar.Parse(src).Files {
		if err := afero.WriteFile(in, f.Name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := build.New(in, build.Options{ExplicitIndex: offline})
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	st := res.Site
	if offline {
		st = export.Site(st)
	}
	if err := output.Publish(context.Background(), afero.NewOsFs(), dir, st); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRootLanguageChoice: the root page sends the reader to the first of
// the browser's languages the site has, by its tag or its primary
// language, else to the site's first; a third language is one of them,
// served and from file://. Its switcher then leads to the other two.
func TestRootLanguageChoice(t *testing.T) {
	served := serve(t, threeLangsSite(t, false))
	offline := "file://" + threeLangsSite(t, true)
	for _, tc := range []struct {
		name, root string
		file       bool
	}{{"served", served + "/", false}, {"file", offline + "/index.html", true}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				browser []string
				want    string
			}{
				{[]string{"en-GB", "ja"}, "en"},
				{[]string{"ko-KR", "en"}, "ko"},
				{[]string{"fr-FR", "ko"}, "ko"},
				{[]string{"fr-FR", "de"}, "ja"},
			} {
				b := browsertest.New(t, browsertest.Options{})
				langs := `["` + strings.Join(c.browser, `","`) + `"]`
				if _, err := chromedp.Call(b.Ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
					Source: `Object.defineProperty(navigator, "languages", {get: () => ` + langs + `}); Object.defineProperty(navigator, "language", {get: () => ` + langs + `[0]});`,
				}); err != nil {
					t.Fatal(err)
				}
				run(t, b.Ctx, chromedp.Navigate(tc.root), chromedp.WaitVisible(chromedp.CSS(`html[lang="`+c.want+`"] main h1`)))
				if u := evalString(t, b.Ctx, `location.pathname`); !strings.Contains(u, "/"+c.want+"/") {
					t.Errorf("browser %v: the root page led to %s, want /%s/", c.browser, u, c.want)
				}
				if c.want == "en" {
					// The switcher of an English article leads to the
					// Korean one.
					ext := map[bool]string{true: "index.html"}[tc.file]
					base := strings.TrimSuffix(strings.TrimSuffix(tc.root, "index.html"), "/")
					run(t, b.Ctx, chromedp.Navigate(base+"/en/cka/01-intro/"+ext), chromedp.WaitVisible(chromedp.CSS(`html[lang="en"] main h1`)),
						chromedp.Click(chromedp.CSS(`.lang-switch a[hreflang="ko"]`)),
						chromedp.WaitVisible(chromedp.CSS(`html[lang="ko"] main h1`)))
					if h1 := evalString(t, b.Ctx, `document.querySelector("main h1").textContent`); h1 != "소개" {
						t.Errorf("the switcher led to %q, want 소개", h1)
					}
				}
				if cs := b.Console(); len(cs) > 0 {
					t.Fatalf("console errors:\n%s", strings.Join(cs, "\n"))
				}
			}
		})
	}
}
