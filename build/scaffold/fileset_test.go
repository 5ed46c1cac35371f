package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// errDiskFull is what failingFs answers, as a full disk does.
var errDiskFull = syscall.ENOSPC

// failingFs is the OS's filesystem as it is when the disk fills up: from
// its fail-th write on (a folder or file made, bytes written, a file
// synced, closed, renamed or given permissions), every write fails, while
// reading and removing still work.
type failingFs struct {
	afero.Fs
	fail, writes int
}

var _ afero.Fs = (*failingFs)(nil)

// full counts one write and reports whether it fails.
func (f *failingFs) full() bool {
	f.writes++
	return f.writes >= f.fail
}

func (f *failingFs) err(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: errDiskFull}
}

func (f *failingFs) Mkdir(name string, perm os.FileMode) error {
	if f.full() {
		return f.err("mkdir", name)
	}
	return f.Fs.Mkdir(name, perm)
}

func (f *failingFs) MkdirAll(name string, perm os.FileMode) error {
	if f.full() {
		return f.err("mkdir", name)
	}
	return f.Fs.MkdirAll(name, perm)
}

func (f *failingFs) Create(name string) (afero.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (f *failingFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) == 0 {
		return f.Fs.OpenFile(name, flag, perm)
	}
	if f.full() {
		return nil, f.err("open", name)
	}
	file, err := f.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &failingFile{File: file, fs: f}, nil
}

func (f *failingFs) Rename(from, to string) error {
	if f.full() {
		return f.err("rename", from)
	}
	return f.Fs.Rename(from, to)
}

func (f *failingFs) Chmod(name string, mode os.FileMode) error {
	if f.full() {
		return f.err("chmod", name)
	}
	return f.Fs.Chmod(name, mode)
}

// failingFile is a file opened for writing on a failingFs.
type failingFile struct {
	afero.File
	fs *failingFs
}

func (f *failingFile) Write(b []byte) (int, error) {
	if f.fs.full() {
		return 0, f.fs.err("write", f.Name())
	}
	return f.File.Write(b)
}

func (f *failingFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *failingFile) WriteAt(b []byte, off int64) (int, error) {
	if f.fs.full() {
		return 0, f.fs.err("write", f.Name())
	}
	return f.File.WriteAt(b, off)
}

func (f *failingFile) Sync() error {
	if f.fs.full() {
		return f.fs.err("sync", f.Name())
	}
	return f.File.Sync()
}

func (f *failingFile) Close() error {
	err := f.File.Close()
	if f.fs.full() {
		return f.fs.err("close", f.Name())
	}
	return err
}

// tree maps every file and folder under dir (relative, slash-separated)
// to its permissions and bytes ("/" for a folder).
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel] = "/"
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = fmt.Sprintf("%v %s", info.Mode(), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree reports how two trees differ, or "".
func sameTree(got, want map[string]string) string {
	var diffs []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			diffs = append(diffs, "missing "+p)
		} else if g != w {
			diffs = append(diffs, "changed "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diffs = append(diffs, "extra "+p)
		}
	}
	if len(diffs) > 5 {
		diffs = append(diffs[:5], "...")
	}
	return strings.Join(diffs, ", ")
}

// writeFile writes a file of the test's, making its folder.
func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// allOrNothing plans and writes files, with the disk filling up at each
// of the writes in turn: every failure must be the full disk's, not the
// author's to mend, say that nothing changed and leave the folder top
// exactly as it was, and the same plan made again and written with room
// on the disk must succeed. It stops once the plan needs no more writes
// than the disk allows.
func allOrNothing(t *testing.T, top string, setup func(), write func(fsys afero.Fs) error) {
	t.Helper()
	for n := 1; ; n++ {
		os.RemoveAll(top)
		setup()
		before := tree(t, top)
		err := write(&failingFs{Fs: afero.NewOsFs(), fail: n})
		if err == nil {
			if n < 3 {
				t.Fatalf("the plan was written with the disk full at its write %d", n)
			}
			t.Logf("the plan needs %d writes", n-1)
			return
		}
		var u UsageError
		if errors.As(err, &u) || errors.Is(err, ErrExists) || !errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), "nothing changed") {
			t.Fatalf("disk full at write %d: %v", n, err)
		}
		if d := sameTree(tree(t, top), before); d != "" {
			t.Fatalf("disk full at write %d: the failed write left %s\nerror: %v", n, d, err)
		}
		if err := write(afero.NewOsFs()); err != nil {
			t.Fatalf("disk full at write %d: the plan written again: %v", n, err)
		}
		if n > 100 {
			t.Fatal("the plan was never written")
		}
	}
}

