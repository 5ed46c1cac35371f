package themes

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/i18n"
)

// TestScriptsNameNoLanguage: the theme's scripts take a page's language
// from the page (<html lang>, what the build wrote), never default to
// or compare with a language's name: no script holds one of the
// languages the binary has strings for as a string.
func TestScriptsNameNoLanguage(t *testing.T) {
	files, err := fs.Glob(i18n.Defaults(), "*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no embedded strings: %v", err)
	}
	var langs []string
	for _, f := range files {
		langs = append(langs, regexp.QuoteMeta(strings.TrimSuffix(f, ".toml")))
	}
	named := regexp.MustCompile(`["'\x60](` + strings.Join(langs, "|") + `)["'\x60]`)
	err = fs.WalkDir(Default(), "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".js" {
			return err
		}
		src, err := fs.ReadFile(Default(), p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := named.FindString(line); m != "" {
				t.Errorf("%s:%d: the script names the language %s: %s", p, i+1, m, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
