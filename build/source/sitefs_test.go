package source

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// confinedSite is a site folder with links of every kind, and a folder
// outside it with a secret.
func confinedSite(t testing.TB) (root, outside string) {
	root, outside = t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"content/ja/a.md": "inside", "content/shared/b.md": "shared"})
	writeTree(t, outside, map[string]string{"secret.md": "outside", "dir/c.md": "outside too"})
	symlink(t, filepath.Join(root, "content/ja/a.md"), filepath.Join(root, "content/ja/in.md"))
	symlink(t, "../ja/a.md", filepath.Join(root, "content/ko/in-rel.md"))
	symlink(t, "../shared", filepath.Join(root, "content/ja/linked"))
	symlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "content/ja/out.md"))
	symlink(t, "../../../"+filepath.Base(outside)+"/secret.md", filepath.Join(root, "content/ja/out-rel.md"))
	symlink(t, outside, filepath.Join(root, "content/outdir"))
	symlink(t, filepath.Join(outside, "missing.md"), filepath.Join(root, "content/ja/dangling-out.md"))
	symlink(t, "loop-b.md", filepath.Join(root, "content/ja/loop-a.md"))
	symlink(t, "loop-a.md", filepath.Join(root, "content/ja/loop-b.md"))
	symlink(t, "..", filepath.Join(root, "content/ja/up"))
	return root, outside
}

// TestSiteFS reads through symbolic links that stay inside the site and
// refuses, with the error that names why, those that leave it or loop.
func TestSiteFS(t *testing.T) {
	root, outside := confinedSite(t)
	fsys, err := SiteFS(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string // the file's text, or the error it gives
		err  error
	}{
		{path: "content/ja/a.md", want: "inside"},
		{path: "/content/ja/a.md", want: "inside"},
		{path: "content/ja/in.md", want: "inside"},
		{path: "content/ko/in-rel.md", want: "inside"},
		{path: "content/ja/linked/b.md", want: "shared"},
		{path: "content/ja/out.md", err: ErrOutside, want: "symlink points outside the site (" + filepath.Join(outside, "secret.md") + ")"},
		{path: "content/ja/out-rel.md", err: ErrOutside},
		{path: "content/outdir/secret.md", err: ErrOutside},
		{path: "content/outdir/dir/c.md", err: ErrOutside},
		{path: "content/ja/dangling-out.md", err: ErrOutside},
		{path: "content/ja/loop-a.md", err: ErrLoop},
		{path: "../" + filepath.Base(outside) + "/secret.md", err: os.ErrNotExist},
		{path: "content/../../" + filepath.Base(outside) + "/secret.md", err: os.ErrNotExist},
	}
	for _, tc := range tests {
		b, err := afero.ReadFile(fsys, tc.path)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: read %q, %v; want %v", tc.path, b, err, tc.err)
			} else if tc.want != "" && err.Error() != tc.want {
				t.Errorf("%s: error %q, want %q", tc.path, err, tc.want)
			}
			if _, err := fsys.Stat(tc.path); err == nil {
				t.Errorf("%s: Stat succeeded", tc.path)
			}
			continue
		}
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.path, b, err, tc.want)
		}
	}
}

// TestSiteFSWalk walks into linked folders inside the site, and reports
// links out of it and loops as errors at their paths, never hanging.
func TestSiteFSWalk(t *testing.T) {
	root, _ := confinedSite(t)
	fsys, err := SiteFS(root)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	errs := map[string]error{}
	err = afero.Walk(fsys, "content", func(p string, info os.FileInfo, err error) error {
		p = filepath.ToSlash(p)
		if err != nil {
			errs[p] = err
			return nil
		}
		if !info.IsDir() {
			files[p] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"content/ja/a.md", "content/ja/in.md", "content/ja/linked/b.md", "content/shared/b.md", "content/ko/in-rel.md"} {
		if !files[p] {
			t.Errorf("walk did not find %s", p)
		}
	}
	want := map[string]error{
		"content/ja/out.md":          ErrOutside,
		"content/ja/out-rel.md":      ErrOutside,
		"content/outdir":             ErrOutside,
		"content/ja/dangling-out.md": ErrOutside,
		"content/ja/loop-a.md":       ErrLoop,
		"content/ja/loop-b.md":       ErrLoop,
		"content/ja/up":              ErrLoop,
	}
	for p, e := range want {
		if !errors.Is(errs[p], e) {
			t.Errorf("%s: walk error %v, want %v", p, errs[p], e)
		}
		delete(errs, p)
	}
	for p, err := range errs {
		t.Errorf("%s: unexpected walk error %v", p, err)
	}
	for p := range files {
		if strings.Contains(p, "secret") || strings.Contains(p, "/up/") {
			t.Errorf("walk went outside the site or round a loop: %s", p)
		}
	}
}

// TestSiteFSListing describes linked entries by their targets in a
// folder's listing, so a reader of a folder sees linked files as files.
func TestSiteFSListing(t *testing.T) {
	root, _ := confinedSite(t)
	fsys, _ := SiteFS(root)
	infos, err := afero.ReadDir(fsys, "content/ja")
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]os.FileMode{}
	for _, fi := range infos {
		modes[fi.Name()] = fi.Mode()
	}
	if !modes["in.md"].IsRegular() || !modes["linked"].IsDir() {
		t.Errorf("linked entries inside the site: in.md %v, linked %v; want a file and a folder", modes["in.md"], modes["linked"])
	}
	if modes["out.md"]&os.ModeSymlink == 0 {
		t.Errorf("out.md listed as %v: a link out of the site must stay a link", modes["out.md"])
	}
}

// TestLoadRefusesLinksOut loads content through the site's filesystem: a
// page linked to a file outside the site is an error at its path and its
// text is nowhere in what was loaded.
func TestLoadRefusesLinksOut(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{
		"content/ja/cka/01-a.md": "---\ntitle: A\n---\nbody\n",
		"content/ko/cka/01-a.md": "---\ntitle: A\n---\nbody\n",
	})
	writeTree(t, outside, map[string]string{"passwd": "root:x:0:0:root:/root:/bin/bash\n"})
	symlink(t, filepath.Join(outside, "passwd"), filepath.Join(root, "content/ja/cka/zz-passwd.md"))
	symlink(t, outside, filepath.Join(root, "content/ko/cka/outside"))
	symlink(t, "../cka", filepath.Join(root, "content/ko/cka/again"))
	fsys, _ := SiteFS(root)
	c, diags := Load(context.Background(), fsys, "content", []string{"ja", "ko"})
	got := map[string]string{}
	for _, d := range diags {
		got[d.Path] = d.String()
	}
	want := map[string]string{
		"content/ja/cka/zz-passwd.md": "content/ja/cka/zz-passwd.md: symlink points outside the site (" + filepath.Join(outside, "passwd") + ")",
		"content/ko/cka/outside":      "content/ko/cka/outside: symlink points outside the site (" + outside + ")",
		"content/ko/cka/again":        "content/ko/cka/again: symlink loop: it leads back to content/ko/cka, a folder that holds it",
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: got %q, want %q", p, got[p], w)
		}
	}
	if len(diags) != len(want) {
		t.Errorf("diagnostics %v, want %d", diags, len(want))
	}
	for _, p := range c.Pages {
		if strings.Contains(string(p.Src), "root:x") {
			t.Errorf("%s: the outside file was loaded", p.Path)
		}
	}
}

