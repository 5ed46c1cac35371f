package build

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// coldBuilder is a Builder as a new process makes it: nothing in memory,
// the persistent cache on cacheFs.
func coldBuilder(t *testing.T, in, cacheFs afero.Fs) *Builder {
	t.Helper()
	b, err := New(in, Options{BaseURL: "https://example.org/course/", CacheDir: "/cache", CacheFs: cacheFs})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func buildToDisk(t *testing.T, b *Builder, out afero.Fs) *Result {
	t.Helper()
	st, err := output.Stage(context.Background(), out, "/public")
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.BuildTo(context.Background(), st)
	if err != nil {
		st.Abort()
		t.Fatal(err)
	}
	if err := st.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return res
}

// sameAsFresh compares the published folder with a fresh in-memory build.
func sameAsFresh(t *testing.T, step string, in, out afero.Fs) {
	t.Helper()
	fresh, err := buildSite(t, in)
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	afero.Walk(out, "/public", func(p string, info fs.FileInfo, err error) error {
		if err == nil && !info.IsDir() && info.Name() != output.MarkerName {
			onDisk = append(onDisk, strings.TrimPrefix(filepath.ToSlash(p), "/public/"))
		}
		return nil
	})
	if got, want := strings.Join(onDisk, ","), strings.Join(fresh.Site.Paths(), ","); got != want {
		t.Fatalf("%s: file sets differ\n got %s\nwant %s", step, got, want)
	}
	for _, p := range onDisk {
		got, _ := afero.ReadFile(out, "/public/"+p)
		want, _ := fresh.Site.Get(p)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: %s differs from a fresh build", step, p)
		}
	}
}

// TestPersistentCache builds as separate processes would: a warm build
// takes every unchanged file from the previous output, an edit re-renders
// only its page, and a template change invalidates the whole cache. After
// every step the output equals a fresh build.
func TestPersistentCache(t *testing.T) {
	in := repoFs(t)
	out, cacheFs := afero.NewMemMapFs(), afero.NewMemMapFs()

	cold := buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	if cold.Reused != 0 || cold.Rendered == 0 {
		t.Fatalf("cold build: rendered %d, reused %d", cold.Rendered, cold.Reused)
	}
	sameAsFresh(t, "cold", in, out)

	warm := buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	if warm.Rendered != 0 || warm.Reused < cold.Rendered || !warm.Unchanged {
		t.Fatalf("warm build: rendered %d, reused %d (cold rendered %d), unchanged %v", warm.Rendered, warm.Reused, cold.Rendered, warm.Unchanged)
	}
	sameAsFresh(t, "warm", in, out)

	const art = "content/ja/cka/05-ha-cluster.md"
	src := mustRead(t, in, art)
	afero.WriteFile(in, art, append(src, "\n追記した段落です。\n"...), 0o644)
	edit := buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	// The article and its translation, which now says it is behind.
	if edit.Rendered != 2 || edit.Unchanged {
		t.Errorf("one edited article re-rendered %d pages, want it and its translation (unchanged %v)", edit.Rendered, edit.Unchanged)
	}
	if ko, _ := afero.ReadFile(out, "/public/ko/cka/05-ha-cluster/index.html"); !bytes.Contains(ko, []byte(`data-translation-state="stale"`)) {
		t.Error("the translation of the edited article does not say it is stale")
	}
	sameAsFresh(t, "one edit", in, out)

	// A hand-edited output file of the same size is not trusted.
	p := "/public/ko/cka/05-ha-cluster/index.html"
	page := mustRead(t, out, p)
	afero.WriteFile(out, p, bytes.Replace(page, []byte("<html"), []byte("<HTML"), 1), 0o644)
	buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	sameAsFresh(t, "hand-edited output", in, out)

	layout := "themes/default/layouts/baseof.html"
	afero.WriteFile(in, layout, bytes.Replace(mustRead(t, in, layout), []byte("<body"), []byte("<!-- changed -->\n<body"), 1), 0o644)
	tmpl := buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	if tmpl.Reused != 0 {
		t.Errorf("a template change still reused %d files", tmpl.Reused)
	}
	sameAsFresh(t, "template change", in, out)

	cacheFs.RemoveAll("/cache")
	gone := buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	if gone.Reused != 0 {
		t.Errorf("without a cache, %d files reused", gone.Reused)
	}
	sameAsFresh(t, "cache deleted", in, out)
}

func mustRead(t *testing.T, fs afero.Fs, p string) []byte {
	t.Helper()
	b, err := afero.ReadFile(fs, p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPersistentCacheFragment: the persistent cache keeps no page's text;
// a search file gone from the output of a warm build is made again, a
// fragment from its page's markdown rendered again, as a fresh build has
// it.
func TestPersistentCacheFragment(t *testing.T) {
	in := repoFs(t)
	out, cacheFs := afero.NewMemMapFs(), afero.NewMemMapFs()
	buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	var frags []string
	afero.Walk(out, "/public/ja/search-data", func(p string, info fs.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.Contains(filepath.Base(p), "-") {
			frags = append(frags, p)
		}
		return nil
	})
	if len(frags) == 0 {
		t.Fatal("no search files under /public/ja/search-data")
	}
	for _, p := range frags {
		out.Remove(p)
	}
	buildToDisk(t, coldBuilder(t, in, cacheFs), out)
	sameAsFresh(t, "search files removed", in, out)
	const art = "content/ja/cka/05-ha-cluster.md"
	afero.WriteFile(in, art, append(mustRead(t, in, art), "\n追記した段落です。\n"...), 0o644)
	b := coldBuilder(t, in, cacheFs)
	buildToDisk(t, b, out)
	sameAsFresh(t, "one edit", in, out)
}
