package search_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"golang.org/x/text/unicode/norm"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// benchQuery is one entry of ../internal/searchbench/queries.json, the query list that
// make search-bench runs through kakehashi's search and Pagefind.
type benchQuery struct {
	Q      string   `json:"q"`
	Lang   string   `json:"lang"`
	Group  string   `json:"group"`
	Kind   string   `json:"kind"`
	In     string   `json:"in"`
	Expect []string `json:"expect"`
}

// loadBenchQueries reads ../internal/searchbench/queries.json.
func loadBenchQueries(t *testing.T) []benchQuery {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "internal", "searchbench", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		About   string       `json:"about"`
		Queries []benchQuery `json:"queries"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("queries.json: %v", err)
	}
	return f.Queries
}

// benchFold is the text as the expectations compare it: NFKC, lower case.
func benchFold(s string) string { return strings.ToLower(norm.NFKC.String(s)) }

// partPages returns, per language, the folded markdown of each course part
// under its site URL (content/ja/cka/05-ha-cluster.md is
// /ja/cka/05-ha-cluster/).
func partPages(t *testing.T) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, lang := range []string{"ja", "ko"} {
		files, err := filepath.Glob(filepath.Join("..", "..", "content", lang, "*", "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		out[lang] = map[string]string{}
		for _, f := range files {
			if strings.HasPrefix(filepath.Base(f), "_") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			series := filepath.Base(filepath.Dir(f))
			url := "/" + lang + "/" + series + "/" + strings.TrimSuffix(filepath.Base(f), ".md") + "/"
			out[lang][url] = benchFold(string(b))
		}
	}
	return out
}

// TestBenchQueriesAreHonest checks the benchmark's query list against the
// course: at least ten queries per group, and each query expects exactly
// the part pages whose text holds its evidence (the in field), so an edit
// of the course cannot leave the expectations silently wrong.
func TestBenchQueriesAreHonest(t *testing.T) {
	qs := loadBenchQueries(t)
	pages := partPages(t)
	groups := map[string]int{}
	seen := map[string]bool{}
	for _, q := range qs {
		name := q.Lang + ":" + q.Q
		if seen[name] {
			t.Errorf("%s: listed twice", name)
		}
		seen[name] = true
		groups[q.Group]++
		if q.Lang != "ja" && q.Lang != "ko" {
			t.Errorf("%s: lang %q, want ja or ko", name, q.Lang)
			continue
		}
		if q.Group != q.Lang && q.Group != "tech" {
			t.Errorf("%s: group %q, want %q or tech", name, q.Group, q.Lang)
		}
		if strings.TrimSpace(q.Q) == "" || strings.TrimSpace(q.In) == "" || q.Kind == "" {
			t.Errorf("%s: q, in and kind must not be empty", name)
		}
		if len(q.Expect) == 0 {
			t.Errorf("%s: expects no page", name)
		}
		var want []string
		ev := benchFold(q.In)
		for url, text := range pages[q.Lang] {
			if strings.Contains(text, ev) {
				want = append(want, url)
			}
		}
		sort.Strings(want)
		got := append([]string(nil), q.Expect...)
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: expect %v, but the parts holding %q are %v", name, got, q.In, want)
		}
	}
	for _, g := range []string{"ja", "ko", "tech"} {
		if groups[g] < 10 {
			t.Errorf("group %s has %d queries, want at least 10", g, groups[g])
		}
	}
}

// TestBenchFold pins the folding the expectations use, so that a full-width
// query's evidence and the course text meet.
func TestBenchFold(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ｋｕｂｅｃｔｌ", "kubectl"},
		{"CrashLoopBackOff", "crashloopbackoff"},
		{"ｸｫｰﾗﾑ", "クォーラム"},
		{"쿼럼", "쿼럼"},
	} {
		if got := benchFold(tc.in); got != tc.want {
			t.Errorf("benchFold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCourseRecall builds the bundled course as kakehashi build does and
// runs every query of the benchmark's list through its index, as the
// search box would, from the shards each query reads: every part a query
// expects is among its first 5 results (recall@5 is 100% in both
// languages), with a snippet that marks something.
func TestCourseRecall(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fs := afero.NewCopyOnWriteFs(afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), root)), afero.NewMemMapFs())
	b, err := build.New(fs, build.Options{BaseURL: "https://example.org/"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]*search.Index{}
	for _, lang := range []string{"ja", "ko"} {
		if idx[lang], err = search.Load(lang, res.Site.Get); err != nil {
			t.Fatal(err)
		}
	}
	found, want := map[string]int{}, map[string]int{}
	for _, q := range loadBenchQueries(t) {
		hits := search.Search(idx[q.Lang], q.Q)
		top := map[string]bool{}
		var got []string
		for i, h := range hits {
			if i < 5 {
				top[h.URL] = true
				got = append(got, h.URL)
				if !strings.Contains(search.SnippetText(h.Snippet), "[") {
					t.Errorf("%s %q: %s's snippet marks nothing: %q", q.Lang, q.Q, h.URL, search.SnippetText(h.Snippet))
				}
			}
		}
		for _, e := range q.Expect {
			want[q.Lang]++
			if top[e] {
				found[q.Lang]++
			} else {
				t.Errorf("%s %q: %s is not in the first 5: %q", q.Lang, q.Q, e, got)
			}
		}
	}
	for _, lang := range []string{"ja", "ko"} {
		if want[lang] == 0 {
			t.Errorf("no %s queries", lang)
		}
		t.Logf("%s: recall@5 %d/%d", lang, found[lang], want[lang])
	}
}
