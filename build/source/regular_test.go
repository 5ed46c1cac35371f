package source

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// specialSite is a site folder holding a named pipe, a link to it, a
// unix socket and (as root) a character device, each where a page or a
// page folder's file would be; it returns the paths made and their kinds.
func specialSite(t *testing.T) (root string, kinds map[string]string) {
	t.Helper()
	root = t.TempDir()
	writeTree(t, root, map[string]string{
		"content/ja/cka/01-a.md":        "---\ntitle: A\n---\nbody\n",
		"content/ja/cka/02-b/index.md":  "---\ntitle: B\n---\nbody\n",
		"content/ja/cka/02-b/photo.png": "png",
	})
	kinds = map[string]string{}
	mkfifo(t, filepath.Join(root, "content/ja/cka/pipe.md"))
	kinds["content/ja/cka/pipe.md"] = "a named pipe"
	mkfifo(t, filepath.Join(root, "content/ja/cka/02-b/movie.mp4"))
	kinds["content/ja/cka/02-b/movie.mp4"] = "a named pipe"
	symlink(t, "pipe.md", filepath.Join(root, "content/ja/cka/linked.md"))
	kinds["content/ja/cka/linked.md"] = "a named pipe"
	// A socket's path is short: the OS limits it to about 100 bytes.
	sock := filepath.Join(root, "content/ja/s")
	if l, err := net.Listen("unix", sock); err != nil {
		t.Logf("no unix socket (%v): that case is left out", err)
	} else {
		t.Cleanup(func() { l.Close() })
		kinds["content/ja/s"] = "a socket"
	}
	if os.Geteuid() == 0 {
		// /dev/null's numbers: reading it would end at once, but it is
		// refused before that by its kind.
		if err := syscall.Mknod(filepath.Join(root, "content/ja/cka/dev.md"), syscall.S_IFCHR|0o644, 1<<8|3); err != nil {
			t.Fatalf("mknod as root: %v", err)
		}
		kinds["content/ja/cka/dev.md"] = "a character device"
	} else if os.Getenv("CI") == "" {
		t.Log("not root: the device case is left out (it needs mknod)")
	} else {
		t.Fatal("CI runs as root, and this test needs mknod")
	}
	return root, kinds
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
}

// noHang runs fn, failing the test if it has not returned after a long
// while: what it guards against is waiting for ever, on a named pipe
// without a writer.
func noHang(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s never returned: it waits on a file that is not a regular one", what)
	}
}

// TestSiteFSRefusesSpecialFiles: a named pipe, a socket or a device, as it
// is or through a link, is never opened: Open says what it is, at once.
func TestSiteFSRefusesSpecialFiles(t *testing.T) {
	root, kinds := specialSite(t)
	fsys, err := SiteFS(root)
	if err != nil {
		t.Fatal(err)
	}
	for p, kind := range kinds {
		noHang(t, "Open("+p+")", func() {
			f, err := fsys.Open(p)
			if err == nil {
				f.Close()
				t.Errorf("%s (%s) opened", p, kind)
				return
			}
			var ne *NotRegularError
			if !errors.Is(err, ErrNotRegular) || !errors.As(err, &ne) {
				t.Errorf("%s: error %v, want a *NotRegularError", p, err)
				return
			}
			if want := "not a regular file (" + kind + "): remove it"; err.Error() != want || ne.Path != p {
				t.Errorf("%s: error %q at %q, want %q", p, err, ne.Path, want)
			}
		})
		noHang(t, "ReadFile("+p+")", func() {
			if _, err := afero.ReadFile(fsys, p); !errors.Is(err, ErrNotRegular) {
				t.Errorf("ReadFile(%s): %v, want ErrNotRegular", p, err)
			}
		})
	}
	if b, err := afero.ReadFile(fsys, "content/ja/cka/01-a.md"); err != nil || !strings.Contains(string(b), "title: A") {
		t.Errorf("a regular file: %q, %v", b, err)
	}
	if _, err := afero.ReadDir(fsys, "content/ja/cka"); err != nil {
		t.Errorf("a folder: %v", err)
	}
}

