package render

import (
	"errors"
	"io"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// TestTemplateErrorPlaces pins the exact texts of theme template errors:
// each names the layout file, the line and the column of what it is about,
// though text/template's parse errors carry only the line.
func TestTemplateErrorPlaces(t *testing.T) {
	tests := []struct {
		name, file, src, want string
	}{
		{"undefined function", "theme/layouts/home.html",
			"{{define \"title\"}}x{{end}}\n{{define \"main\"}}\n  <main>{{ nosuch . }}</main>{{end}}\n",
			`theme/layouts/home.html:3:12: function "nosuch" not defined`},
		{"stray brace", "theme/layouts/home.html",
			"{{define \"title\"}}x{{end}}{{define \"main\"}}{{ .Title } }}{{end}}\n",
			`theme/layouts/home.html:1:54: unexpected "}" in operand`},
		{"unexpected else", "theme/layouts/partials.html",
			"{{define \"x\"}}\n<p>日本語</p> {{ else }}\n{{end}}\n",
			`theme/layouts/partials.html:2:12: unexpected {{else}} in define clause`},
		{"missing value", "theme/layouts/partials.html",
			"{{define \"x\"}}<p>{{ .Title }}</p>{{ range }}{{ end }}{{end}}\n",
			`theme/layouts/partials.html:1:34: missing value for range`},
		{"undefined variable", "theme/layouts/404.html",
			"{{define \"title\"}}x{{end}}{{define \"main\"}}\n<p>{{ .Title }} {{ $nope }}</p>{{end}}\n",
			`theme/layouts/404.html:2:20: undefined variable "$nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadMem(t, themeFs(t, map[string]string{tt.file: tt.src}))
			if len(diags) != 1 || diags[0].Header() != tt.want {
				t.Fatalf("got %v\nwant %q", diags, tt.want)
			}
		})
	}
}

// TestExecErrorPlace pins an execution error: the layout file, the line
// and the column (in characters) of the action that failed.
func TestExecErrorPlace(t *testing.T) {
	th, diags := loadMem(t, themeFs(t, map[string]string{
		"theme/layouts/article.html": "{{define \"title\"}}{{.Title}}{{end}}{{define \"main\"}}\n<main>\n  <p>目次 {{.Series.Title}}</p></main>{{end}}\n",
	}))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	err := th.Render(io.Discard, &Page{Site: testSite(), Kind: KindArticle, Lang: "ja", URL: "/ja/x/"})
	var d diag.Diagnostic
	if !errors.As(err, &d) {
		t.Fatalf("Render error %v is not a diag.Diagnostic", err)
	}
	want := `theme/layouts/article.html:3:18: executing "main" at <.Series.Title>: nil pointer evaluating *render.Series.Title`
	if d.Header() != want {
		t.Errorf("got %q\nwant %q", d.Header(), want)
	}
}
