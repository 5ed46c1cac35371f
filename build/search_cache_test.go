package build

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// searchFiles lists the files of the search indexes in the published
// folder dest, with their modification times.
func searchFiles(t *testing.T, dest string) map[string]int64 {
	t.Helper()
	files := map[string]int64{}
	filepath.Walk(dest, func(p string, info fs.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.Contains(p, "/search-data/") || strings.HasSuffix(p, "/search-index.js")) {
			files[strings.TrimPrefix(filepath.ToSlash(p), filepath.ToSlash(dest))] = info.ModTime().UnixNano()
		}
		return nil
	})
	return files
}

// publishTo builds with b into the folder dest on disk, where a file
// taken from the previous output is a link to it.
func publishTo(t *testing.T, b *Builder, dest string) {
	t.Helper()
	st, err := output.Stage(context.Background(), afero.NewOsFs(), dest)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.BuildTo(context.Background(), st); err != nil {
		st.Abort()
		t.Fatal(err)
	}
	if err := st.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// loadPublished reads lang's search index from the published folder.
func loadPublished(t *testing.T, dest, lang string) *search.Index {
	t.Helper()
	idx, err := search.Load(lang, func(p string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(dest, filepath.FromSlash(p)))
		return b, err == nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// TestSearchAfterOneEdit builds as separate processes would: after one
// article is edited, the index of its language is updated from the state
// the cache kept of it (search.Update), with the edited page alone taken
// out and put in: it is the index a fresh build makes, the fragments of
// the other pages and the shards that did not change are not written
// again, and the other language's index is taken whole.
func TestSearchAfterOneEdit(t *testing.T) {
	in := repoFs(t)
	dest, cacheFs := filepath.Join(t.TempDir(), "public"), afero.NewMemMapFs()
	publishTo(t, coldBuilder(t, in, cacheFs), dest)
	before := searchFiles(t, dest)
	if len(before) < 10 {
		t.Fatalf("search files %v", before)
	}
	for i, line := range []string{"\n追記した段落です。\n", "\nもう一つ zzsecond の段落。\n"} {
		const art = "content/ja/cka/05-ha-cluster.md"
		afero.WriteFile(in, art, append(mustRead(t, in, art), line...), 0o644)
		publishTo(t, coldBuilder(t, in, cacheFs), dest)
		fresh := filepath.Join(t.TempDir(), "fresh")
		b, err := New(in, Options{BaseURL: "https://example.org/course/"})
		if err != nil {
			t.Fatal(err)
		}
		publishTo(t, b, fresh)
		got, want := searchFiles(t, dest), searchFiles(t, fresh)
		if len(got) != len(want) {
			t.Fatalf("edit %d: %d search files, a fresh build %d", i+1, len(got), len(want))
		}
		for p := range want {
			g, _ := os.ReadFile(filepath.Join(dest, filepath.FromSlash(p)))
			w, err := os.ReadFile(filepath.Join(fresh, filepath.FromSlash(p)))
			if err != nil || !bytes.Equal(g, w) {
				t.Fatalf("edit %d: %s differs from a fresh build's", i+1, p)
			}
		}
	}
	after := searchFiles(t, dest)
	if hits := search.Search(loadPublished(t, dest, "ja"), "追記した段落"); len(hits) == 0 || hits[0].URL != "/ja/cka/05-ha-cluster/" {
		t.Errorf("the edit is not in the index: %+v", hits)
	}
	var kept, rewritten []string
	for p, mtime := range after {
		if before[p] == mtime {
			kept = append(kept, p)
		} else {
			rewritten = append(rewritten, p)
		}
	}
	for _, p := range rewritten {
		switch {
		case strings.HasPrefix(p, "/ko/"):
			t.Errorf("%s of the other language was written again", p)
		case strings.Contains(p, "/p-"):
			if f, _ := os.ReadFile(filepath.Join(dest, filepath.FromSlash(p))); !bytes.Contains(f, []byte(`"url":"/ja/cka/05-ha-cluster/"`)) {
				t.Errorf("the fragment %s of a page not edited was written again", p)
			}
		}
	}
	if len(kept) < len(after)/2 || len(rewritten) == 0 {
		t.Errorf("kept %q\nrewritten %q", kept, rewritten)
	}
}

// TestSearchTermsFromCache: when the index cannot be updated (an edit
// so long that the pages' average length moved, which changes every
// weight), it is made again from the terms the cache kept of the pages
// that did not change, which are not tokenized again: terms planted in
// the cache for another page show in it.
func TestSearchTermsFromCache(t *testing.T) {
	in := repoFs(t)
	dest, cacheFs := filepath.Join(t.TempDir(), "public"), afero.NewMemMapFs()
	first := coldBuilder(t, in, cacheFs)
	publishTo(t, first, dest)

	// Plant terms for part 2 in the cache, under its fingerprint.
	c := cache.Open(cacheFs, "/cache", first.cacheKey())
	c.KeepAll()
	var an search.Analyzer
	planted := 0
	for _, st := range c.AllSearchTerms() {
		if st.URL == "/ja/cka/02-control-plane/" {
			st.Terms = an.Analyze(search.Doc{Title: "zzplanted"}).String()
			c.KeepSearchTerms([]cache.SearchTerms{st})
			planted++
		}
	}
	if planted != 1 {
		t.Fatalf("the cache holds %d entries for part 2", planted)
	}
	stamps, err := cache.StampFolder(context.Background(), afero.NewOsFs(), dest)
	if err != nil {
		t.Fatal(err)
	}
	c.Save(stamps)

	const art = "content/ja/cka/05-ha-cluster.md"
	long := strings.Repeat("長い zzlong の追記で平均の長さが変わる。", 3000)
	afero.WriteFile(in, art, append(mustRead(t, in, art), "\n"+long+"\n"...), 0o644)
	publishTo(t, coldBuilder(t, in, cacheFs), dest)
	idx := loadPublished(t, dest, "ja")
	if hits := search.Search(idx, "zzplanted"); len(hits) != 1 || hits[0].URL != "/ja/cka/02-control-plane/" {
		t.Errorf("part 2 was tokenized again, not taken from the cache: %+v", hits)
	}
	if hits := search.Search(idx, "zzlong"); len(hits) == 0 || hits[0].URL != "/ja/cka/05-ha-cluster/" {
		t.Errorf("the edit is not in the index: %+v", hits)
	}
}

// TestSearchTermsInMemory: a Builder that builds again (as the authoring
// server does) takes the terms of the pages that did not change from the
// last build, and does not tokenize them again: terms planted in its
// memory for another page show in the index made after an edit.
func TestSearchTermsInMemory(t *testing.T) {
	in := repoFs(t)
	// The fingerprint of part 2's terms, as a build's cache records it.
	cacheFs := afero.NewMemMapFs()
	first := coldBuilder(t, in, cacheFs)
	publishTo(t, first, filepath.Join(t.TempDir(), "public"))
	const part2 = "/ja/cka/02-control-plane/"
	var fp uint64
	for _, st := range cache.Open(cacheFs, "/cache", first.cacheKey()).AllSearchTerms() {
		if st.URL == part2 {
			fp = st.FP
		}
	}

	b, err := New(in, Options{BaseURL: "https://example.org/course/"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.memo.SearchTerms.Get(part2, fp); !ok || fp == 0 {
		t.Fatalf("the Builder does not hold part 2's terms under the fingerprint the cache gives (%x)", fp)
	}
	var an search.Analyzer
	b.memo.SearchTerms.Put(part2, fp, an.Analyze(search.Doc{Title: "zzplanted"}).String())
	const art = "content/ja/cka/05-ha-cluster.md"
	afero.WriteFile(in, art, append(mustRead(t, in, art), "\n追記した段落です。\n"...), 0o644)
	b.Invalidate(art)
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	idx, err := search.Load("ja", res.Site.Get)
	if err != nil {
		t.Fatal(err)
	}
	if hits := search.Search(idx, "zzplanted"); len(hits) != 1 || hits[0].URL != part2 {
		t.Errorf("part 2 was tokenized again, not taken from memory: %+v", hits)
	}
	if hits := search.Search(idx, "追記した段落"); len(hits) == 0 || hits[0].URL != "/ja/cka/05-ha-cluster/" {
		t.Errorf("the edit is not in the index: %+v", hits)
	}
}

// TestLazySearchReusesFragments: the authoring server's index, one script
// made when first read, is made again after an edit from the fragments of
// the pages that did not change, as they were made for the last one.
func TestLazySearchReusesFragments(t *testing.T) {
	in := repoFs(t)
	cacheFs := afero.NewMemMapFs()
	first := coldBuilder(t, in, cacheFs)
	publishTo(t, first, filepath.Join(t.TempDir(), "public"))
	const part2 = "/ja/cka/02-control-plane/"
	var fp uint64
	var urls []string
	for _, st := range cache.Open(cacheFs, "/cache", first.cacheKey()).AllSearchTerms() {
		if strings.HasPrefix(st.URL, "/ja/") {
			urls = append(urls, st.URL)
		}
		if st.URL == part2 {
			fp = st.FP
		}
	}
	frag, _ := search.NewFragments("ja", urls, search.Options{}).Path(part2)

	b, err := New(in, Options{BaseURL: "https://example.org/course/", LazySearch: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	bundle, _ := res.Site.Get(search.IndexPath("ja"))
	if !bytes.Contains(bundle, []byte(`"url":"`+part2+`"`)) {
		t.Fatal("the bundle lacks part 2's fragment")
	}
	if _, ok := b.memo.Search.Get(frag, fp); !ok {
		t.Fatalf("the Builder does not hold part 2's fragment at %s", frag)
	}
	b.memo.Search.Put(frag, fp, []byte("/*planted*/\n"))
	const art = "content/ja/cka/05-ha-cluster.md"
	afero.WriteFile(in, art, append(mustRead(t, in, art), "\n追記した段落です。\n"...), 0o644)
	b.Invalidate(art)
	res, err = b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	bundle, _ = res.Site.Get(search.IndexPath("ja"))
	if !bytes.Contains(bundle, []byte("/*planted*/")) || !bytes.Contains(bundle, []byte("追記した段落")) {
		t.Error("the bundle made after the edit made part 2's fragment again, or lacks the edit")
	}
}
