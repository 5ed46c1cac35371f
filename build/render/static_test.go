package render

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// staticText is a static file's content, read as a build writes it.
func staticText(t testing.TB, f StaticFile) string {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatalf("%s: %v", f.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("%s: %v", f.Path, err)
	}
	return string(b)
}

// TestStaticStreamsCopiedFiles: the static files published as they are
// are listed with their size, not read; stylesheets and scripts are read
// to be minified and named. Editors' leftovers are left out, and a named
// pipe is an error at its path, never opened.
func TestStaticStreamsCopiedFiles(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"static/css/main.css":        "body{}",
		"static/js/main.js":          "//",
		"static/img/photo.png":       "not really a png",
		"static/docs/guide.pdf":      "%PDF",
		"static/img/#photo.png#":     "autosave",
		"static/img/photo.png~":      "backup",
		"static/css/main.css.orig":   "merge",
		"static/docs/.guide.pdf.swp": "swap",
	}
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys, err := source.SiteFS(root)
	if err != nil {
		t.Fatal(err)
	}
	th := &Theme{fsys: fsys, dir: "."}
	got, err := th.Static()
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, f := range got {
		kind := "read"
		if f.Copied() {
			kind = "copied"
			if f.Data != nil {
				t.Errorf("%s: copied, yet held in memory", f.Path)
			}
		}
		if int(f.Size) != len(files["static"+f.Path]) {
			t.Errorf("%s: size %d", f.Path, f.Size)
		}
		list = append(list, f.Path+" "+kind+" "+staticText(t, f))
	}
	want := "/css/main.css read body{}\n/docs/guide.pdf copied %PDF\n/img/photo.png copied not really a png\n/js/main.js read //"
	if s := strings.Join(list, "\n"); s != want {
		t.Errorf("Static() =\n%s\nwant\n%s", s, want)
	}

	if err := syscall.Mkfifo(filepath.Join(root, "static/img/pipe.png"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = th.Static()
	if err == nil || err.Error() != "static/img/pipe.png: not a regular file (a named pipe): remove it" {
		t.Errorf("a named pipe in static/: %v", err)
	}
}
