package build

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// diskTree is every file under dir on the operating system's disk, by
// slash path: its bytes and its stamp.
type diskTree map[string]diskFile

type diskFile struct {
	data  string
	stamp output.Stamp
}

func readTree(t *testing.T, dir string) diskTree {
	t.Helper()
	out := diskTree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = diskFile{string(b), output.Stamp{Size: info.Size(), MTime: info.ModTime().UnixNano()}}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// sameBytes reports the first difference between the bytes of two trees.
func sameBytes(got, want diskTree) string {
	for p, f := range want {
		g, ok := got[p]
		switch {
		case !ok:
			return p + " is missing"
		case g.data != f.data:
			return p + " differs"
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			return p + " should not be there"
		}
	}
	return ""
}

// TestOnePageInPlace builds as the CLI does, on the operating system's
// disk with the persistent cache. After a cold build, a one-page change
// whose build fails (another page in error) or is interrupted leaves the
// destination exactly as it was, every file's bytes and time; the build
// that succeeds updates it in place (the folder is the same folder) and
// gives the bytes of a cold build of the same input.
func TestOnePageInPlace(t *testing.T) {
	in, cacheFs, osFs := repoFs(t), afero.NewMemMapFs(), afero.NewOsFs()
	root := t.TempDir()
	dest := filepath.Join(root, "public")
	build := func(ctx context.Context, o Options, dest string) (*Result, error) {
		o.BaseURL = "https://example.org/course/"
		b, err := New(in, o)
		if err != nil {
			t.Fatal(err)
		}
		st, err := output.Stage(ctx, osFs, dest)
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.BuildTo(ctx, st)
		if err != nil {
			st.Abort()
			return nil, err
		}
		return res, st.Commit(ctx)
	}
	cached := Options{CacheDir: "/cache", CacheFs: cacheFs, SkipUnchanged: true}
	if _, err := build(context.Background(), cached, dest); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, dest)
	folder, err := os.Stat(dest)
	if err != nil {
		t.Fatal(err)
	}

	const art, other = "content/ja/cka/05-ha-cluster.md", "content/ko/cka/05-ha-cluster.md"
	afero.WriteFile(in, art, append(mustRead(t, in, art), "\n追記した段落です。\n"...), 0o644)
	good := mustRead(t, in, other)
	afero.WriteFile(in, other, append([]byte("---\ntitle: [unclosed\n---\n"), good...), 0o644)
	if _, err := build(context.Background(), cached, dest); err == nil {
		t.Fatal("a page in error, yet the build succeeded")
	}
	if got := readTree(t, dest); !maps.Equal(got, before) {
		t.Fatalf("a failed build changed the destination: %s", sameBytes(got, before))
	}

	afero.WriteFile(in, other, good, 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	o := cached
	o.Progress = func(done, total int) {
		if done > total/2 {
			cancel()
		}
	}
	var stopped *InterruptedError
	if _, err := build(ctx, o, dest); !errors.As(err, &stopped) {
		t.Fatalf("an interrupted build: %v", err)
	}
	if got := readTree(t, dest); !maps.Equal(got, before) {
		t.Fatalf("an interrupted build changed the destination: %s", sameBytes(got, before))
	}

	res, err := build(context.Background(), cached, dest)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reused == 0 || res.Rendered != 2 {
		t.Errorf("the one-page build rendered %d pages and reused %d files; want 2 and most", res.Rendered, res.Reused)
	}
	if now, err := os.Stat(dest); err != nil || !os.SameFile(now, folder) {
		t.Error("the one-page build replaced the destination instead of updating it in place")
	}
	after := readTree(t, dest)
	if after["ja/cka/05-ha-cluster/index.html"].data == before["ja/cka/05-ha-cluster/index.html"].data {
		t.Error("the edited page is as it was")
	}
	if f := "index.html"; after[f] != before[f] {
		t.Errorf("%s, unchanged, was written again", f)
	}
	coldDest := filepath.Join(root, "cold")
	if _, err := build(context.Background(), Options{}, coldDest); err != nil {
		t.Fatal(err)
	}
	if d := sameBytes(after, readTree(t, coldDest)); d != "" {
		t.Errorf("after the one-page build in place, %s, next to a cold build", d)
	}
	// The folders of the output an hour old, as a later edit finds
	// them: the next build takes their entries from its listing's hint;
	// a file put into one since, and one edited in place, are found all
	// the same, and the output is again a cold build's.
	hour := time.Now().Add(-time.Hour)
	filepath.WalkDir(dest, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chtimes(p, hour, hour)
		}
		return nil
	})
	afero.WriteFile(in, art, append(mustRead(t, in, art), "\n三度目の追記。\n"...), 0o644)
	if _, err := build(context.Background(), cached, dest); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dest, "ja", "stray.txt"), []byte("not ours"), 0o644)
	edited := filepath.Join(dest, "ko", "index.html")
	os.WriteFile(edited, append(must(os.ReadFile(edited)), "<!-- edited -->"...), 0o644)
	afero.WriteFile(in, art, append(mustRead(t, in, art), "\n四度目の追記。\n"...), 0o644)
	if _, err := build(context.Background(), cached, dest); err != nil {
		t.Fatal(err)
	}
	if _, err := build(context.Background(), Options{}, coldDest); err != nil {
		t.Fatal(err)
	}
	after = readTree(t, dest)
	if d := sameBytes(after, readTree(t, coldDest)); d != "" {
		t.Errorf("after a stray file and a file edited in place, %s, next to a cold build", d)
	}

	// Nothing changed since: the next build does nothing.
	if res, err := build(context.Background(), cached, dest); err != nil || !res.Unchanged {
		t.Errorf("the build after: %v, unchanged %v", err, res != nil && res.Unchanged)
	}
	if got := readTree(t, dest); !maps.Equal(got, after) {
		t.Errorf("the build that had nothing to do changed the destination: %s", sameBytes(got, after))
	}
}
