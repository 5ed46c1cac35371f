package export

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

func testSite() *output.Site {
	s := output.New()
	s.Put("index.html", []byte("<p>root</p>"))
	s.Put("ja/index.html", []byte("<p>ja</p>"))
	return s
}

// zipWith is a zip of one file with the comment c.
func zipWith(t *testing.T, c string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	if c != "" {
		zw.SetComment(c)
	}
	w, _ := zw.Create("a.txt")
	w.Write([]byte("a"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestIsZip(t *testing.T) {
	var ours bytes.Buffer
	if err := Zip(context.Background(), &ours, "course", testSite()); err != nil {
		t.Fatal(err)
	}
	// A large file of ours: only its end is read.
	var big bytes.Buffer
	large := output.New()
	large.Put("big.bin", bytes.Repeat([]byte{0xa5}, 3<<20))
	if err := Zip(context.Background(), &big, "course", large); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want bool
	}{
		{"a zip Zip wrote", ours.Bytes(), true},
		{"a large zip Zip wrote", big.Bytes(), true},
		{"a zip without a comment", zipWith(t, ""), false},
		{"a zip with another comment", zipWith(t, "made by hand"), false},
		{"a zip whose comment ends in ours", zipWith(t, "not "+ZipComment), false},
		{"a text ending in the comment", []byte("notes: " + ZipComment), false},
		{"a file shorter than a record", []byte("PK"), false},
		{"an empty file", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			afero.WriteFile(fs, "/f.zip", tc.data, 0o644)
			if got := IsZip(fs, "/f.zip"); got != tc.want {
				t.Errorf("IsZip = %v, want %v", got, tc.want)
			}
		})
	}
	fs := afero.NewMemMapFs()
	fs.MkdirAll("/dir.zip", 0o755)
	if IsZip(fs, "/dir.zip") || IsZip(fs, "/missing.zip") {
		t.Error("a folder or a missing file taken for a zip")
	}
	fifo := filepath.Join(t.TempDir(), "fifo.zip")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if IsZip(afero.NewOsFs(), fifo) { // would block forever if it opened it
		t.Error("a FIFO taken for a zip")
	}
}

// TestCheckZip pins which zip paths are refused, and how.
func TestCheckZip(t *testing.T) {
	top := t.TempDir()
	site := filepath.Join(top, "site")
	osfs := afero.NewOsFs()
	var ours bytes.Buffer
	if err := Zip(context.Background(), &ours, "course", testSite()); err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string][]byte{
		"site/kakehashi.toml":           []byte("languages = [\"ja\"]\n"),
		"site/content/series/s.yaml":    []byte("id: s\n"),
		"site/notes.txt":                []byte("notes"),
		"site/ours.zip":                 ours.Bytes(),
		"site/theirs.zip":               []byte("theirs"),
		"theirs.zip":                    []byte("theirs"),
		"site/public-offline/index.htm": []byte("x"),
	} {
		full := filepath.Join(top, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(top, "folder.zip"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(top, "fifo.zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(site, "kakehashi.toml"), filepath.Join(top, "toml.zip")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "nowhere"), filepath.Join(top, "dangling.zip")); err != nil {
		t.Fatal(err)
	}
	place := ZipPlace{Site: output.Dirs{Root: site, Inputs: []string{"content", "themes"}}, Config: "kakehashi.toml",
		Out: filepath.Join(site, "public-offline"), Build: "public"}
	for _, tc := range []struct {
		path   string
		force  bool
		reason string // "" when accepted
	}{
		{path: "site/course.zip"},
		{path: "site/ours.zip"},
		{path: "course.zip"},
		{path: "site/Course.ZIP"},
		{path: "theirs.zip", force: true},
		{path: "site/theirs.zip", force: true},
		{path: "theirs.zip", reason: "it exists and is not a zip kakehashi wrote; pass --force to replace it"},
		{path: "site/kakehashi.toml", force: true, reason: "it is the site's configuration file kakehashi.toml; writing it would replace the site's sources"},
		{path: "toml.zip", force: true, reason: "it is the site's configuration file kakehashi.toml"},
		{path: "site/notes.txt", force: true, reason: "it is inside the site folder and its name does not end in .zip"},
		{path: "site/course", reason: "its name does not end in .zip"},
		{path: "site/content/series/s.yaml", force: true, reason: "it is inside the site's content folder"},
		{path: "site/content/c.zip", reason: "it is inside the site's content folder"},
		{path: "site/public-offline/c.zip", reason: "it is inside the export's folder " + filepath.Join(site, "public-offline") + ", which each export replaces whole; write the zip beside it"},
		{path: "site/public-offline", reason: "it is a folder, not a file"},
		{path: "site/public/c.zip", reason: "it is inside the site's build output " + filepath.Join(site, "public") + ", which each build replaces whole"},
		{path: "site/missing/c.zip", reason: "its folder " + filepath.Join(site, "missing") + " does not exist"},
		{path: "folder.zip", force: true, reason: "it is a folder, not a file"},
		{path: "fifo.zip", force: true, reason: "it is not a regular file; only a regular file is replaced"},
		{path: "dangling.zip", force: true, reason: "it is a symbolic link that leads nowhere"},
	} {
		p := place
		p.Force = tc.force
		file := filepath.Join(top, filepath.FromSlash(tc.path))
		_, err := CheckZip(osfs, file, p)
		var de *output.DestError
		switch {
		case tc.reason == "" && err != nil:
			t.Errorf("%s (force %v): %v, want it accepted", tc.path, tc.force, err)
		case tc.reason != "" && (!errors.As(err, &de) || de.Path != file || !strings.Contains(de.Reason, tc.reason)):
			t.Errorf("%s (force %v): %v, want %q", tc.path, tc.force, err, tc.reason)
		case tc.reason != "" && de.Forcible != strings.Contains(tc.reason, "--force"):
			t.Errorf("%s: Forcible = %v", tc.path, de.Forcible)
		}
	}
	// A link leads the zip where it points, and the link stays.
	if err := os.Symlink(filepath.Join(top, "theirs.zip"), filepath.Join(site, "link.zip")); err != nil {
		t.Fatal(err)
	}
	p := place
	p.Force = true
	if got, err := CheckZip(osfs, filepath.Join(site, "link.zip"), p); err != nil || got != filepath.Join(top, "theirs.zip") {
		t.Errorf("a link: %q, %v; want its target", got, err)
	}
}

// TestWriteZip: the zip replaces the file through a rename, readable by
// all; a failed write leaves the old file and nothing beside it.
func TestWriteZip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "course.zip")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	fs := afero.NewOsFs()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := WriteZip(ctx, fs, path, "course", testSite()); err == nil {
		t.Fatal("a cancelled write succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("a failed write changed the file: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("a failed write left %d files", len(entries))
	}
	if err := WriteZip(context.Background(), fs, path, "course", testSite()); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", info.Mode().Perm())
	}
	if !IsZip(fs, path) {
		t.Error("the zip written is not recognised")
	}
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.File) != 2 || r.Comment != ZipComment {
		t.Errorf("%d entries, comment %q", len(r.File), r.Comment)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the write left %d files", len(entries))
	}
}

