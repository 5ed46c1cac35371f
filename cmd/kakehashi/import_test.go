package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// hugoSite writes the Hugo course of build/hugoimport's tests into a new
// folder and returns it.
func hugoSite(t *testing.T) string {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "..", "build", "hugoimport", "testdata", "byname.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "hugo")
	for _, f := range a.Files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f.Name)), string(f.Data))
	}
	return dir
}

// TestImportHugo: "kakehashi import hugo SRC DEST" prints its report and
// a summary and exits 0 when the result builds; it refuses (exit 2) a
// DEST with files in it, leaving it as it was, an unknown kind and
// missing folders.
func TestImportHugo(t *testing.T) {
	src := hugoSite(t)
	full := filepath.Join(t.TempDir(), "full")
	writeFile(t, filepath.Join(full, "notes.txt"), "mine")
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"import", "hugo", src, full}, "kakehashi import hugo: " + full + " is not empty (1 entry): an import writes a new site into a new or empty folder\n"},
		{[]string{"import", "hugo", src, src}, " is not empty"},
		{[]string{"import", "jekyll", src, full}, `kakehashi import: unknown kind "jekyll" (kakehashi imports hugo sites)`},
		{[]string{"import", "hugo", src}, "want the Hugo site's folder and a new folder"},
		{[]string{"import", "hugo", filepath.Join(t.TempDir(), "none"), filepath.Join(t.TempDir(), "x")}, "kakehashi import hugo: site folder "},
		{[]string{"import"}, "Usage: kakehashi import hugo SRC DEST"},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.stderr) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.stderr)
		}
	}
	if data, err := os.ReadFile(filepath.Join(full, "notes.txt")); err != nil || string(data) != "mine" {
		t.Errorf("the refused folder's file: %q, %v", data, err)
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("the refused folder holds %d entries, want its one file", len(entries))
	}

	dest := filepath.Join(t.TempDir(), "course")
	code, stdout, stderr := runCLI("import", "hugo", src, dest)
	if code != 0 || stderr != "" {
		t.Fatalf("import: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"kakehashi import hugo: " + src + " → " + dest + "\n",
		"Converted:\n",
		"  content/cka/intro.md: part 1 of series cka (weight 1) in ja is content/ja/cka/01-intro.md, /ja/cka/01-intro/\n",
		"Approximated:\n",
		"  content/about.md:3:1: url \"/about-us/\": kakehashi names a page by its file; the page is at /ja/about/ and /about-us/ is an alias redirecting to it\n",
		"Not converted:\n",
		"  layouts/_default: Hugo templates are not converted",
		"\n12 pages in 2 languages (ja, ko), 1 series, 6 other files: ",
		" converted, 11 approximated, 1 not converted; kakehashi build succeeds with 12 warnings\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dest, "content", "series", "cka.yaml")); err != nil {
		t.Error(err)
	}
	code, _, stderr = runCLI("build", "-s", dest, "-q")
	if code != 0 {
		t.Errorf("kakehashi build of the imported site: exit %d\n%s", code, stderr)
	}
}

// TestImportHugoFailingBuild: a Hugo site whose pages kakehashi cannot
// build (a shortcode nobody defines) is imported, and the command says
// so with the build's errors at the imported page and the Hugo file it
// came from, and exits 1.
func TestImportHugoFailingBuild(t *testing.T) {
	src := filepath.Join(t.TempDir(), "hugo")
	writeFile(t, filepath.Join(src, "hugo.toml"), "title = \"x\"\n")
	writeFile(t, filepath.Join(src, "content", "a.md"), "---\ntitle: A\n---\n{{< unknown >}}\n")
	dest := filepath.Join(t.TempDir(), "site")
	code, stdout, stderr := runCLI("import", "hugo", src, dest)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if want := "  content/en/a.md:5:5: unknown shortcode \"unknown\""; !strings.Contains(stdout, want) || !strings.Contains(stdout, "(from content/a.md:4)\n") {
		t.Errorf("the report lacks %q (from content/a.md:4):\n%s", want, stdout)
	}
	if !strings.Contains(stdout, "; kakehashi build fails with 1 error\n") || !strings.Contains(stderr, "the site is in "+dest+", but kakehashi build fails on it") {
		t.Errorf("stdout %q\nstderr %q", stdout, stderr)
	}
}
