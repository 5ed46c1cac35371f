package page

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// searchPages are three pages of ja and one of ko, with their markdown.
func searchPages() ([]*render.Page, []*Rendered) {
	pages := []*render.Page{
		{Kind: render.KindArticle, Lang: "ja", URL: "/ja/cka/02-control-plane/", Title: "コントロールプレーン", Part: 2},
		{Kind: render.KindArticle, Lang: "ja", URL: "/ja/cka/05-ha-cluster/", Title: "HA クラスター", Part: 5,
			TOC: []render.TOCEntry{{Text: "クォーラム"}}},
		{Kind: render.KindArticle, Lang: "ko", URL: "/ko/cka/05-ha-cluster/", Title: "HA 클러스터", Part: 5},
		{Kind: render.KindNotFound, Lang: "ja", URL: "/404.html", Title: "見つかりません"},
		{Kind: render.KindHome, Lang: "ja", URL: "/ja/", Title: "ホーム"},
	}
	rs := []*Rendered{
		{Text: "apiserver と etcd", Gen: 1},
		{Text: "etcd のクォーラムは過半数", Code: "etcdctl member list", Gen: 2},
		{Text: "etcd 쿼럼", Gen: 3},
		{Text: "ない", Gen: 4},
		nil, // no markdown
	}
	return pages, rs
}

// TestSearchEntries: a language's entries are its indexed pages, each
// with a fingerprint that moves with its title, part and rendering.
func TestSearchEntries(t *testing.T) {
	pages, rs := searchPages()
	es := SearchEntries("ja", pages, rs)
	var urls []string
	for _, e := range es {
		urls = append(urls, e.Doc.URL)
	}
	if want := []string{"/ja/cka/02-control-plane/", "/ja/cka/05-ha-cluster/"}; !slices.Equal(urls, want) {
		t.Fatalf("entries %q, want %q", urls, want)
	}
	if es[1].Doc.Headings != "クォーラム\n" || es[1].Doc.Code != "etcdctl member list" || es[1].Doc.Part != 5 {
		t.Errorf("doc %+v", es[1].Doc)
	}
	fp := es[1].FP
	for name, edit := range map[string]func(){
		"title": func() { pages[1].Title += "!" },
		"part":  func() { pages[1].Part = 6 },
		"gen":   func() { rs[1].Gen = 9 },
	} {
		pages, rs = searchPages()
		edit()
		if SearchEntries("ja", pages, rs)[1].FP == fp {
			t.Errorf("the fingerprint stays when the %s changes", name)
		}
	}
}

// TestSearchIndexTakesKnownTerms: a page whose terms are known is not
// tokenized again, whatever it says; the others are, and the index is
// theirs.
func TestSearchIndexTakesKnownTerms(t *testing.T) {
	pages, rs := searchPages()
	es := SearchEntries("ja", pages, rs)
	var an search.Analyzer
	// What the cache says of the first page: another text, so that its
	// use shows.
	known := an.Analyze(search.Doc{Title: "キャッシュの語"})
	var mu sync.Mutex
	asked := map[string]int{}
	b, ps := SearchIndex("ja", es, func(e SearchEntry) (search.Terms, bool) {
		mu.Lock()
		asked[e.Doc.URL]++
		mu.Unlock()
		return known, e.Doc.URL == "/ja/cka/02-control-plane/"
	}, search.Options{})
	if asked["/ja/cka/02-control-plane/"] != 1 || asked["/ja/cka/05-ha-cluster/"] != 1 {
		t.Errorf("asked %v", asked)
	}
	if ps[0].Terms != known || ps[1].Terms != an.Analyze(es[1].Doc) {
		t.Error("the pages' terms are not the known ones and the analysed ones")
	}
	files := map[string][]byte{}
	for _, f := range b.Files() {
		files[f.Path] = f.Data
	}
	for _, e := range es {
		f, _ := b.Make(e.Doc)
		files[f.Path] = f.Data
	}
	idx, err := search.Load("ja", func(p string) ([]byte, bool) { d, ok := files[p]; return d, ok })
	if err != nil {
		t.Fatal(err)
	}
	if hits := search.Search(idx, "キャッシュ"); len(hits) != 1 || hits[0].URL != "/ja/cka/02-control-plane/" {
		t.Errorf("the known terms are not in the index: %+v", hits)
	}
	if hits := search.Search(idx, "apiserver"); len(hits) != 0 {
		t.Errorf("the page with known terms was tokenized again: %+v", hits)
	}
	if hits := search.Search(idx, "クォーラム"); len(hits) != 1 || hits[0].URL != "/ja/cka/05-ha-cluster/" {
		t.Errorf("the page tokenized now: %+v", hits)
	}
}

// TestSearchFragments: each entry's fragment is put once, at its path in
// the index's folder, with its entry's fingerprint.
func TestSearchFragments(t *testing.T) {
	pages, rs := searchPages()
	es := SearchEntries("ja", pages, rs)
	var mu sync.Mutex
	got := map[string]uint64{}
	made := map[string]string{}
	SearchFragments("ja", es, search.Options{ExplicitIndex: true}, func(e SearchEntry) search.Doc { return e.Doc }, func(p string, fp uint64, mk func() []byte) {
		mu.Lock()
		defer mu.Unlock()
		got[p] = fp
		made[p] = string(mk())
	})
	if len(got) != len(es) {
		t.Fatalf("%d fragments for %d entries", len(got), len(es))
	}
	for _, e := range es {
		found := false
		for p, fp := range got {
			if fp == e.FP && strings.HasPrefix(p, search.DataDir("ja")+"p-") && strings.Contains(made[p], e.Doc.URL+"index.html") {
				found = true
			}
		}
		if !found {
			t.Errorf("no fragment for %s: %v", e.Doc.URL, got)
		}
	}
}

// TestHeadings: the entries Headings makes build after build are those
// of SearchEntries, whether a page's table of contents is the last
// build's (its data taken whole: a copy sharing it), a new one, or none.
func TestHeadings(t *testing.T) {
	pages, rs := searchPages()
	pages[0].TOC = []render.TOCEntry{{Text: "構成要素", Children: []render.TOCEntry{{Text: "etcd"}, {Text: "apiserver"}}}, {Text: "まとめ"}}
	var hs Headings
	builds := []func(){
		func() {},
		func() {}, // nothing changed
		func() { // every page's data taken whole
			for i, p := range pages {
				q := *p
				pages[i] = &q
			}
		},
		func() { // a page edited: a new table of contents, as long
			q := *pages[1]
			q.TOC = []render.TOCEntry{{Text: "過半数"}}
			pages[1] = &q
		},
		func() { pages[0].TOC = pages[0].TOC[:1] }, // shorter, at the same address
		func() { pages[1].TOC = nil },
	}
	for i, edit := range builds {
		edit()
		for _, lang := range []string{"ja", "ko"} {
			got, want := hs.Entries(lang, pages, rs), SearchEntries(lang, pages, rs)
			if !slices.Equal(got, want) {
				t.Errorf("build %d, %s: entries\n%+v\nwant\n%+v", i, lang, got, want)
			}
		}
	}
	if got := (*Headings)(nil).Entries("ja", pages, rs); !slices.Equal(got, SearchEntries("ja", pages, rs)) {
		t.Errorf("a nil Headings: %+v", got)
	}
}