// TestLoadRefusesBadNames: a name that cannot be one segment of an output
// path is an error at its path, and nothing is read through it.
func TestLoadRefusesBadNames(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		`content/ja/x\..\..\zz\pwn.md`: "---\ntitle: x\n---\n",
		"content/ja/ok.md":             "---\ntitle: ok\n---\n",
		"content/ja/tab\there/a.md":    "---\ntitle: a\n---\n",
	})
	fsys, _ := SiteFS(root)
	c, diags := Load(context.Background(), fsys, "content", []string{"ja"})
	if len(c.Pages) != 1 || c.Pages[0].Rel != "ok.md" {
		t.Errorf("pages %v, want only ok.md", c.Pages)
	}
	want := []string{
		`content/ja/tab` + "\t" + `here: this folder name cannot be published: "tab\there" contains the control character U+0009`,
		`content/ja/x\..\..\zz\pwn.md: this file name cannot be published: "x\\..\\..\\zz\\pwn.md" contains '\\': it must be a single name, not a path`,
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadRefusesHugeFiles: a content file over MaxFileSize is an error
// before it is read.
func TestLoadRefusesHugeFiles(t *testing.T) {
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "content/ja/big.md", make([]byte, MaxFileSize+1), 0o644)
	afero.WriteFile(fsys, "content/ja/ok.md", []byte("ok"), 0o644)
	c, diags := Load(context.Background(), fsys, "content", []string{"ja"})
	if len(c.Pages) != 1 || len(diags) != 1 || diags[0].String() != "content/ja/big.md: the file is 8.0 MB, over the limit of 8.0 MB for one content file: split it into several parts" {
		t.Errorf("pages %d, diagnostics %v", len(c.Pages), diags)
	}
}

func TestCheckSegment(t *testing.T) {
	for _, s := range []string{"cka", "05-ha-cluster", "한국어", "日本語.md", "a.b", "v1.2"} {
		if err := CheckSegment(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"", ".", "..", "a/b", `a\b`, "../x", "C:", "c:x", "a\x00b", "a\nb", "\x7f", " a", "a ", "a\u2028b", "\xff", "a b"} {
		if err := CheckSegment(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

// FuzzSiteFS opens arbitrary names in a site with links of every kind: a
// file that opens is always inside the site, whatever the name.
func FuzzSiteFS(f *testing.F) {
	for _, s := range []string{"content/ja/a.md", "content/ja/linked/b.md", "content/outdir/secret.md", "../x", "content/ja/up/ja/up/a.md", "/etc/passwd", "content/ja/../../..", "content/ja/out.md/", "content/./ja//a.md"} {
		f.Add(s)
	}
	root, _ := confinedSite(f)
	fsys, err := SiteFS(root)
	if err != nil {
		f.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	f.Fuzz(func(t *testing.T, name string) {
		file, err := fsys.Open(name)
		if err != nil {
			return
		}
		defer file.Close()
		fi, err := file.Stat()
		if err != nil {
			return
		}
		if !fi.IsDir() {
			b, _ := io.ReadAll(file)
			if strings.Contains(string(b), "outside") {
				t.Fatalf("%q read a file outside the site", name)
			}
		}
		// Whatever opened must be some file of the site.
		found := false
		filepath.Walk(realRoot, func(p string, info os.FileInfo, err error) error {
			if err == nil && os.SameFile(info, fi) {
				found = true
				return filepath.SkipAll
			}
			return nil
		})
		if !found {
			t.Fatalf("%q opened something that is not in the site", name)
		}
	})
}
