package markdown_test

import (
	"path/filepath"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/markdown/mdtest"
)

// caseParts is the CKA series as the case files see it: #2 and #5
// published, #4 planned, nothing else.
func caseParts(lang string) func(int) (markdown.PartLink, bool) {
	return func(n int) (markdown.PartLink, bool) {
		switch n {
		case 2:
			return markdown.PartLink{Href: "/" + lang + "/cka/02-incidents/", Title: "Part <2>", Published: true}, true
		case 5:
			return markdown.PartLink{Href: "/" + lang + "/cka/05-ha-cluster/", Title: "HA", Published: true}, true
		case 4:
			return markdown.PartLink{Title: "kubeadm"}, true
		}
		return markdown.PartLink{}, false
	}
}

// TestCaseFiles runs every testdata/cases/*.txt (goldmark's case-file
// format, see mdtest) as a Japanese page of the series caseParts.
func TestCaseFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files (%v)", err)
	}
	r := markdown.New(markdown.Options{})
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			mdtest.RunCaseFile(t, r, markdown.Env{Lang: "ja", Parts: caseParts("ja")}, f)
		})
	}
}
