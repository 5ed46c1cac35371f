package render

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// partsTheme is a theme whose articles list their series' parts through
// the template "p", with cached or with template.
func partsTheme(t *testing.T, call string) *Theme {
	t.Helper()
	th, diags := loadMem(t, themeFs(t, map[string]string{
		"theme/layouts/article.html": `{{define "title"}}{{.Title}}{{end}}{{define "main"}}<ol>{{range .Series.Parts}}` + call + `{{end}}</ol>{{end}}` + "\n",
		"theme/layouts/404.html":     `{{define "title"}}{{.Title}}{{end}}{{define "main"}}<ol>{{range .Series.Parts}}` + call + `{{end}}</ol>{{end}}` + "\n",
		"theme/layouts/parts.html":   `{{define "p"}}<li><a href="{{rel .URL}}">{{.Title}}</a> {{T "toc"}}{{if .Current}} *{{end}}</li>{{end}}` + "\n",
	}))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return th
}

func TestCachedIsTemplate(t *testing.T) {
	cached, plain := partsTheme(t, `{{cached "p" .}}`), partsTheme(t, `{{template "p" .}}`)
	site := testSite()
	var pages []*Page
	for _, lang := range []string{"ja", "ko"} {
		for _, url := range []string{"/%s/cka/05-ha-cluster/", "/%s/cka/02-control-plane/", "/%s/deep/er/page/", "/%s/cka/05-ha-cluster/x.html"} {
			p := articlePage(site, lang)
			p.URL = strings.Replace(url, "%s", lang, 1)
			pages = append(pages, p, p) // each twice: the second from the cache
		}
	}
	nf := articlePage(site, "ja")
	nf.Kind, nf.URL = KindNotFound, "/404.html"
	pages = append(pages, nf)
	for _, p := range pages {
		if got, want := render(t, cached, p), render(t, plain, p); got != want {
			t.Errorf("%s %s: cached gives\n%s\nwant, as template gives,\n%s", p.Kind, p.URL, got, want)
		}
	}
	// One output per part, language and depth (3 and 4), and the 404
	// page's, whose links are absolute.
	if n, want := site.frags.len(), 4*2*2+4; n != want {
		t.Errorf("%d outputs cached, want %d", n, want)
	}
}

func TestCachedErrors(t *testing.T) {
	tests := []struct {
		name, main, parts string
		want              string // the error's header, as a regexp
	}{
		{"data that cannot be a key", `{{cached "p" .Tags}}`, `{{define "p"}}{{.}}{{end}}`,
			`^theme/layouts/article\.html:1:\d+: .*cached "p": its data, a \[\]string, cannot stand for its output`},
		{"xdefault", `{{cached "p" .Kind}}`, `{{define "p"}}{{xdefault}}{{end}}`,
			`^theme/layouts/parts\.html:1:\d+: .*xdefault reads the page: it cannot be in a cached template`},
		{"error in the cached template", `{{cached "p" .Series}}`, "{{define \"p\"}}\n\n  {{.Nope}}{{end}}",
			`^theme/layouts/parts\.html:3:\d+: .*Nope`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, diags := loadMem(t, themeFs(t, map[string]string{
				"theme/layouts/article.html": `{{define "title"}}x{{end}}{{define "main"}}` + tt.main + `{{end}}` + "\n",
				"theme/layouts/parts.html":   tt.parts + "\n",
			}))
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			var b strings.Builder
			err := th.Render(&b, articlePage(testSite(), "ja"))
			var d diag.Diagnostic
			if !errors.As(err, &d) {
				t.Fatalf("Render: %v, want a diagnostic", err)
			}
			if !regexp.MustCompile(tt.want).MatchString(d.Header()) {
				t.Errorf("error %q, want a match for %q", d.Header(), tt.want)
			}
		})
	}
}

func TestCachedLoadErrors(t *testing.T) {
	_, diags := loadMem(t, themeFs(t, map[string]string{
		"theme/layouts/article.html": "{{define \"title\"}}x{{end}}{{define \"main\"}}\n  {{cached \"nosuch\" .}}{{end}}\n",
		"theme/layouts/parts.html":   "{{define \"p\"}}<a href=\"{{.}}>{{end}}\n",
		"theme/layouts/home.html":    "{{define \"title\"}}x{{end}}{{define \"main\"}}{{cached \"p\" .Kind}}{{end}}\n",
		"theme/layouts/series.html":  "{{define \"title\"}}x{{end}}{{define \"main\"}}{{cached \"p\" .Kind}}{{end}}\n",
	}))
	var got []string
	for _, d := range diags {
		got = append(got, d.Header())
	}
	want := []string{
		`^theme/layouts/article\.html:2:12: cached: no template "nosuch" is defined`,
		`^theme/layouts/parts\.html:1:\d+: `, // once, though two layouts cache it
	}
	if len(got) != len(want) {
		t.Fatalf("diagnostics %q, want %d", got, len(want))
	}
	for i := range want {
		if !regexp.MustCompile(want[i]).MatchString(got[i]) {
			t.Errorf("diagnostic %q, want a match for %q", got[i], want[i])
		}
	}
}
