package build

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// TestPersistentCacheImage: with the persistent cache, an edited image
// re-renders the page that shows it with its new size, its page source
// unchanged; the output equals a fresh build.
func TestPersistentCacheImage(t *testing.T) {
	in := repoFs(t)
	out, cacheFs := afero.NewMemMapFs(), afero.NewMemMapFs()
	writePNG := func(w, h int) {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
			t.Fatal(err)
		}
		if err := afero.WriteFile(in, "content/ja/gallery/d.png", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := in.MkdirAll("content/ja/gallery", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(in, "content/ja/gallery/index.md", []byte("---\ntitle: 図\n---\n![図](d.png)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writePNG(4, 3)
	buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	if warm := buildToDisk(t, coldBuilder(t, in, cacheFs), out); warm.Rendered != 0 {
		t.Fatalf("warm build rendered %d pages", warm.Rendered)
	}
	writePNG(8, 6)
	edit := buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	if edit.Rendered != 1 {
		t.Errorf("an edited image re-rendered %d pages, want 1", edit.Rendered)
	}
	if page := string(mustRead(t, out, "/public/ja/gallery/index.html")); !strings.Contains(page, `<img src="d.png" alt="図" width="8" height="6">`) {
		t.Errorf("the page does not show the image's new size")
	}
	sameAsFresh(t, "edited image", in, out)
}
