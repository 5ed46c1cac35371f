package export

import (
	"context"
	"html/template"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"github.com/yuin/goldmark"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// TestSingleFileWidgets puts the three calculator widgets, as the
// shortcodes render them, into a single-file course of each language: it
// ships no calculator, so each shows its build-time answers with the note
// that they are for the starting values, and no form, no focusable node,
// no loading note and no word of JavaScript; every reference to an id
// (labels, accessible names, diagram arrows) follows the id's prefix.
func TestSingleFileWidgets(t *testing.T) {
	bundle, ds := i18n.Load(context.Background(), afero.NewOsFs(), "../../i18n")
	if ds.Err() != nil {
		t.Fatal(ds.Err())
	}
	const src = "{{< quorum members=3 failed=1 >}}\n\n{{< san nodeName=\"cp-1\" advertiseAddress=\"10.0.0.111\" dial=\"10.0.0.120\" >}}\n\n" +
		"{{< ha-sim endpoint=\"node\" failed=\"cp-1\" >}}\n\n{{< topology type=\"external\" etcd=3 >}}\n"
	md := markdown.New(markdown.Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	s := output.New()
	s.Put("css/main.css", []byte(""))
	s.Put("js/main.js", []byte(""))
	for _, lang := range []string{"ja", "ko"} {
		t.Run(lang, func(t *testing.T) {
			res := md.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src)}, markdown.Env{
				Lang: lang, T: func(k string) string { return bundle.T(lang, k) }})
			if err := res.Diags.Err(); err != nil {
				t.Fatal(err)
			}
			series := &render.Series{ID: "cka", Title: "CKA", Parts: []render.PartRef{{Number: 5, URL: "/" + lang + "/cka/05/", Published: true}}}
			page := &render.Page{Site: &render.Site{}, Kind: render.KindArticle, Lang: lang, URL: "/" + lang + "/cka/05/", Part: 5, Title: "五",
				Series: series, Content: template.HTML(res.HTML)}
			docs, err := SingleFile(Course{Site: s, Pages: []*render.Page{page}, T: bundle.T})
			if err != nil {
				t.Fatal(err)
			}
			doc := string(docs[lang])
			if n := strings.Count(doc, `<p class="calc-static">`+bundle.T(lang, "calc_static")+`</p>`); n != 3 {
				t.Errorf("%d widgets say their answers are for the starting values, want 3", n)
			}
			for _, bad := range []string{"<form", "<input", "<select", "<button", "tabindex", "<noscript", "JavaScript",
				bundle.T(lang, "calc_loading"), bundle.T(lang, "calc_hint")} {
				if strings.Contains(doc, bad) {
					t.Errorf("the document holds %q", bad)
				}
			}
			for _, want := range []string{bundle.T(lang, "calc_quorum_title"), `data-out="status"`, "10.96.0.1"} {
				if !strings.Contains(doc, want) {
					t.Errorf("the document lacks %q", want)
				}
			}
			ids := map[string]bool{}
			for _, m := range regexp.MustCompile(`\sid="([^"]*)"`).FindAllStringSubmatch(doc, -1) {
				ids[m[1]] = true
			}
			refs := 0
			for _, m := range regexp.MustCompile(`\s(?:for|aria-labelledby|aria-describedby)="([^"]*)"|url\(#([^)]*)\)`).FindAllStringSubmatch(doc, -1) {
				for _, id := range strings.Fields(m[1] + " " + m[2]) {
					refs++
					if !ids[id] {
						t.Errorf("a reference to id %q, which no element has", id)
					}
				}
			}
			if refs < 10 {
				t.Errorf("only %d references to ids found; the scan is broken", refs)
			}
		})
	}
}
