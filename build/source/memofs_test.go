package source

import (
	"context"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"
)

// askingFs counts what is asked of it.
type askingFs struct {
	afero.Fs
	asked atomic.Int64 // the loader reads files on every core
}

func (a *askingFs) Open(name string) (afero.File, error) { a.asked.Add(1); return a.Fs.Open(name) }
func (a *askingFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	a.asked.Add(1)
	return a.Fs.(afero.Lstater).LstatIfPossible(name)
}

// TestRemembering: a second walk of the same folders through Remembering
// asks nothing of the filesystem and finds what the first found, though
// the disk changed since; a file is read as it is.
func TestRemembering(t *testing.T) {
	mem := afero.NewMemMapFs()
	for _, p := range []string{"content/ja/a.md", "content/ja/b/c.md", "content/ko/d.md"} {
		afero.WriteFile(mem, p, []byte(p), 0o644)
	}
	under := &askingFs{Fs: mem}
	m := Remembering(under)
	walk := func() string {
		var b strings.Builder
		err := afero.Walk(m, "content", func(p string, info fs.FileInfo, err error) error {
			if err != nil {
				return err
			}
			b.WriteString(p + " ")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	first := walk()
	asked := under.asked.Load()
	afero.WriteFile(mem, "content/ja/new.md", []byte("new"), 0o644)
	if second := walk(); second != first || under.asked.Load() != asked {
		t.Errorf("the second walk found %q (the first %q) and asked %d more times", second, first, under.asked.Load()-asked)
	}
	if b, err := afero.ReadFile(m, "content/ja/a.md"); err != nil || string(b) != "content/ja/a.md" {
		t.Errorf("read %q, %v", b, err)
	}
	// The content loads the same through it, twice.
	c1, d1 := Load(context.Background(), m, "content", []string{"ja", "ko"})
	c2, d2 := Load(context.Background(), m, "content", []string{"ja", "ko"})
	if len(c1.Pages) != 3 || len(c2.Pages) != 3 || len(d1) != 0 || len(d2) != 0 {
		t.Errorf("loaded %d and %d pages, %v %v", len(c1.Pages), len(c2.Pages), d1, d2)
	}
}
