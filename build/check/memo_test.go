package check

import (
	"context"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// TestMemo edits a site's files and the pages' outlines between runs:
// after each edit the checks of a Memo kept from run to run are those of
// a run of Site over the same pages.
func TestMemo(t *testing.T) {
	fs := afero.NewMemMapFs()
	write := func(p, s string) {
		t.Helper()
		if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("content/ja/notes/a.md", "---\ntitle: 一\n---\nbody\n")
	write("content/ko/notes/a.md", "---\ntitle: 일\n---\n본문\n")
	write("content/ja/notes/b.md", "---\ntitle: 二\n---\nbody\n")
	write("content/ko/notes/b.md", "---\ntitle: 이\ntranslated: 2026-11-02 000000000000\n---\n본문\n")
	write("content/ja/notes/c.md", "---\ntitle: 三\n---\nbody\n")
	langs := []string{"ja", "ko"}
	loader := source.NewLoader()
	outlines := map[string][]markdown.Block{
		"/ja/notes/a/": {heading(2, 5), code("kubectl get pods", 7)},
		"/ko/notes/a/": {heading(2, 5), code("kubectl get pods", 7)},
		"/ja/notes/b/": {heading(2, 5), code("etcdctl member list", 7), heading(3, 9)},
		"/ko/notes/b/": {heading(2, 5), code("etcdctl member add", 7)},
	}
	var m Memo
	run := func(step string) {
		t.Helper()
		c, ds := loader.Load(context.Background(), fs, "content", langs)
		if ds.Err() != nil {
			t.Fatal(ds)
		}
		st, _ := site.Resolve(c, site.Options{Langs: langs})
		pages := Pages(st, func(string) []string { return nil }, func(i int) *markdown.Result {
			return &markdown.Result{Outline: outlines[st.Pages[i].URL]}
		})
		want := Site(st, pages)
		if got := m.Site(st, pages); headers(got) != headers(want) {
			t.Errorf("%s: the memo found\n%s\nwant\n%s", step, headers(got), headers(want))
		}
		if len(want) == 0 {
			t.Fatalf("%s: nothing found: the test checks nothing", step)
		}
	}
	run("first run")
	run("nothing changed")
	outlines["/ko/notes/b/"] = []markdown.Block{heading(2, 5), code("etcdctl member list", 7), heading(3, 9)}
	run("a translation's outline made the same as its original's")
	outlines["/ja/notes/a/"] = []markdown.Block{heading(3, 5), code("kubectl get nodes", 7)}
	run("an original's outline changed")
	write("content/ko/notes/a.md", "---\ntitle: 일\ntranslated: 2026-11-02 000000000000\n---\n본문\n")
	loader.Invalidate("content/ko/notes/a.md")
	run("a translation marked")
	write("content/ja/notes/b.md", "---\ntitle: 二\n---\nbody, edited\n")
	loader.Invalidate("content/ja/notes/b.md")
	run("an original edited")
	write("content/ko/notes/c.md", "---\ntitle: 삼\n---\n본문\n")
	run("a translation added")
	if err := fs.Remove("content/ko/notes/a.md"); err != nil {
		t.Fatal(err)
	}
	run("a translation removed")

	// What the memo keeps is taken again: an outline changed in place,
	// which a build never does, goes unseen.
	ko := outlines["/ko/notes/b/"]
	ko[1].CodeSum++ // changed in place
	c, _ := loader.Load(context.Background(), fs, "content", langs)
	st, _ := site.Resolve(c, site.Options{Langs: langs})
	pages := Pages(st, func(string) []string { return nil }, func(i int) *markdown.Result {
		return &markdown.Result{Outline: outlines[st.Pages[i].URL]}
	})
	if headers(m.Site(st, pages)) == headers(Site(st, pages)) {
		t.Error("the memo compared an outline it had compared already")
	}
}
