package export

import (
	"archive/zip"
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

func TestExplicitIndex(t *testing.T) {
	tests := []struct{ in, want string }{
		{"../02-control-plane/", "../02-control-plane/index.html"},
		{"../../../ko/cka/05-ha-cluster/", "../../../ko/cka/05-ha-cluster/index.html"},
		{"./", "./index.html"},
		{".", "./index.html"},
		{"..", "../index.html"},
		{"../", "../index.html"},
		{"ja/", "ja/index.html"},
		{"../x/#quorum", "../x/index.html#quorum"},
		{"../x/?q=1", "../x/index.html?q=1"},
		{"#top", "#top"},
		{"../css/main.css", "../css/main.css"},
		{"https://example.org/ja/", "https://example.org/ja/"},
		{"/ja/", "/ja/"},
		{"mailto:a@b", "mailto:a@b"},
		{"", ""},
		{"../한국어/", "../한국어/index.html"},
	}
	for _, tt := range tests {
		if got := ExplicitIndex(tt.in); got != tt.want {
			t.Errorf("ExplicitIndex(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestZipDeterministic(t *testing.T) {
	s := output.New()
	s.Put("index.html", []byte("<p>root</p>"))
	s.Put("ja/index.html", []byte("<p>ja</p>"))
	var a, b bytes.Buffer
	if err := Zip(context.Background(), &a, "course", s); err != nil {
		t.Fatal(err)
	}
	if err := Zip(context.Background(), &b, "course", s); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two zips of the same site differ")
	}
	r, err := zip.NewReader(bytes.NewReader(a.Bytes()), int64(a.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.File) != 2 || r.File[0].Name != "course/index.html" || r.File[1].Name != "course/ja/index.html" {
		t.Fatalf("entries: %v", r.File)
	}
}

// TestSite: the offline copy leaves out what only a server uses, the 404
// page, the sitemap and robots.txt, and keeps every other file, the
// other generated ones among them.
func TestSite(t *testing.T) {
	s := output.New()
	for _, p := range []string{"index.html", "404.html", "robots.txt", "sitemap.xml", "ja/index.html", "ja/index.xml", "ja/search-index.js", "css/chroma.css"} {
		s.Put(p, []byte(p))
	}
	got := Site(s).Paths()
	want := []string{"css/chroma.css", "index.html", "ja/index.html", "ja/index.xml", "ja/search-index.js"}
	if !slices.Equal(got, want) {
		t.Errorf("paths %q, want %q", got, want)
	}
	if len(s.Paths()) != 8 {
		t.Errorf("the build's site lost files: %q", s.Paths())
	}
}

// TestFiles: the copy is the offline site (Site); the two kinds default
// to folders of their own in the site folder.
func TestFiles(t *testing.T) {
	s := output.New()
	for _, p := range []string{"index.html", "404.html", "ja/index.html"} {
		s.Put(p, []byte(p))
	}
	got, err := Files(Course{Site: s}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"index.html", "ja/index.html"}; !slices.Equal(got.Paths(), want) {
		t.Errorf("copy: %q, want %q", got.Paths(), want)
	}
	if a, b := DefaultOut("site", false), DefaultOut("site", true); a != filepath.Join("site", Dir) || b != filepath.Join("site", SingleDir) || a == b {
		t.Errorf("default folders %s and %s", a, b)
	}
}
