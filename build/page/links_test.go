package page

import (
	"context"
	"strings"
	"testing"

	"github.com/yuin/goldmark"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// TestExplicitIndexLinks: an exported page's own links to folders name
// their index.html, as the theme's do; the rest stay as written.
func TestExplicitIndexLinks(t *testing.T) {
	md := markdown.New(markdown.Options{Extenders: []goldmark.Extender{ExplicitIndexLinks()}})
	src := "[b](../b/) [c](./#h) [css](../x.css) [abs](https://example.org/ja/) [root](/ja/) ![i](img/)\n"
	res := md.Render(context.Background(), markdown.Doc{Path: "a.md", Src: []byte(src)}, markdown.Env{Lang: "ja"})
	got := string(res.HTML)
	for _, want := range []string{`href="../b/index.html"`, `href="./index.html#h"`, `href="../x.css"`,
		`href="https://example.org/ja/"`, `href="/ja/"`, `src="img/index.html"`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}
