package cache

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"slices"
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
	saveStamped(t, c, fs, "public")
	c = Open(fs, "cache", 1)
	if !c.Warm() {
		t.Fatal("the saved cache was not found")
	}
	return c
}

// madeCount counts how often each file is made; lazy files may be made in
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

// TestPutMadeFunc: a file the previous output holds, made from the same
// fingerprint, is taken from it without being made; one made from
// another is made and written.
func TestPutMadeFunc(t *testing.T) {
	c := warmCache(t, map[string][]byte{"ja/search-data/p-a.js": []byte("aaaaa")}, map[string]uint64{"ja/search-data/p-a.js": 7})
	sink := newReusingSink()
	w := NewWriter(sink, c)
	made := 0
	mk := func() []byte { made++; return []byte("new") }
	if n := w.PutMadeFunc("/ja/search-data/p-a.js", 7, mk); n != 5 || made != 0 || len(sink.reused) != 1 {
		t.Errorf("same fingerprint: size %d, made %d times, reused %v", n, made, sink.reused)
	}
	if n := w.PutMadeFunc("/ja/search-data/p-a.js", 8, mk); n != 3 || made != 1 || string(sink.files["/ja/search-data/p-a.js"]) != "new" {
		t.Errorf("another fingerprint: size %d, made %d times, %q", n, made, sink.files["/ja/search-data/p-a.js"])
	}
}

// refusingSink takes from the previous output every file but one.
type refusingSink struct {
	*reusingSink
	refuse string
}

func (s refusingSink) Reuse(p string, size, mtime int64) bool {
	return p != s.refuse && s.reusingSink.Reuse(p, size, mtime)
}

// TestReuseSet: a manifest made from the same fingerprint is taken with
// every file the previous build wrote under its folder, and nothing else;
// another fingerprint, or a file of the set gone, takes it not.
func TestReuseSet(t *testing.T) {
	files := map[string][]byte{"ja/search-index.js": []byte("m"), "ja/search-data/s-1.js": []byte("11"), "ja/search-data/s-2.js": []byte("222"),
		"ja/search-data/p-1.js": []byte("p"), "ja/index.html": []byte("html")}
	fps := map[string]uint64{"ja/search-index.js": 5, "ja/search-data/s-1.js": 1, "ja/search-data/s-2.js": 2, "ja/search-data/p-1.js": 9, "ja/index.html": 5}
	c := warmCache(t, files, fps)
	sink := newReusingSink()
	n, ok := NewWriter(sink, c).ReuseSet("/ja/search-index.js", 5, "/ja/search-data/s-")
	slices.Sort(sink.reused)
	if want := []string{"ja/search-data/s-1.js", "ja/search-data/s-2.js", "ja/search-index.js"}; !ok || n != 6 || !slices.Equal(sink.reused, want) {
		t.Errorf("ReuseSet = %d, %v, reused %q; want 6, true, %q", n, ok, sink.reused, want)
	}
	if _, ok := NewWriter(newReusingSink(), c).ReuseSet("/ja/search-index.js", 6, "/ja/search-data/s-"); ok {
		t.Error("a manifest of another fingerprint was taken")
	}
	gone := refusingSink{newReusingSink(), "ja/search-data/s-2.js"}
	if _, ok := NewWriter(gone, c).ReuseSet("/ja/search-index.js", 5, "/ja/search-data/s-"); ok {
		t.Error("a set was taken without one of its files")
	}
	if _, ok := NewWriter(newReusingSink(), nil).ReuseSet("/ja/search-index.js", 5, "/ja/search-data/s-"); ok {
		t.Error("a set was taken without a cache")
	}
}

// TestSearchTerms: the terms a build keeps are the next build's, by URL
// and fingerprint, whatever order they were kept in.
func TestSearchTerms(t *testing.T) {
	fs := afero.NewMemMapFs()
	c := Open(fs, "cache", 1)
	c.KeepSearchTerms([]SearchTerms{{URL: "/ko/b/", FP: 2, Terms: "B"}, {URL: "/ja/z/", FP: 3, Terms: "Z"}})
	c.KeepSearchTerms([]SearchTerms{{URL: "/ja/a/", FP: 1, Terms: "A"}})
	c.KeepSearchTerms(nil)
	saveStamped(t, c, fs, "public")
	c = Open(fs, "cache", 1)
	for _, tt := range []struct {
		url  string
		fp   uint64
		want string
		ok   bool
	}{
		{"/ja/a/", 1, "A", true}, {"/ko/b/", 2, "B", true}, {"/ja/z/", 3, "Z", true},
		{"/ja/a/", 2, "", false}, {"/ja/c/", 1, "", false},
	} {
		if got, ok := c.SearchTerms(tt.url, tt.fp); got != tt.want || ok != tt.ok {
			t.Errorf("SearchTerms(%s, %d) = %q, %v; want %q, %v", tt.url, tt.fp, got, ok, tt.want, tt.ok)
		}
	}
	var none *Cache
	none.KeepSearchTerms([]SearchTerms{{URL: "/ja/a/"}})
	if _, ok := none.SearchTerms("/ja/a/", 0); ok {
		t.Error("a build without a cache found terms")
	}
}

// TestPutMadeSet: a set of files made from the same fingerprint as the
// last build's is taken from the previous output without being made;
// another fingerprint, or a file of the set gone, makes it again.
func TestPutMadeSet(t *testing.T) {
	fs := afero.NewMemMapFs()
	files := map[string][]byte{"sitemap.xml": []byte("s"), "ja/index.xml": []byte("ja")}
	made := 0
	mk := func() map[string][]byte { made++; return files }
	build := func(fp uint64, refuse string) *reusingSink {
		t.Helper()
		c := Open(fs, "cache", 1)
		rs := newReusingSink()
		NewWriter(refusingSink{rs, refuse}, c).PutMadeSet("feeds", fp, mk)
		for p, data := range rs.files {
			afero.WriteFile(fs, filepath.Join("public", p), data, 0o644)
		}
		saveStamped(t, c, fs, "public")
		return rs
	}
	build(7, "")
	if made != 1 {
		t.Fatalf("the first build made the set %d times", made)
	}
	if rs := build(7, ""); made != 1 || len(rs.reused) != 2 {
		t.Errorf("the same fingerprint: made %d times, reused %v", made, rs.reused)
	}
	if build(8, ""); made != 2 {
		t.Errorf("another fingerprint: made %d times, want 2", made)
	}
	if build(8, "ja/index.xml"); made != 3 {
		t.Errorf("a file of the set not reusable: made %d times, want 3", made)
	}
}
