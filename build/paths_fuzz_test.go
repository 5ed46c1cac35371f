package build

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// themeOnlyFs is the repository's theme, with no content; the UI strings
// are the embedded ones.
func themeOnlyFs(t testing.TB) afero.Fs {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fs := afero.NewMemMapFs()
	for _, dir := range []string{"themes"} {
		err := filepath.Walk(filepath.Join(root, dir), func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			return afero.WriteFile(fs, filepath.ToSlash(rel), b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return fs
}

// insideOutput reports whether an output path names a file strictly
// inside the output folder, and only through clean segments.
func insideOutput(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.Contains(seg, "\x00") || len(seg) >= 2 && seg[1] == ':' {
			return false
		}
	}
	root := filepath.Join(os.TempDir(), "dest")
	full := filepath.Join(root, filepath.FromSlash(p))
	rel, err := filepath.Rel(root, full)
	return err == nil && rel != "." && !strings.HasPrefix(rel, "..")
}

// FuzzContentPaths builds sites whose file names, series id and front
// matter come from the fuzzer: whatever they are, the build either fails
// with diagnostics or writes every file inside the destination.
func FuzzContentPaths(f *testing.F) {
	for _, s := range [][3]string{
		{"cka", "01-intro", "はじめに"},
		{"../../../../escape", "01-intro", "x"},
		{"cka", `x\..\..\zz\pwn`, "x"},
		{"a/b", "..", "y"},
		{"C:", "c:x", "z"},
		{"cka", "../../etc/x", "t"},
		{"cka\x00", "a\tb", "\u2028"},
		{".", "_index", "x"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	n := newNamedSite(f)
	f.Fuzz(func(t *testing.T, id, slug, title string) {
		res, err := n.build(id, slug, title)
		if err != nil {
			return
		}
		for _, p := range res.Site.Paths() {
			if !insideOutput(p) {
				t.Fatalf("id %q, slug %q: output path %q is not inside the destination", id, slug, p)
			}
		}
	})
}

// TestContentPaths: a site with clean names builds; each hostile name or
// id is an error.
func TestContentPaths(t *testing.T) {
	n := newNamedSite(t)
	res, err := n.build("s", "01-intro", "はじめに")
	if err != nil {
		t.Fatalf("clean names: %v", err)
	}
	if _, ok := res.Site.Get("ja/s/01-intro/index.html"); !ok {
		t.Fatalf("clean names: no page in %v", res.Site.Paths())
	}
	for _, c := range [][2]string{
		{"../../../../escape", "01-intro"}, {"a/b", "01"}, {`a`, "01"}, {"C:x", "01"},
		{"cka", `x\..\..\zz\pwn`}, {"cka", "a	b"}, {"x\x00", "01"},
	} {
		res, err := n.build(c[0], c[1], "t")
		if err == nil {
			t.Errorf("id %q, slug %q: built %v, want an error", c[0], c[1], res.Site.Paths())
		}
	}
}

// namedSite is a one-page site whose names are set per build.
type namedSite struct {
	fs      afero.Fs
	b       *Builder
	written []string
}

func newNamedSite(t testing.TB) *namedSite {
	fs := themeOnlyFs(t)
	b, err := New(fs, Options{BaseURL: "https://example.org/"})
	if err != nil {
		t.Fatal(err)
	}
	return &namedSite{fs: fs, b: b}
}

func (n *namedSite) build(id, slug, title string) (*Result, error) {
	for _, p := range n.written {
		n.fs.Remove(p)
	}
	n.b.Invalidate(n.written...)
	n.written = n.written[:0]
	put := func(p, text string) {
		if err := n.fs.MkdirAll(path.Dir(p), 0o755); err != nil {
			return
		}
		if afero.WriteFile(n.fs, p, []byte(text), 0o644) == nil {
			n.written = append(n.written, p)
		}
	}
	series := "id: " + strconv.Quote(id) + "\ntitle: {ja: T, ko: T}\nparts:\n  - number: 1\n    title: {ja: " + strconv.Quote(title) + ", ko: K}\n    state: published\n"
	page := "---\ntitle: " + strconv.Quote(title) + "\nseries: " + strconv.Quote(id) + "\npart: 1\ntags: [" + strconv.Quote(title) + "]\n---\nbody #1\n"
	// The files are where a series "s" would be; the id and the page
	// names inside them are the fuzzer's.
	put("content/series/s.yaml", series)
	put("content/ja/s/"+slug+".md", page)
	put("content/ko/s/"+slug+".md", page)
	return n.b.Build(context.Background())
}
