package cache

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// TestManifestRoundTrip: a manifest reads back as written, under its key
// only, and one of another key is removed when a new one is written.
func TestManifestRoundTrip(t *testing.T) {
	fs := afero.NewMemMapFs()
	m := &Manifest{
		In:      map[string]Stamp{"content/ja/a.md": {Size: 10, MTime: 42}},
		Out:     map[string]Stamp{"ja/a/index.html": {Size: 99, MTime: 43}},
		Summary: Summary{Pages: map[string]int{"ja": 3}, Files: 7, Warnings: diag.List{diag.File("content/ja/a.md", "no ko translation").AsWarning()}},
	}
	WriteManifest(fs, "/cache", 1, m)
	got, ok := ReadManifest(fs, "/cache", 1)
	if !ok || !got.Same(m.In, m.Out) || got.Summary.Files != 7 || got.Summary.Pages["ja"] != 3 || len(got.Summary.Warnings) != 1 {
		t.Fatalf("read back %+v, %v", got, ok)
	}
	if _, ok := ReadManifest(fs, "/cache", 2); ok {
		t.Error("a manifest read under another key")
	}
	WriteManifest(fs, "/cache", 2, m)
	if _, ok := ReadManifest(fs, "/cache", 1); ok {
		t.Error("the manifest of the old key was kept")
	}
	afero.WriteFile(fs, manifestFile("/cache", 2), []byte("kakehashi-manifest\x00v1\nbroken"), 0o644)
	if _, ok := ReadManifest(fs, "/cache", 2); ok {
		t.Error("a damaged manifest was read")
	}
	for _, c := range []struct {
		name    string
		in, out map[string]Stamp
	}{
		{"an input newer", map[string]Stamp{"content/ja/a.md": {Size: 10, MTime: 44}}, m.Out},
		{"an input more", map[string]Stamp{"content/ja/a.md": {Size: 10, MTime: 42}, "content/ja/b.md": {}}, m.Out},
		{"an output gone", m.In, map[string]Stamp{}},
	} {
		if m.Same(c.in, c.out) {
			t.Errorf("%s: Same", c.name)
		}
	}
}

// TestStampTree: files are stamped by path, through a link to a file as
// what it leads to; a link to a folder stops the stamping.
func TestStampTree(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("content/ja/a.md", "abc")
	write("elsewhere/b.md", "bb")
	if err := os.Symlink(filepath.Join(dir, "elsewhere", "b.md"), filepath.Join(dir, "content", "ja", "b.md")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	fs := afero.NewBasePathFs(afero.NewOsFs(), dir)
	ctx := context.Background()
	got, err := StampFolder(ctx, afero.NewOsFs(), filepath.Join(dir, "content"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["ja/a.md"].Size != 3 || got["ja/b.md"].Size != 2 {
		t.Fatalf("stamps %v", got)
	}
	// The linked file changes: its stamp does.
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "elsewhere", "b.md"), later, later)
	again, _ := StampTree(ctx, fs, "content", "missing")
	if again["content/ja/b.md"].MTime != later.UnixNano() {
		t.Errorf("a linked file's stamp is %v, want its target's time", again["content/ja/b.md"])
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, "content", "linked")); err != nil {
		t.Fatal(err)
	}
	if _, err := StampTree(ctx, fs, "content"); err == nil {
		t.Error("a link to a folder was stamped through")
	}
}

// TestSaveKeepsManifest: saving the cache of a key removes the caches of
// other keys, not the manifest beside it, and writing a manifest leaves
// the cache.
func TestSaveKeepsManifest(t *testing.T) {
	fs := afero.NewMemMapFs()
	afero.WriteFile(fs, "/cache/build-0000000000000009.bin", []byte("old"), 0o644)
	WriteManifest(fs, "/cache", 1, &Manifest{In: map[string]Stamp{}, Out: map[string]Stamp{}})
	c := Open(fs, "/cache", 1)
	saveStamped(t, c, fs, "/public")
	if _, ok := ReadManifest(fs, "/cache", 1); !ok {
		t.Error("saving the cache removed the manifest")
	}
	if ok, _ := afero.Exists(fs, "/cache/build-0000000000000009.bin"); ok {
		t.Error("the cache of another key was kept")
	}
	WriteManifest(fs, "/cache", 1, &Manifest{In: map[string]Stamp{}, Out: map[string]Stamp{}})
	if ok, _ := afero.Exists(fs, c.file); !ok {
		t.Error("writing the manifest removed the cache")
	}
}

// saveStamped saves c for an output now in dir on fs, stamped as a
// staging folder would leave it (output.Staging.Files).
func saveStamped(t *testing.T, c *Cache, fs afero.Fs, dir string) {
	t.Helper()
	files, err := StampFolder(context.Background(), fs, dir)
	if err != nil {
		t.Fatal(err)
	}
	c.Save(files)
}

// TestManifestEncoding: a manifest, its summary's every field set,
// comes back as it was written; one cut short, or with a byte more, is
// refused.
func TestManifestEncoding(t *testing.T) {
	m := &Manifest{In: map[string]Stamp{"content/ja/a.md": {Size: 3, MTime: 1700000000123456789}, "kakehashi.toml": {Size: -1}},
		Out: map[string]Stamp{"index.html": {Size: 10, MTime: 5}}}
	n := 0
	fill(reflect.ValueOf(&m.Summary).Elem(), &n, map[reflect.Type]int{})
	b, err := encodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeManifest(b)
	if err != nil || !reflect.DeepEqual(got, m) {
		t.Fatalf("decodeManifest = %v\n%#v\nwant\n%#v", err, got, m)
	}
	for cut := range len(b) {
		if _, err := decodeManifest(b[:cut]); err == nil {
			t.Fatalf("a manifest cut to %d of its %d bytes read", cut, len(b))
		}
	}
	if _, err := decodeManifest(append(b, 0)); err == nil {
		t.Error("a manifest with a byte more read")
	}
	empty := &Manifest{}
	if b, err := encodeManifest(empty); err != nil {
		t.Fatal(err)
	} else if got, err := decodeManifest(b); err != nil || got.In != nil || got.Out != nil {
		t.Errorf("an empty manifest came back as %#v, %v", got, err)
	}
}
