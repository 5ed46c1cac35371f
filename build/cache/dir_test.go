package cache

import (
	"testing"

	"github.com/spf13/afero"
)

// TestDirContent: the content store opens once per Dir; what is saved is
// there for the next process's Dir, and the stores of other programs go.
func TestDirContent(t *testing.T) {
	fsys := afero.NewMemMapFs()
	old := OpenStore(fsys, "/cache", "content-0000000000000001")
	old.Put("k", []byte("old"))
	old.Save(func(string) bool { return true })
	d := &Dir{FS: fsys, Path: "/cache", Version: "test"}
	s, opened := d.Content()
	if _, again := d.Content(); !opened || again {
		t.Fatalf("opened %v, then %v", opened, again)
	}
	s.Put("page", []byte("parsed"))
	d.SaveContent(func(string) bool { return true }, nil)
	d.Wait()
	next, _ := (&Dir{FS: fsys, Path: "/cache", Version: "test"}).Content()
	if v, ok := next.Get("page"); !ok || string(v) != "parsed" {
		t.Errorf("the next process reads %q, %v", v, ok)
	}
	if st := OpenStore(fsys, "/cache", "content-0000000000000001"); len(st.Keys()) != 0 {
		t.Errorf("another program's content store is still there: %v", st.Keys())
	}
}
