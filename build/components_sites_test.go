package build_test

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// componentsSite is two-parts with a component on each page: tabs on the
// Japanese part 1, a calculator on the Korean one, a site shortcode with
// its own stylesheet on the Japanese home page, and on the Japanese part
// 2 only markup that looks like the components', in a code block.
func componentsSite(t *testing.T) string {
	site := twoParts(t) + `-- themes/default/shortcodes/term.html --
{{define "assets"}}/css/term.css{{end}}<dfn class="term">{{.Inner}}</dfn>
-- static/css/term.css --
.term{font-style:normal}
`
	site = replaceOnce(t, site, "次は #2 、その次は #3 です。", "{{< tabs >}}\n{{< tab \"kubeadm\" >}}\nA\n{{< /tab >}}\n{{< /tabs >}}\n")
	site = replaceOnce(t, site, "다음은 #2, 그다음은 #3 입니다.", "{{< quorum members=3 >}}\n")
	site = replaceOnce(t, site, "ようこそ。", "{{< term >}}etcd{{< /term >}}")
	site = replaceOnce(t, site, "```console\n$ kubectl get nodes\nNAME   STATUS\ncp-1   Ready\n```\n-- content/ko",
		"```html\n<div class=\"tabs\" data-tabs><div data-calc=\"quorum\"></div></div>\n```\n-- content/ko")
	// The translation's code block is its original's.
	site = replaceOnce(t, site, "```console\n$ kubectl get nodes\nNAME   STATUS\ncp-1   Ready\n```",
		"```html\n<div class=\"tabs\" data-tabs><div data-calc=\"quorum\"></div></div>\n```")
	return site
}

// linked lists the stylesheets and scripts the page at output path p
// links, by their plain site-absolute paths, the layout's own left out.
func linked(t *testing.T, s *sitetest.Site, p string) (styles, scripts []string) {
	t.Helper()
	plain := map[string]string{}
	for k, v := range s.Result().Assets {
		plain[v] = k
	}
	dir := "/" + path.Dir(p) + "/"
	base := map[string]bool{"/css/main.css": true, "/css/chroma.css": true, "/css/print.css": true, "/js/main.js": true, "/js/progress.js": true, "/js/theme.js": true}
	re := regexp.MustCompile(`<(link rel="stylesheet"|script) (?:href|src)="([^"]+)"`)
	for _, m := range re.FindAllStringSubmatch(s.File(p), -1) {
		abs := path.Join(dir, m[2])
		if q, ok := plain[abs]; ok {
			abs = q
		}
		if base[abs] {
			continue
		}
		if m[1] == "script" {
			scripts = append(scripts, abs)
		} else {
			styles = append(styles, abs)
		}
	}
	return styles, scripts
}

// TestSiteComponentAssets: each page links exactly the stylesheets and
// scripts its shortcodes declare (shortcodes.Assets), the site's own
// shortcode templates' too; markup that only looks like a component's
// brings nothing; calculators = false drops the calculators' assets.
func TestSiteComponentAssets(t *testing.T) {
	s := sitetest.Test(t, componentsSite(t))
	tests := []struct {
		page            string
		styles, scripts []string
	}{
		{"ja/cka/01-intro/index.html", nil, []string{"/js/tabs.js"}},
		{"ko/cka/01-intro/index.html", []string{"/css/calc.css"}, []string{"/js/calc.js"}},
		{"ja/index.html", []string{"/css/term.css"}, nil},
		{"ja/cka/02-inside/index.html", nil, nil},
		{"ko/cka/02-inside/index.html", nil, nil},
		{"ko/index.html", nil, nil},
		{"404.html", nil, nil},
	}
	check := func(calculators bool) {
		t.Helper()
		for _, tt := range tests {
			styles, scripts := linked(t, s, tt.page)
			if !calculators && strings.HasPrefix(tt.page, "ko/cka/01") {
				tt.styles, tt.scripts = nil, nil
			}
			if !slices.Equal(styles, tt.styles) || !slices.Equal(scripts, tt.scripts) {
				t.Errorf("calculators %v: %s links styles %q, scripts %q; want %q, %q", calculators, tt.page, styles, scripts, tt.styles, tt.scripts)
			}
		}
	}
	check(true)
	s.AssertExists("css/term." + hashOf(t, s, "/css/term.css") + ".css")
	s.WriteFile("kakehashi.toml", "calculators = false\n").Build().AssertFresh()
	check(false)
}

// hashOf is the hash in the published name of the fingerprinted file p.
func hashOf(t *testing.T, s *sitetest.Site, p string) string {
	t.Helper()
	h, ok := s.Result().Assets[p]
	if !ok {
		t.Fatalf("%s is not published", p)
	}
	ext := path.Ext(p)
	return strings.TrimSuffix(strings.TrimPrefix(h, strings.TrimSuffix(p, ext)+"."), ext)
}

// TestSiteComponentAssetErrors: a site shortcode that lists a path that
// is not a stylesheet's or a script's, or a file the site does not have,
// fails the build at the place that says so.
func TestSiteComponentAssetErrors(t *testing.T) {
	s := sitetest.New(t, componentsSite(t))
	s.WriteFile("themes/default/shortcodes/term.html", "{{define \"assets\"}}\n  css/term.css\n{{end}}<dfn>{{.Inner}}</dfn>\n").
		BuildFails(`themes/default/shortcodes/term.html:2:3: "css/term.css" is not the site-absolute path of a stylesheet or script ("/css/term.css", "/js/term.js")`)
	s.WriteFile("themes/default/shortcodes/term.html", "{{define \"assets\"}}/css/term.css /js/term.js{{end}}<dfn>{{.Inner}}</dfn>\n").
		BuildFails(`content/ja/_index.md:4:1: shortcode "term" needs /js/term.js, which is no file static/js/term.js of the site or its theme`)
	s.WriteFile("static/js/term.js", "document.documentElement.dataset.term = '1';\n").Build().AssertFresh()
	if _, scripts := linked(t, s, "ja/index.html"); !slices.Equal(scripts, []string{"/js/term.js"}) {
		t.Errorf("scripts %q, want [/js/term.js]", scripts)
	}
}
