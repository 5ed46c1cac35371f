package render

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// layered is a theme laid over another, as a site's layouts/ over the
// embedded default: the lower theme is themeFs's, labelled as embedded.
func layered(t *testing.T, site map[string]string, lower map[string]string) (afero.Fs, *i18n.Bundle) {
	t.Helper()
	low := themeFs(t, lower)
	b, diags := i18n.Load(context.Background(), low, "i18n")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	top := afero.NewMemMapFs()
	for p, s := range site {
		afero.WriteFile(top, p, []byte(s), 0o644)
	}
	return source.Layers(source.Layer{Fs: top}, source.Layer{Fs: low, Dir: "theme", Label: source.EmbeddedLabel("themes/default")}), b
}

func TestLayeredTheme(t *testing.T) {
	fsys, b := layered(t, map[string]string{
		"layouts/article.html": "{{define \"title\"}}{{.Title}}{{end}}{{define \"main\"}}<main class=\"mine\"></main>{{end}}\n",
		"static/css/main.css":  "mine{}\n",
	}, nil)
	th, diags := Load(context.Background(), fsys, ".", b)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var out strings.Builder
	if err := th.Render(&out, &Page{Site: &Site{Langs: []string{"ja"}}, Kind: KindArticle, Lang: "ja", URL: "/ja/a/", Title: "A"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `<main class="mine">`) || !strings.HasPrefix(out.String(), `<html lang="ja">`) {
		t.Errorf("article = %s; want the site's article in the embedded base", out.String())
	}
	files, err := th.Static()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path+"="+strings.TrimSpace(staticText(t, f))+"@"+f.Source)
	}
	want := "/css/main.css=mine{}@static/css/main.css /favicon.svg=<svg/>@(embedded) themes/default/static/favicon.svg"
	if s := strings.Join(got[:2], " "); s != want {
		t.Errorf("static = %s\nwant %s", s, want)
	}
}

func TestLayeredThemeErrorsNameTheirFile(t *testing.T) {
	fsys, b := layered(t, map[string]string{
		"layouts/home.html": "{{define \"title\"}}x{{end}}\n{{define \"main\"}}\n\n    <main>{{.Title</main>{{end}}\n",
	}, map[string]string{
		"theme/layouts/series.html": "{{define \"title\"}}x{{end}}\n{{define \"main\"}}\n\n    <main>{{.Title</main>{{end}}\n",
	})
	_, diags := Load(context.Background(), fsys, ".", b)
	var heads []string
	for _, d := range diags {
		heads = append(heads, d.Header())
	}
	got := strings.Join(heads, "\n")
	for _, want := range []string{"(embedded) themes/default/layouts/series.html:4:19: ", "\nlayouts/home.html:4:19: "} {
		if !strings.Contains("\n"+got, want) {
			t.Errorf("diagnostics:\n%s\nwant one at %q", got, want)
		}
	}
}
