package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/wasm"
)

// contentOnly is a site of content alone: no theme, no UI strings.
var contentOnly = map[string]string{
	"content/series/cka.yaml": "id: cka\ntitle: {ja: CKA, ko: CKA}\nparts:\n  - number: 1\n    title: {ja: はじめに, ko: 소개}\n    state: published\n",
	"content/ja/_index.md":    "---\ntitle: 講座\n---\nようこそ。\n",
	"content/ko/_index.md":    "---\ntitle: 강좌\n---\n환영합니다.\n",
	"content/ja/cka/01-intro.md": "---\ntitle: はじめに\nseries: cka\npart: 1\n---\n## 節\n\n" +
		"{{< topology type=\"stacked\" controlPlanes=3 down=\"cp-1\" >}}\n\n{{< quorum >}}\n",
	"content/ko/cka/01-intro.md": "---\ntitle: 소개\nseries: cka\npart: 1\n---\n## 절\n",
}

// buildOnDisk writes files into a temporary folder, outside the
// repository, and builds it through the confined reader as the CLI does,
// with no go command on PATH.
func buildOnDisk(t *testing.T, files map[string]string) (*Result, map[string][]byte) {
	t.Helper()
	root := writeSite(t, files)
	in, err := source.SiteFS(root)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(in, Options{BaseURL: "https://example.org/", WasmRoot: root, WasmCache: filepath.Join(root, ".kakehashi-cache", "wasm")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res, published(res)
}

// published is every file of a built site.
func published(res *Result) map[string][]byte {
	out := make(map[string][]byte)
	for _, p := range res.Site.Paths() {
		out[p], _ = res.Site.Get(p)
	}
	return out
}

// TestContentOnlySite: the theme, the UI strings and the calculators
// come from the binary.
func TestContentOnlySite(t *testing.T) {
	res, out := buildOnDisk(t, contentOnly)
	article := string(out["ja/cka/01-intro/index.html"])
	for _, want := range []string{`<html lang="ja"`, "目次", "<svg", assetPath(res, "css/main.css")} {
		if !strings.Contains(article, want) {
			t.Errorf("the article lacks %q", want)
		}
	}
	for _, p := range []string{"css/main.css", "js/main.js", "js/search.js", "js/calc.js", "ja/search-index.js", "ko/search-index.js", "404.html"} {
		if out[assetPath(res, p)] == nil {
			t.Errorf("%s not published", p)
		}
	}
	var warned []string
	for _, w := range res.Summary.Warnings {
		if strings.Contains(w.Msg, "calculators") {
			warned = append(warned, w.Header())
		}
	}
	if _, ok := wasm.Embedded(); ok {
		if out[assetPath(res, "calc/calc.wasm")] == nil || out[assetPath(res, "calc/calc-x509.wasm")] == nil || out[assetPath(res, "js/wasm_exec.js")] == nil || res.Summary.Wasm == nil {
			t.Error("the binary carries the calculators, but they are not published")
		}
		if len(warned) > 0 {
			t.Errorf("warnings %v", warned)
		}
	} else {
		if os.Getenv("CI") == "true" {
			t.Error("no calculators embedded: go generate ./build/wasm must run before the tests under CI")
		}
		if out["calc/calc.wasm"] != nil {
			t.Error("calc.wasm published without calculators")
		}
		if len(warned) != 1 || !strings.HasPrefix(warned[0], "(kakehashi): warning: this kakehashi binary carries no calculators") || !strings.Contains(warned[0], "make install") {
			t.Errorf("warnings %v, want the one about the missing calculators", warned)
		}
	}
}

// TestSiteOverridesFileByFile: a layout, a static file and a UI string
// of the site's own replace the embedded ones; everything else stays.
func TestSiteOverridesFileByFile(t *testing.T) {
	files := map[string]string{
		"layouts/404.html":                 "{{define \"title\"}}404{{end}}{{define \"main\"}}<main id=\"main\">my own 404</main>{{end}}\n",
		"static/css/main.css":              "body{color:red}\n",
		"static/robots-extra.txt":          "extra\n",
		"i18n/ko.toml":                     "series_index = \"연재 차례\"\n",
		"themes/default/static/js/tabs.js": "/*theme*/var tabs=1;\n",
	}
	for p, s := range contentOnly {
		files[p] = s
	}
	res, out := buildOnDisk(t, files)
	for p, want := range map[string]string{
		"404.html":                   "my own 404",
		"css/main.css":               "color:red",
		"robots-extra.txt":           "extra",
		"js/tabs.js":                 "tabs=1",
		"ko/cka/01-intro/index.html": "연재 차례",
		"ja/cka/01-intro/index.html": "目次",
	} {
		if !strings.Contains(string(out[assetPath(res, p)]), want) {
			t.Errorf("%s lacks %q:\n%.300s", p, want, out[assetPath(res, p)])
		}
	}
	if strings.Contains(string(out[assetPath(res, "css/main.css")]), "font-family") {
		t.Error("css/main.css is the embedded one")
	}
	if out[assetPath(res, "js/main.js")] == nil {
		t.Error("the embedded js/main.js is missing")
	}
}

// TestThemeFolder: the theme the configuration names lays its files over
// the embedded default, and themes/default is not read.
func TestThemeFolder(t *testing.T) {
	files := map[string]string{
		"kakehashi.toml":                  "theme = \"plain\"\n",
		"themes/plain/layouts/404.html":   "{{define \"title\"}}404{{end}}{{define \"main\"}}<main id=\"main\">plain 404</main>{{end}}\n",
		"themes/default/layouts/404.html": "{{define \"title\"}}404{{end}}{{define \"main\"}}<main id=\"main\">not this one</main>{{end}}\n",
	}
	for p, s := range contentOnly {
		files[p] = s
	}
	res, out := buildOnDisk(t, files)
	if !strings.Contains(string(out["404.html"]), "plain 404") || out[assetPath(res, "css/main.css")] == nil {
		t.Errorf("404.html = %.200s", out["404.html"])
	}
}

// writeSite writes files into a temporary folder outside the repository
// and takes the go command off PATH for the test.
func writeSite(t *testing.T, files map[string]string) string {
	t.Helper()
	t.Setenv("PATH", t.TempDir())
	root := t.TempDir()
	for p, s := range files {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// assetPath is where a build publishes the file at site path p (no
// leading slash): under its hashed name when it is fingerprinted.
func assetPath(res *Result, p string) string {
	return strings.TrimPrefix(res.Assets.Path("/"+p), "/")
}
