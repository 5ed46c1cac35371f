package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// validateDir holds the package.json of the checkers: the Nu HTML checker
// (vnu-jar) and axe-core, installed by `npm ci --ignore-scripts` there.
const validateDir = "../internal/validate"

type checkers struct {
	java, vnu, axe string
}

// findCheckers returns java, vnu.jar and axe.min.js. Without them the test
// is skipped, except under CI=true, where it fails.
func findCheckers(t *testing.T) checkers {
	t.Helper()
	var c checkers
	var missing []string
	if p, err := exec.LookPath("java"); err == nil {
		c.java = p
	} else {
		missing = append(missing, "java (a JRE 17 or later)")
	}
	dir, _ := filepath.Abs(validateDir)
	c.vnu = filepath.Join(dir, "node_modules", "vnu-jar", "build", "dist", "vnu.jar")
	c.axe = filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
	for _, f := range []string{c.vnu, c.axe} {
		if _, err := os.Stat(f); err != nil {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		msg := "missing " + strings.Join(missing, ", ") + ": install a JRE and run `npm ci --ignore-scripts` in build/internal/validate (make test does)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; the checkers are required under CI=true")
		}
		t.Skip(msg)
	}
	return c
}

// translationCourse builds translationSite (a stale translation and an
// article not translated yet), served and exported.
func translationCourse(t *testing.T) (served, offline string) {
	t.Helper()
	in := afero.NewMemMapFs()
	for _, f := range txtar.Parse([]byte(translationSite)).Files {
		if err := afero.WriteFile(in, f.Name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return buildTo(t, in, false), buildTo(t, in, true)
}

type vnuMessage struct {
	Type        string `json:"type"`
	SubType     string `json:"subType"`
	URL         string `json:"url"`
	FirstLine   int    `json:"firstLine"`
	LastLine    int    `json:"lastLine"`
	FirstColumn int    `json:"firstColumn"`
	LastColumn  int    `json:"lastColumn"`
	Message     string `json:"message"`
	Extract     string `json:"extract"`
}

// TestHTMLValid runs the Nu HTML checker, once, over every HTML page and
// stylesheet of the bundled course built with a base URL and exported for
// file://, and of a site with a stale and a missing translation, and over
// the theme's stylesheets as written (before minification): no error.
func TestHTMLValid(t *testing.T) {
	c := findCheckers(t)
	served, offline := translationCourse(t)
	roots := map[string]string{
		builtCourse(t):                    "build",
		exportedCourse(t):                 "export",
		served:                            "translations",
		offline:                           "translations-export",
		"../../themes/default/static/css": "theme source",
	}
	var files []string
	pages, sheets := 0, 0
	for dir := range roots {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(p) {
			case ".html":
				pages++
			case ".css":
				sheets++
			default:
				return nil
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	args := append([]string{"-jar", c.vnu, "--errors-only", "--also-check-css", "--format", "json", "--stdout"}, files...)
	cmd := exec.Command(c.java, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output() // exits 1 when it reports errors
	var res struct {
		Messages []vnuMessage `json:"messages"`
	}
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		t.Fatalf("vnu: %v (%v)\n%s\n%s", err, jerr, out, stderr.String())
	}
	// The same message on many pages is one problem: report it once, with
	// where it was seen.
	where := map[string][]string{}
	var order []string
	for _, m := range res.Messages {
		if m.Type != "error" && m.Type != "non-document-error" {
			continue
		}
		file := strings.TrimPrefix(m.URL, "file:")
		for dir, name := range roots {
			if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
				file = name + ":" + filepath.ToSlash(rel)
			}
		}
		key := m.Message
		if m.Extract != "" {
			key += "\n        at: " + strings.TrimSpace(m.Extract)
		}
		if where[key] == nil {
			order = append(order, key)
		}
		where[key] = append(where[key], fmt.Sprintf("%s:%d.%d", file, m.LastLine, m.FirstColumn))
	}
	for _, key := range order {
		w := where[key]
		more := ""
		if len(w) > 3 {
			more = fmt.Sprintf(" and %d more", len(w)-3)
			w = w[:3]
		}
		t.Errorf("vnu: %s\n        in %s%s", key, strings.Join(w, ", "), more)
	}
	t.Logf("vnu checked %d pages and %d stylesheets: %d errors", pages, sheets, len(res.Messages))
}

// axeViolations is what axe.run reports, trimmed to what a failure shows.
type axeViolation struct {
	ID    string `json:"id"`
	Help  string `json:"help"`
	Nodes []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// TestAccessibility runs axe-core in headless Chromium over each kind of
// page, in both languages, light and dark: home, series, both articles
// (the calculators' part #2 and the diagram's part #5), tags, a tag, the
// 404 page, the root page, a stale translation and the page of an article
// not translated yet; and over the search box with its results open.
func TestAccessibility(t *testing.T) {
	c := findCheckers(t)
	axeJS, err := os.ReadFile(c.axe)
	if err != nil {
		t.Fatal(err)
	}
	var withoutScript atomic.Bool
	course := serveCourseAtItsURL(t, &withoutScript)
	served, _ := translationCourse(t)
	trans := serve(t, served)
	type page struct{ name, url string }
	pages := []page{
		{"root", course + "/"},
		{"404", course + "/404.html"},
	}
	for _, l := range []string{"ja", "ko"} {
		pages = append(pages,
			page{l + "-home", course + "/" + l + "/"},
			page{l + "-series", course + "/" + l + "/cka/"},
			page{l + "-article-2", course + "/" + l + "/cka/02-control-plane/"},
			page{l + "-article-5", course + "/" + l + "/cka/05-ha-cluster/"},
			page{l + "-tags", course + "/" + l + "/tags/"},
			page{l + "-tag", course + "/" + l + "/tags/cka/"},
		)
	}
	pages = append(pages,
		page{"ko-stale-translation", trans + "/ko/cka/01-intro/"},
		page{"ko-missing-translation", trans + "/ko/cka/02-inside/"},
	)

	b := browsertest.New(t, browsertest.Options{Timeout: 5 * time.Minute})
	ctx := b.Ctx
	audit := func(t *testing.T) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(axeJS)+"\n;true")); err != nil {
			t.Fatalf("loading axe-core: %v", err)
		}
		actx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		raw, err := chromedp.Run(actx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("axe.run: %v", err)
		}
		var vs []axeViolation
		if err := json.Unmarshal([]byte(raw), &vs); err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			var nodes []string
			for i, n := range v.Nodes {
				if i == 5 {
					nodes = append(nodes, fmt.Sprintf("… and %d more", len(v.Nodes)-5))
					break
				}
				nodes = append(nodes, fmt.Sprintf("%v: %s", n.Target, strings.ReplaceAll(n.Summary, "\n", " ")))
			}
			t.Errorf("axe %s (%s), %d nodes:\n        %s", v.ID, v.Help, len(v.Nodes), strings.Join(nodes, "\n        "))
		}
	}
	// Auto under the OS's light and dark schemes, every page; the theme
	// the reader chose against the OS's, on a page of each kind.
	chosen := []page{}
	for _, p := range pages {
		switch p.name {
		case "404", "ja-home", "ja-series", "ja-article-5", "ko-article-2", "ja-tag", "ko-stale-translation", "ko-missing-translation":
			chosen = append(chosen, p)
		}
	}
	for _, mode := range []struct {
		name, scheme, stored string
		pages                []page
	}{{"light", "light", "", pages}, {"dark", "dark", "", pages}, {"chosen-dark", "light", "dark", chosen}, {"chosen-light", "dark", "light", chosen}} {
		scheme := mode.scheme
		t.Run(mode.name, func(t *testing.T) {
			if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
			}); err != nil {
				t.Fatal(err)
			}
			for _, origin := range []string{course, trans} {
				storeTheme(t, ctx, origin+"/ja/", mode.stored)
			}
			for _, p := range mode.pages {
				t.Run(p.name, func(t *testing.T) {
					// The root page sends a reader with JavaScript on to a
					// language: audit it as it stands, without its script.
					withoutScript.Store(p.name == "root")
					if err := chromedp.Do(ctx, chromedp.Navigate(p.url), chromedp.WaitVisible(chromedp.CSS(`main h1`))); err != nil {
						t.Fatal(err)
					}
					if loc, _ := chromedp.Run(ctx, chromedp.Location()); loc != p.url {
						t.Fatalf("%s went on to %s", p.url, loc)
					}
					// The calculators become interactive once scrolled to:
					// audit them ready.
					if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(() => {
						if (document.readyState !== "complete") return null;
						const w = [...document.querySelectorAll("[data-calc]")].find(e => e.dataset.ready !== "true");
						if (!w) { window.scrollTo(0, 0); return true; }
						w.scrollIntoView();
						return null;
					})()`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
						got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("[data-calc]")].map(e => e.id + "=" + e.dataset.ready).join(" ")`))
						t.Fatalf("the page's calculators never became ready: %s (%v)\n%s", got, err, strings.Join(b.Console(), "\n"))
					}
					dark, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`matchMedia("(prefers-color-scheme: dark)").matches`))
					if dark != (scheme == "dark") {
						t.Fatalf("prefers-color-scheme: dark is %v", dark)
					}
					if got := evalString(t, ctx, `document.documentElement.getAttribute("data-theme") || ""`); got != mode.stored {
						t.Fatalf("data-theme %q, want %q", got, mode.stored)
					}
					audit(t)
				})
			}
			// The search box with its results open (search.css loaded) and a
			// section chosen.
			t.Run("ja-search-open", func(t *testing.T) {
				if err := chromedp.Do(ctx,
					chromedp.Navigate(course+"/ja/"),
					chromedp.WaitVisible(chromedp.CSS(`#q`)),
					chromedp.Click(chromedp.CSS(`#q`)),
					chromedp.SendKeys(chromedp.CSS(`#q`), "クォーラム"),
					chromedp.WaitVisible(chromedp.CSS(`#search-results .search-section`)),
					chromedp.SendKeys(chromedp.CSS(`#q`), kb.ArrowDown+kb.ArrowDown),
				); err != nil {
					t.Fatal(err)
				}
				// the first page's first section chosen
				state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(q => q.getAttribute("aria-expanded") + " " + q.getAttribute("aria-activedescendant") + " " + document.getElementById(q.getAttribute("aria-activedescendant")).className)(document.querySelector("#q"))`))
				if state != "true search-results-1 search-section" {
					t.Fatalf("the combobox: aria-expanded, aria-activedescendant = %s", state)
				}
				audit(t)
			})
		})
	}
	if c := b.Console(); len(c) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(c, "\n"))
	}
}

// serveCourseAtItsURL builds the bundled course with the address it is
// served at as its base URL, so that the 404 page's absolute links to the
// stylesheets and scripts resolve, and serves it, uncached, without
// js/main.js (fingerprinted or not) while withoutScript holds.
func serveCourseAtItsURL(t *testing.T, withoutScript *atomic.Bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	root, _ := filepath.Abs("../..")
	b, err := build.New(afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), root)), build.Options{BaseURL: base + "/", WasmRoot: root, WasmCache: filepath.Join(root, ".kakehashi-cache", "wasm")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "public")
	if err := output.Publish(context.Background(), afero.NewOsFs(), dir, res.Site); err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if withoutScript.Load() && strings.HasPrefix(r.URL.Path, "/js/main.") && strings.HasSuffix(r.URL.Path, ".js") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return base
}