// TestPartAllOrNothing: a new part's pages and its series edit are
// written all together or not at all, the series file's permissions
// kept.
func TestPartAllOrNothing(t *testing.T) {
	top := filepath.Join(t.TempDir(), "site")
	series := "id: s\ntitle: {ja: S, ko: S}\nparts:\n  - number: 1\n    state: published\n"
	setup := func() {
		writeFile(t, filepath.Join(top, "kakehashi.toml"), "languages = [\"ja\", \"ko\"]\n", 0o644)
		writeFile(t, filepath.Join(top, "content", "series", "s.yaml"), series, 0o600)
		writeFile(t, filepath.Join(top, "content", "ja", "s", "01-one.md"), "---\ntitle: 一\nseries: s\npart: 1\n---\n", 0o644)
	}
	allOrNothing(t, top, setup, func(fsys afero.Fs) error {
		site, err := source.SiteFS(top)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := PlanPart(context.Background(), site, top, PartRequest{Series: "s", Number: 2, Slug: "two"})
		if err != nil {
			t.Fatal(err)
		}
		return plan.Write(fsys)
	})
	for _, lang := range []string{"ja", "ko"} {
		if _, err := os.Stat(filepath.Join(top, "content", lang, "s", "02-two.md")); err != nil {
			t.Error(err)
		}
	}
	p := filepath.Join(top, "content", "series", "s.yaml")
	if b, _ := os.ReadFile(p); !strings.Contains(string(b), "number: 2") {
		t.Errorf("the series file was not edited:\n%s", b)
	}
	if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the series file's permissions: %v, %v; want -rw-------", info.Mode(), err)
	}
}

// TestSiteAllOrNothing: a new site is written whole or not at all, not
// even its folder.
func TestSiteAllOrNothing(t *testing.T) {
	top := filepath.Join(t.TempDir(), "top")
	site := filepath.Join(top, "deep", "course")
	allOrNothing(t, top, func() { os.MkdirAll(top, 0o755) }, func(fsys afero.Fs) error {
		os.RemoveAll(filepath.Join(top, "deep")) // the write again starts afresh too
		plan, err := PlanSite(context.Background(), fsys, site, SiteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return plan.Write(fsys)
	})
	if _, err := os.Stat(filepath.Join(site, "kakehashi.toml")); err != nil {
		t.Error(err)
	}
}

// TestWriteStopsAtAChange: a file that appeared since the plan was made,
// or a series file edited since, stops the writing, and what was written
// before is taken back.
func TestWriteStopsAtAChange(t *testing.T) {
	ctx := context.Background()
	t.Run("a page that appeared", func(t *testing.T) {
		mem := newSite(t, partSite)
		plan, err := PlanPart(ctx, siteView(mem), "site", PartRequest{Series: "cka", Number: 3, Slug: "three"})
		if err != nil {
			t.Fatal(err)
		}
		afero.WriteFile(mem, "site/content/ko/cka/03-three.md", []byte("mine\n"), 0o644)
		before := memTree(t, mem)
		err = plan.Write(mem)
		if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "site/content/ko/cka/03-three.md already exists; nothing was written") {
			t.Errorf("got %v", err)
		}
		if d := sameTree(memTree(t, mem), before); d != "" {
			t.Errorf("the stopped write left %s", d)
		}
	})
	t.Run("a series file edited", func(t *testing.T) {
		mem := newSite(t, partSite)
		plan, err := PlanPart(ctx, siteView(mem), "site", PartRequest{Series: "cka", Number: 3, Slug: "three"})
		if err != nil {
			t.Fatal(err)
		}
		afero.WriteFile(mem, "site/content/series/cka.yaml", []byte("id: cka\nparts:\n"), 0o644)
		before := memTree(t, mem)
		err = plan.Write(mem)
		if err == nil || errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "site/content/series/cka.yaml changed while it was being edited; run the command again; what was written so far was removed, nothing changed") {
			t.Errorf("got %v", err)
		}
		if d := sameTree(memTree(t, mem), before); d != "" {
			t.Errorf("the stopped write left %s", d)
		}
	})
}
