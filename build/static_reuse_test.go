package build

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// TestStaticReadWhenNamed: an authoring server's rebuilds take the static
// files as the last build read them while every change named is content
// (Invalidate, Complete), and read them again when a static file is
// named, or when the changes named may not be all.
func TestStaticReadWhenNamed(t *testing.T) {
	in := repoFs(t)
	b, err := New(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	build := func() map[string]string {
		t.Helper()
		res, err := b.Build(ctx)
		if err != nil {
			t.Fatal(err)
		}
		css := map[string]string{} // published path → bytes
		for _, p := range res.Site.Paths() {
			if strings.HasPrefix(p, "css/main.") {
				data, _ := res.Site.Get(p)
				css[p] = string(data)
			}
		}
		if len(css) != 1 {
			t.Fatalf("main.css published %d times: %v", len(css), css)
		}
		return css
	}
	mainCSS := func(css map[string]string) string {
		for _, data := range css {
			return data
		}
		return ""
	}
	first := build()

	const art, style = "content/ja/cka/05-ha-cluster.md", "themes/default/static/css/main.css"
	edit := func(p, add string) {
		t.Helper()
		data, err := afero.ReadFile(in, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := afero.WriteFile(in, p, append(data, add...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(art, "\n追記した段落です。\n")
	b.Invalidate(art)
	b.Complete()
	if b.static.files == nil {
		t.Fatal("no static files kept")
	}
	kept := &b.static.files[0]
	if got := build(); mainCSS(got) != mainCSS(first) {
		t.Error("a content edit changed main.css")
	}
	if &b.static.files[0] != kept {
		t.Error("the static files were read again for a content edit named whole")
	}

	// A stylesheet named: read again.
	edit(style, "\n.zz-static-edit{color:red}\n")
	b.Invalidate(style)
	b.Complete()
	if got := mainCSS(build()); !strings.Contains(got, "zz-static-edit") {
		t.Error("a named stylesheet edit is not published")
	}

	// Changes not named whole (no Complete): read again.
	edit(style, "\n.zz-second-edit{color:blue}\n")
	b.Invalidate(art)
	if got := mainCSS(build()); !strings.Contains(got, "zz-second-edit") {
		t.Error("without Complete, the static files were not read again")
	}

	// A Complete is for the build that follows it only, even one that
	// stopped before it read the static files.
	b.Invalidate(art)
	b.Complete()
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Build(stopped); err == nil {
		t.Fatal("a build with its context done did not stop")
	}
	edit(style, "\n.zz-third-edit{color:green}\n")
	b.Invalidate(art)
	if got := mainCSS(build()); !strings.Contains(got, "zz-third-edit") {
		t.Error("a Complete given to a build that stopped was taken by the next")
	}
}
