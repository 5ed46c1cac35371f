package main

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/export"
)

// TestZipReplaces: --zip replaces a zip of kakehashi's, and with --force
// a file of someone else's, through a temporary file renamed into place:
// the zip is readable by all, however restricted the file it replaced,
// and nothing else is left beside it.
func TestZipReplaces(t *testing.T) {
	site := copyCourse(t)
	top := filepath.Dir(site)
	zipPath := filepath.Join(top, "course.zip")
	if err := os.WriteFile(zipPath, []byte("their archive"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("export", "-s", site, "-q", "--zip", zipPath)
	if want := "kakehashi export: --zip " + zipPath + ": it exists and is not a zip kakehashi wrote; pass --force to replace it\n"; code != 2 || stderr != want {
		t.Fatalf("exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
	if b, _ := os.ReadFile(zipPath); string(b) != "their archive" {
		t.Fatalf("a refused zip replaced the file: %q", b)
	}
	for _, args := range [][]string{
		{"--force"}, // someone else's file, replaced when asked
		{},          // now kakehashi's own: replaced unasked
	} {
		mustRun(t, append([]string{"export", "-s", site, "-q", "--zip", zipPath}, args...)...)
		info, err := os.Stat(zipPath)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != 0o644 {
			t.Errorf("%v: the zip's mode is %v, want 0644", args, got)
		}
		if !export.IsZip(afero.NewOsFs(), zipPath) {
			t.Errorf("%v: the zip written is not recognised as kakehashi's", args)
		}
		entries, _ := os.ReadDir(top)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".kakehashi") {
				t.Errorf("%v: left beside the zip: %s", args, e.Name())
			}
		}
	}
}

// TestSingleFileLargeImage: --single-file leaves an image over
// export.MaxInlineImage a link to its file, and says so on stderr; the
// command succeeds.
func TestSingleFileLargeImage(t *testing.T) {
	site := copyCourse(t)
	page := filepath.Join(site, "content", "ja", "cka", "05-ha-cluster")
	if err := os.Mkdir(page, 0o755); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(page + ".md")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(page, "index.md"), string(md)+"\n![構成図](big.png)\n")
	if err := os.Remove(page + ".md"); err != nil {
		t.Fatal(err)
	}
	// A PNG of one pixel, grown to 20 MB: the build reads only its
	// header, for its width and height.
	f, err := os.Create(filepath.Join(page, "big.png"))
	if err == nil {
		err = png.Encode(f, image.NewGray(image.Rect(0, 0, 1, 1)))
	}
	if err == nil {
		err = f.Truncate(20 << 20)
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	// The Korean page follows its original, edited here.
	if code, _, stderr := runCLI("translations", "mark", "-s", site, "content/ko/cka/05-ha-cluster.md"); code != 0 {
		t.Fatalf("translations mark: exit %d\n%s", code, stderr)
	}
	code, _, stderr := runCLI("export", "-s", site, "-q", "--single-file")
	want := "kakehashi export: warning: the image /ja/cka/05-ha-cluster/big.png (20.0 MB) that /ja/cka/05-ha-cluster/ shows is larger than the 8 MB an image may be inside a single-file document: it stays a link to the file, shown only beside a copy of it\n"
	if code != 0 || stderr != want {
		t.Fatalf("exit %d, stderr %q; want 0, %q", code, stderr, want)
	}
	doc, err := os.ReadFile(filepath.Join(site, "public-single", "course-ja.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), `<img src="big.png"`) || strings.Contains(string(doc), "data:image/png") {
		t.Error("the large image was not left a link")
	}
}
