package cache

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"sync"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// reusingSink is a streaming sink that holds what is written to it and
// takes every file the cache offers from the previous output.
type reusingSink struct {
	files  map[string][]byte
	reused []string
}

func newReusingSink() *reusingSink { return &reusingSink{files: map[string][]byte{}} }

func (s *reusingSink) WriteFile(p string, b []byte) error {
	s.files[p] = bytes.Clone(b)
	return nil
}

func (s *reusingSink) WriteFrom(ctx context.Context, p string, r io.Reader, size int64) (int64, error) {
	b, err := io.ReadAll(r)
	s.files[p] = b
	return int64(len(b)), err
}

func (s *reusingSink) Reuse(p string, size, mtime int64) bool {
	s.reused = append(s.reused, p)
	return true
}

func (s *reusingSink) Size() (int, int64) { return len(s.files), 0 }

// warmCache is a cache whose previous build wrote files (path → data),
// each made from fingerprint fps[path].
func warmCache(t *testing.T, files map[string][]byte, fps map[string]uint64) *Cache {
	t.Helper()
	fs := afero.NewMemMapFs()
	c := Open(fs, "cache", 1)
	for p, data := range files {
		if err := afero.WriteFile(fs, filepath.Join("public", p), data, 0o644); err != nil {
			t.Fatal(err)
		}
		c.Made(p, fps[p], len(data))
	}
	c.Save(fs, "public")
	c = Open(fs, "cache", 1)
	if !c.Warm() {
		t.Fatal("the saved cache was not found")
	}
	return c
}

// madeCount counts how often each file is made; PutEach makes files in
// parallel.
type madeCount struct {
	mu sync.Mutex
	n  map[string]int
}

// counted is a MadeFile that counts in made how often it is made.
func counted(key string, fp uint64, data string, made *madeCount) MadeFile {
	return MadeFile{Key: key, Path: "/" + key + "/index.js", FP: fp, Make: func() []byte {
		made.mu.Lock()
		made.n[key]++
		made.mu.Unlock()
		return []byte(data)
	}}
}

// TestPutEach: a file is made once while its fingerprint stays, and
// written into every build's sink all the same; a changed fingerprint
// makes it again.
func TestPutEach(t *testing.T) {
	var tier Tier[[]byte]
	made := &madeCount{n: map[string]int{}}
	build := func(files ...MadeFile) (*output.Site, map[string]int) {
		site := output.New()
		sizes := NewWriter(site, nil).PutEach(&tier, files)
		return site, sizes
	}
	site, sizes := build(counted("a", 1, "aaa", made), counted("b", 1, "bb", made))
	if made.n["a"] != 1 || made.n["b"] != 1 || sizes["a"] != 3 || sizes["b"] != 2 {
		t.Fatalf("first build: made %v, sizes %v", made.n, sizes)
	}
	site, sizes = build(counted("a", 1, "aaa", made), counted("b", 2, "bbbb", made))
	if made.n["a"] != 1 || made.n["b"] != 2 {
		t.Errorf("second build: made %v, want a once and b twice", made)
	}
	if got, _ := site.Get("a/index.js"); string(got) != "aaa" {
		t.Errorf("a kept file was not written: %q", got)
	}
	if got, _ := site.Get("b/index.js"); string(got) != "bbbb" || sizes["b"] != 4 {
		t.Errorf("a changed file: %q, size %d", got, sizes["b"])
	}
}

// TestPutEachReuses: a file the previous output holds, made from the same
// fingerprint, is taken from it, neither made nor written, with the size
// the previous build recorded; one made from another is made.
func TestPutEachReuses(t *testing.T) {
	c := warmCache(t, map[string][]byte{"a/index.js": []byte("aaaaa"), "b/index.js": []byte("b")},
		map[string]uint64{"a/index.js": 7, "b/index.js": 7})
	sink := newReusingSink()
	made := &madeCount{n: map[string]int{}}
	var tier Tier[[]byte]
	sizes := NewWriter(sink, c).PutEach(&tier, []MadeFile{counted("a", 7, "new", made), counted("b", 8, "new b", made)})
	if made.n["a"] != 0 || sizes["a"] != 5 || len(sink.reused) != 1 || sink.reused[0] != "a/index.js" {
		t.Errorf("a: made %d times, size %d, reused %v; want taken from the previous output, 5 bytes", made.n["a"], sizes["a"], sink.reused)
	}
	if _, ok := sink.files["/a/index.js"]; ok {
		t.Error("a reused file was written again")
	}
	if made.n["b"] != 1 || string(sink.files["/b/index.js"]) != "new b" || sizes["b"] != 5 {
		t.Errorf("b: made %d times, %q, size %d", made.n["b"], sink.files["/b/index.js"], sizes["b"])
	}
}

// TestPutLazy: a lazy file is made only when first read, and a build
// whose fingerprint is the same takes the same lazy file, made once.
func TestPutLazy(t *testing.T) {
	var tier Tier[*output.Lazy]
	made := &madeCount{n: map[string]int{}}
	first := output.New()
	PutLazy(first, &tier, []MadeFile{counted("a", 1, "aaa", made)})
	if made.n["a"] != 0 {
		t.Fatal("a lazy file was made before it was read")
	}
	if got, _ := first.Get("a/index.js"); string(got) != "aaa" || made.n["a"] != 1 {
		t.Fatalf("read: %q, made %d times", got, made.n["a"])
	}
	second := output.New()
	PutLazy(second, &tier, []MadeFile{counted("a", 1, "aaa", made)})
	if got, _ := second.Get("a/index.js"); string(got) != "aaa" || made.n["a"] != 1 {
		t.Errorf("same fingerprint: %q, made %d times, want once", got, made.n["a"])
	}
	third := output.New()
	PutLazy(third, &tier, []MadeFile{counted("a", 2, "AAA", made)})
	if got, _ := third.Get("a/index.js"); string(got) != "AAA" || made.n["a"] != 2 {
		t.Errorf("another fingerprint: %q, made %d times, want twice", got, made.n["a"])
	}
}

// TestGetOrMake: a value is made once while its fingerprint stays.
func TestGetOrMake(t *testing.T) {
	var tier Tier[int]
	made := 0
	next := func() int { made++; return made }
	if v := tier.GetOrMake("k", 1, next); v != 1 {
		t.Errorf("first: %d", v)
	}
	if v := tier.GetOrMake("k", 1, next); v != 1 || made != 1 {
		t.Errorf("same fingerprint: %d, made %d times", v, made)
	}
	if v := tier.GetOrMake("k", 2, next); v != 2 || made != 2 {
		t.Errorf("another fingerprint: %d, made %d times", v, made)
	}
	if v, ok := tier.Get("k", 2); !ok || v != 2 {
		t.Errorf("not stored: %d, %v", v, ok)
	}
}
