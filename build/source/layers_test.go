package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/spf13/afero"
)

func TestLayers(t *testing.T) {
	site := afero.NewMemMapFs()
	for p, s := range map[string]string{
		"layouts/a.html":                 "site a",
		"themes/mine/layouts/a.html":     "theme a",
		"themes/mine/layouts/b.html":     "theme b",
		"themes/mine/static/css/x.css":   "theme x",
		"static/css/y.css":               "site y",
		"content/ja/not-in-a-layer.md":   "no",
		"themes/mine/layouts/sub/d.html": "theme d",
	} {
		afero.WriteFile(site, p, []byte(s), 0o644)
	}
	emb := afero.FromIOFS{FS: fstest.MapFS{
		"layouts/a.html":     {Data: []byte("embedded a")},
		"layouts/b.html":     {Data: []byte("embedded b")},
		"layouts/c.html":     {Data: []byte("embedded c")},
		"static/css/x.css":   {Data: []byte("embedded x")},
		"static/css/z.css":   {Data: []byte("embedded z")},
		"static/favicon.ico": {Data: []byte("embedded ico")},
	}}
	fsys := Layers(
		Layer{Fs: site, Dir: ""},
		Layer{Fs: site, Dir: "themes/mine"},
		Layer{Fs: emb, Dir: ".", Label: EmbeddedLabel("themes/default")},
	)
	for name, want := range map[string]string{
		"layouts/a.html":    "site a",
		"layouts/b.html":    "theme b",
		"layouts/c.html":    "embedded c",
		"static/css/x.css":  "theme x",
		"static/css/y.css":  "site y",
		"/static/css/z.css": "embedded z",
	} {
		b, err := afero.ReadFile(fsys, name)
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	for name, want := range map[string]string{
		"layouts/a.html":   "layouts/a.html",
		"layouts/b.html":   "themes/mine/layouts/b.html",
		"layouts/c.html":   "(embedded) themes/default/layouts/c.html",
		"static/css/x.css": "themes/mine/static/css/x.css",
	} {
		if got := Origin(fsys, name); got != want {
			t.Errorf("Origin(%s) = %q, want %q", name, got, want)
		}
	}
	if got := Origin(site, "layouts/b.html"); got != "layouts/b.html" {
		t.Errorf("Origin on a plain Fs = %q", got)
	}

	entries, err := afero.ReadDir(fsys, "layouts")
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if err != nil || strings.Join(names, " ") != "a.html b.html c.html sub" {
		t.Errorf("layouts/ lists %v, %v", names, err)
	}
	var walked []string
	afero.Walk(fsys, "static", func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			walked = append(walked, filepath.ToSlash(p))
		}
		return err
	})
	if got := strings.Join(walked, " "); got != "static/css/x.css static/css/y.css static/css/z.css static/favicon.ico" {
		t.Errorf("walk of static/: %s", got)
	}
	if _, err := fsys.Stat("layouts/none.html"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	if err := afero.WriteFile(fsys, "layouts/new.html", nil, 0o644); err == nil {
		t.Error("a write went through")
	}
}

// TestLayersKeepConfinement: a link out of the site in the top layer is
// an error, not a reason to take the lower layer's file.
func TestLayersKeepConfinement(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.html")
	os.WriteFile(outside, []byte("secret"), 0o644)
	os.MkdirAll(filepath.Join(root, "layouts"), 0o755)
	if err := os.Symlink(outside, filepath.Join(root, "layouts", "a.html")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	site, err := SiteFS(root)
	if err != nil {
		t.Fatal(err)
	}
	fsys := Layers(Layer{Fs: site}, Layer{Fs: afero.FromIOFS{FS: fstest.MapFS{"layouts/a.html": {Data: []byte("embedded")}}}, Dir: "."})
	b, err := afero.ReadFile(fsys, "layouts/a.html")
	if !errors.Is(err, ErrOutside) {
		t.Errorf("read %q, %v; want ErrOutside", b, err)
	}
	if got := Origin(fsys, "layouts/a.html"); got != "layouts/a.html" {
		t.Errorf("Origin of the link = %q, want the site's file", got)
	}
}
