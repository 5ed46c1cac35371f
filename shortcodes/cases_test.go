package shortcodes

import (
	"path/filepath"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/markdown/mdtest"
	"github.com/yuin/goldmark"
)

// TestCaseFiles runs every testdata/cases/*.txt (goldmark's case-file
// format, see mdtest) as a Japanese page of testEnv with the built-ins:
// literal.txt, shortcodes in code that stay text (a plain call warned
// of, the comment form shown as Hugo shows it); places.txt, the places a
// call works.
func TestCaseFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files (%v)", err)
	}
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(NewRegistry())}})
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			mdtest.RunCaseFile(t, r, testEnv("ja"), f)
		})
	}
}
