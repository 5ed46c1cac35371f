package shortcodes

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/spf13/afero"
	"github.com/yuin/goldmark"
)

// TestBuiltinAssets pins what each built-in declares it needs: the
// calculators their stylesheet and script, tabs its script, the others
// nothing.
func TestBuiltinAssets(t *testing.T) {
	calc := Assets{Styles: []string{"/css/calc.css"}, Scripts: []string{"/js/calc.js"}}
	want := map[string]Assets{
		"quorum": calc, "san": calc, "ha-sim": calc,
		"tabs":    {Scripts: []string{"/js/tabs.js"}},
		"youtube": {Styles: []string{"/css/video.css"}},
		"term":    {Styles: []string{TermCSS}},
	}
	reg := NewRegistry()
	for _, name := range reg.Names() {
		s, _ := reg.Lookup(name)
		if w := want[name]; !slices.Equal(s.Assets.Styles, w.Styles) || !slices.Equal(s.Assets.Scripts, w.Scripts) {
			t.Errorf("%s declares %+v, want %+v", name, s.Assets, w)
		}
	}
}

// TestPageAssets: a page's rendering needs exactly the assets of the
// shortcodes it calls, each once, in the order first called; markup that
// only looks like a component's (in a code block) needs nothing.
func TestPageAssets(t *testing.T) {
	tabs := "{{< tabs >}}\n{{< tab \"a\" >}}\nA\n{{< /tab >}}\n{{< /tabs >}}\n"
	quorum := "{{< quorum members=3 >}}\n"
	tests := []struct {
		name, src       string
		styles, scripts []string
	}{
		{"none", "# Title\n\n{{< callout >}}\nx\n{{< /callout >}}\n", nil, nil},
		{"tabs", tabs, nil, []string{"/js/tabs.js"}},
		{"calculator", quorum, []string{"/css/calc.css"}, []string{"/js/calc.js"}},
		{"each once, in order", quorum + "\n" + tabs + "\n" + "{{< san >}}\n" + tabs,
			[]string{"/css/calc.css"}, []string{"/js/calc.js", "/js/tabs.js"}},
		{"a calculator inside a tab", "{{< tabs >}}\n{{< tab \"a\" >}}\n" + quorum + "{{< /tab >}}\n{{< /tabs >}}\n",
			[]string{"/css/calc.css"}, []string{"/js/tabs.js", "/js/calc.js"}},
		{"markup in a code block", "```html\n<div class=\"tabs\" data-tabs><div data-calc=\"quorum\"></div></div>\n```\n", nil, nil},
	}
	reg := NewRegistry()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := render(t, reg, "ja", tt.src)
			if len(res.Diags) > 0 {
				t.Fatalf("diagnostics: %v", res.Diags)
			}
			if !slices.Equal(res.Styles, tt.styles) || !slices.Equal(res.Scripts, tt.scripts) {
				t.Errorf("styles %q, scripts %q; want %q, %q", res.Styles, res.Scripts, tt.styles, tt.scripts)
			}
		})
	}
}

// TestTemplateAssets: a site template lists its stylesheets and scripts
// in its "assets" template; a path that is not a site-absolute .css or
// .js is an error at its place, and so is an action.
func TestTemplateAssets(t *testing.T) {
	tests := []struct {
		name, src       string
		styles, scripts []string
		errs            []string
	}{
		{"none", `<b>{{.Inner}}</b>`, nil, nil, nil},
		{"one of each", `{{define "assets"}}/css/term.css /js/term.js{{end}}<b>{{.Inner}}</b>`,
			[]string{"/css/term.css"}, []string{"/js/term.js"}, nil},
		{"on lines of their own", "{{define \"assets\"}}\n  /css/a.css\n  /css/b.css\n{{end}}\n<b>x</b>",
			[]string{"/css/a.css", "/css/b.css"}, nil, nil},
		{"bad paths", "{{define \"assets\"}}\n/css/ok.css css/rel.css /img/a.png\n  /js/../x.js{{end}}x",
			[]string{"/css/ok.css"}, nil, []string{
				`sc/term.html:2:13: "css/rel.css" is not the site-absolute path of a stylesheet or script ("/css/term.css", "/js/term.js")`,
				`sc/term.html:2:25: "/img/a.png" is not the site-absolute path of a stylesheet or script ("/css/term.css", "/js/term.js")`,
				`sc/term.html:3:3: "/js/../x.js" is not the site-absolute path of a stylesheet or script ("/css/term.css", "/js/term.js")`,
			}},
		{"an action", "{{define \"assets\"}}/css/a.css {{.Lang}}{{end}}x", []string{"/css/a.css"}, nil,
			[]string{`sc/term.html:1:31: the "assets" template lists the paths of stylesheets and scripts, without actions`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			if err := afero.WriteFile(fs, "sc/term.html", []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			reg := NewRegistry()
			_, errs := reg.LoadTemplates(context.Background(), fs, "sc")
			var got []string
			for _, e := range errs {
				got = append(got, e.Header())
			}
			if !slices.Equal(got, tt.errs) {
				t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.errs, "\n"))
			}
			s, _ := reg.Lookup("term")
			if !slices.Equal(s.Assets.Styles, tt.styles) || !slices.Equal(s.Assets.Scripts, tt.scripts) {
				t.Errorf("assets %+v, want styles %q, scripts %q", s.Assets, tt.styles, tt.scripts)
			}
		})
	}
}

// TestTemplateAssetsRendered: a page calling a site template links what
// it lists; an asset that is no file of the site is an error at the first
// call that needs it, once.
func TestTemplateAssetsRendered(t *testing.T) {
	fs := afero.NewMemMapFs()
	if err := afero.WriteFile(fs, "sc/term.html", []byte(`{{define "assets"}}/css/term.css /js/gone.js{{end}}<b>{{.Inner}}</b>`), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry()
	if _, errs := reg.LoadTemplates(context.Background(), fs, "sc"); len(errs) > 0 {
		t.Fatal(errs)
	}
	env := testEnv("ja")
	env.Assets = func(ref string) (markdown.Asset, error) {
		if ref == "/css/term.css" {
			return markdown.Asset{URL: "css/term.css"}, nil
		}
		return markdown.Asset{}, errors.New("no such file")
	}
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(reg)}})
	res := r.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte("a {{< term >}}x{{< /term >}} b {{< term >}}y{{< /term >}}\n")}, env)
	want := []string{`p.md:1:3: shortcode "term" needs /js/gone.js, which is no file static/js/gone.js of the site or its theme`}
	if got := headers(res); !slices.Equal(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	if !slices.Equal(res.Styles, []string{"/css/term.css"}) || !slices.Equal(res.Scripts, []string{"/js/gone.js"}) {
		t.Errorf("styles %q, scripts %q", res.Styles, res.Scripts)
	}
}
