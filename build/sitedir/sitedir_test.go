package sitedir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
)

// TestSiteFolder: the options keep the caches inside the site folder (no
// build cache with off), the destination defaults to its public/, a
// destination taking the place of the site is refused, and the memory
// limit follows the content's size above its floor.
func TestSiteFolder(t *testing.T) {
	src := t.TempDir()
	for p, n := range map[string]int{"content/ja/a.md": 3000, "content/ko/b/c.md": 500, "themes/t.css": 9999} {
		full := filepath.Join(src, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := WithCache(WithWasm(build.Options{Drafts: true}, src), src, false)
	if !o.Drafts || o.WasmRoot != src || o.WasmCache != filepath.Join(src, filepath.FromSlash(build.DefaultLayout().WasmCache())) ||
		o.CacheDir != filepath.Join(src, filepath.FromSlash(build.DefaultLayout().BuildCache())) {
		t.Errorf("options %+v", o)
	}
	if o := WithCache(build.Options{}, src, true); o.CacheDir != "" {
		t.Errorf("--no-cache keeps a cache in %s", o.CacheDir)
	}
	if got, want := DefaultDest(src), filepath.Join(src, "public"); got != want {
		t.Errorf("DefaultDest %s, want %s", got, want)
	}
	if err := CheckDest(src, DefaultDest(src), false); err != nil {
		t.Errorf("public/: %v", err)
	}
	for _, dest := range []string{src, filepath.Join(src, "content")} {
		if err := CheckDest(src, dest, true); err == nil {
			t.Errorf("destination %s replaces the site's own files", dest)
		}
	}
	if got := ContentSize(src); got != 3500 {
		t.Errorf("ContentSize %d, want 3500 (content/ only)", got)
	}
	if got := MemoryLimit(3500); got != 192<<20 {
		t.Errorf("a small site's limit %d, want the 192 MiB floor", got)
	}
	if got := MemoryLimit(100 << 20); got != 800<<20 {
		t.Errorf("100 MiB of content: limit %d, want 800 MiB", got)
	}
}