func TestCheckKind(t *testing.T) {
	fs := afero.NewMemMapFs()
	put := func(dir, kind string, files ...string) {
		s := output.New()
		for _, f := range files {
			s.Put(f, []byte("x"))
		}
		if kind != "" {
			s = output.WithKind(s, kind)
		}
		if err := output.Publish(context.Background(), fs, dir, s); err != nil {
			t.Fatal(err)
		}
	}
	put("/copy", KindCopy, "index.html", "ja/index.html")
	put("/single", KindSingleFile, "course-ja.html", "course-ko.html")
	put("/oldsingle", "", "course-ja.html", "course-ko.html")
	put("/build", "", "index.html", "404.html")
	put("/other", "serve", "index.html")
	fs.MkdirAll("/empty", 0o755)
	for _, tc := range []struct {
		dir, kind, reason string
	}{
		{"/copy", KindCopy, ""},
		{"/build", KindCopy, ""},
		{"/missing", KindCopy, ""},
		{"/empty", KindSingleFile, ""},
		{"/single", KindSingleFile, ""},
		{"/oldsingle", KindSingleFile, ""},
		{"/copy", KindSingleFile, "it holds an offline copy of the site (kakehashi export), not a single-file course (kakehashi export --single-file); pass --force to replace it"},
		{"/build", KindSingleFile, "it holds a site kakehashi built, not a single-file course"},
		{"/single", KindCopy, "it holds a single-file course (kakehashi export --single-file), not an offline copy of the site (kakehashi export)"},
		{"/oldsingle", KindCopy, "it holds a single-file course"},
		{"/other", KindCopy, `it holds kakehashi output of the kind "serve"`},
	} {
		err := CheckKind(fs, tc.dir, tc.kind, false)
		var de *output.DestError
		switch {
		case tc.reason == "" && err != nil:
			t.Errorf("%s for %s: %v, want it accepted", tc.dir, tc.kind, err)
		case tc.reason != "" && (!errors.As(err, &de) || !de.Forcible || !strings.Contains(de.Reason, tc.reason)):
			t.Errorf("%s for %s: %v, want %q", tc.dir, tc.kind, err, tc.reason)
		}
		if err := CheckKind(fs, tc.dir, tc.kind, true); err != nil {
			t.Errorf("%s for %s, forced: %v", tc.dir, tc.kind, err)
		}
	}
}
