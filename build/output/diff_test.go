package output

import (
	"slices"
	"testing"
)

// TestDiff: files whose bytes changed, new files, lazy files whose key
// changed and files that went from lazy to made are changed; files and
// lazy files next lacks are removed; nothing else is listed, and a lazy
// file is never made.
func TestDiff(t *testing.T) {
	made := false
	lazy := func(key uint64) *Lazy {
		return NewLazy(key, func() []byte { made = true; return nil })
	}
	prev, next := New(), New()
	for _, s := range []*Site{prev, next} {
		s.Put("same.html", []byte("same"))
		s.PutLazy("same.wasm", lazy(1))
	}
	prev.Put("edited.html", []byte("old"))
	next.Put("edited.html", []byte("new"))
	next.Put("added.html", []byte("new"))
	prev.PutLazy("rekeyed.wasm", lazy(1))
	next.PutLazy("rekeyed.wasm", lazy(2))
	prev.PutLazy("was-lazy.js", lazy(1))
	next.Put("was-lazy.js", []byte("made"))
	prev.Put("was-made.js", []byte("made"))
	next.PutLazy("was-made.js", lazy(1))
	prev.Put("gone.html", []byte("gone"))
	prev.PutLazy("gone.wasm", lazy(1))

	changed, removed := Diff(prev, next)
	if want := []string{"added.html", "edited.html", "rekeyed.wasm", "was-lazy.js", "was-made.js"}; !slices.Equal(changed, want) {
		t.Errorf("changed %q, want %q", changed, want)
	}
	if want := []string{"gone.html", "gone.wasm"}; !slices.Equal(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	if made {
		t.Error("a lazy file was made to be compared")
	}
}