// TestLoadReportsSpecialFiles: the content walk reports each file that is
// not a regular one at its path, reads the rest, and never hangs.
func TestLoadReportsSpecialFiles(t *testing.T) {
	root, kinds := specialSite(t)
	fsys, _ := SiteFS(root)
	var c *Content
	var diags []string
	noHang(t, "Load", func() {
		content, ds := Load(context.Background(), fsys, "content", []string{"ja"})
		c = content
		for _, d := range ds {
			diags = append(diags, d.String())
		}
	})
	var want []string
	for p, kind := range kinds {
		want = append(want, p+": not a regular file ("+kind+"): remove it")
	}
	sort.Strings(want)
	sort.Strings(diags)
	if strings.Join(diags, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(diags, "\n"), strings.Join(want, "\n"))
	}
	if len(c.Pages) != 2 {
		t.Errorf("%d pages, want the two regular ones", len(c.Pages))
	}
	for _, f := range c.Files {
		if f.Rel != "cka/02-b/photo.png" {
			t.Errorf("file %s listed", f.Path)
		}
	}
}

// leftovers are what editors and merges leave in a page folder.
var leftovers = []string{"#index.md#", "index.md~", ".#index.md", ".index.md.swp", ".index.md.swo", "index.md.orig", ".DS_Store", "photo.png~", "#notes.txt#"}

func TestLeftover(t *testing.T) {
	for _, name := range leftovers {
		if !Leftover(name) {
			t.Errorf("%q is not a leftover", name)
		}
	}
	for _, name := range []string{"index.md", "#", "a#b.md", "swp", "x.swp.md", "orig.md", ".well-known", "notes.md", "_index.md"} {
		if Leftover(name) {
			t.Errorf("%q is a leftover", name)
		}
	}
}

// TestLoadSkipsLeftovers: editors' leftovers in a page folder are neither
// pages, nor files, nor diagnostics, on a site's folder (where SiteFS
// leaves them out of listings; emacs's lock is a dangling link) as in
// memory (where the walk skips them).
func TestLoadSkipsLeftovers(t *testing.T) {
	root := t.TempDir()
	mem := afero.NewMemMapFs()
	files := map[string]string{"content/ja/cka/02-b/index.md": "---\ntitle: B\n---\n"}
	for _, name := range leftovers {
		files["content/ja/cka/02-b/"+name] = "---\ntitle: [unclosed\n---\n"
	}
	writeTree(t, root, files)
	os.Remove(filepath.Join(root, "content/ja/cka/02-b/.#index.md"))
	symlink(t, "someone@host.1234:1700000000", filepath.Join(root, "content/ja/cka/02-b/.#index.md"))
	for p, text := range files {
		afero.WriteFile(mem, p, []byte(text), 0o644)
	}
	site, _ := SiteFS(root)
	for name, fsys := range map[string]afero.Fs{"site folder": site, "memory": mem} {
		c, diags := Load(context.Background(), fsys, "content", []string{"ja"})
		if len(diags) > 0 || len(c.Pages) != 1 || len(c.Files) > 0 {
			t.Errorf("%s: %d pages, files %v, diagnostics %v; want index.md alone", name, len(c.Pages), c.Files, diags)
		}
	}
	infos, err := afero.ReadDir(site, "content/ja/cka/02-b")
	if err != nil || len(infos) != 1 || infos[0].Name() != "index.md" {
		var names []string
		for _, fi := range infos {
			names = append(names, fi.Name())
		}
		t.Errorf("SiteFS lists %v (%v), want index.md alone", names, err)
	}
}

// cancelOnOpen cancels a context at the first file opened through it,
// counting the opens.
type cancelOnOpen struct {
	afero.Fs
	cancel func()
	opens  atomic.Int32
}

func (c *cancelOnOpen) Open(name string) (afero.File, error) {
	if fi, err := c.Fs.Stat(name); err == nil && !fi.IsDir() {
		c.opens.Add(1)
		c.cancel()
	}
	return c.Fs.Open(name)
}

// TestLoadStopsWhenCancelled: an interrupt during the reading of the
// pages stops it, and the next load reads every page.
func TestLoadStopsWhenCancelled(t *testing.T) {
	mem := afero.NewMemMapFs()
	const n = 500
	for i := range n {
		afero.WriteFile(mem, fmt.Sprintf("content/ja/p%03d.md", i), []byte("---\ntitle: P\n---\nbody\n"), 0o644)
	}
	ctx, cancel := context.WithCancel(context.Background())
	fsys := &cancelOnOpen{Fs: mem, cancel: cancel}
	l := NewLoader()
	l.Load(ctx, fsys, "content", []string{"ja"})
	if got := fsys.opens.Load(); got > int32(2*runtime.GOMAXPROCS(0)) {
		t.Errorf("%d of %d pages read after the interrupt", got, n)
	}
	c, diags := l.Load(context.Background(), mem, "content", []string{"ja"})
	if len(c.Pages) != n || len(diags) > 0 {
		t.Errorf("the next load: %d pages, %v; want %d", len(c.Pages), diags, n)
	}
}
