package main

import (
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
