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

// TestLinkPaths: what counts as another site's URL, and how a relative
// link joins the page's folder.
func TestLinkPaths(t *testing.T) {
	for dest, want := range map[string]bool{"https://x.org/": true, "mailto:a@b": true, "//cdn/x.js": true, "tel:+81": true,
		"02-x.md": false, "../a:b/": false, "/ja/": false, "#h": false, "a/b:c": false, ":x": false} {
		if got := external(dest); got != want {
			t.Errorf("external(%q) = %v", dest, got)
		}
	}
	for _, c := range [][3]string{{"/ja/cka/05/", "../02/", "/ja/cka/02/"}, {"/ja/cka/05/", "..", "/ja/cka/"}, {"/ja/cka/05/", ".", "/ja/cka/05/"},
		{"/ja/cka/05/", "img/a.png", "/ja/cka/05/img/a.png"}, {"/", "../../x", "/x"}, {"/ja/cka/05/", "../../../..", "/"}} {
		if got := join(c[0], c[1]); got != c[2] {
			t.Errorf("join(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
	if dir("/404.html") != "/" || dir("/ja/") != "/ja/" {
		t.Errorf("dir: %q %q", dir("/404.html"), dir("/ja/"))
	}
}
