package search

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The indexer's one-pass paths must give exactly what the plain
// definitions give: the browser script mirrors the plain ones.

var fastPathSeeds = []string{
	"",
	"クォーラムは過半数 (n/2+1)。kube-apiserver の 10.0.0.120:6443",
	"쿼럼은 과반수입니다. etcdctl member list",
	"ｶﾞｷﾞｸﾞ ﾊﾟｰﾃｨｰ",  // half-width kana with sound marks
	"か\u3099き\u309a", // kana with combining marks
	"e\u0301te\u0301 ÉTÉ İstanbul ǅ Σίσυφος",
	"\u0301leading mark", // a mark with no base
	"Ｆｕｌｌｗｉｄｔｈ　ＡＢＣ１２３",
	"① ㍻ ﬁ ™ ㌔",
	"\xff\xfe broken \xe3\x81 utf-8 \xed\xa0\x80",
	"tabs\tand\nnew\u00a0lines\u3000and\u2028more\u0085",
	"한글\u1100\u1161\u11a8 jamo",
	"\U0002000B ext-B han 〆 々 ヶ",
}

func TestPrepareMatchesNormalize(t *testing.T) {
	for _, s := range fastPathSeeds {
		checkPrepare(t, s)
	}
}

func checkPrepare(t *testing.T, s string) {
	t.Helper()
	var tk tokenizer
	tk.prepare(s)
	want := normalize([]rune(s))
	if !slices.Equal(tk.cs, want) {
		t.Fatalf("prepare(%q):\n got %v\nwant %v", s, tk.cs, want)
	}
	for i, c := range want {
		if tk.cl[i] != classOf(c.r) {
			t.Fatalf("prepare(%q): class of %q is %d, want %d", s, c.r, tk.cl[i], classOf(c.r))
		}
	}
	if len(tk.cl) != len(want) {
		t.Fatalf("prepare(%q): %d classes for %d characters", s, len(tk.cl), len(want))
	}
}

// collapseReference is collapse by its definition.
func collapseReference(s string) string {
	valid := string([]rune(s)) // each invalid byte becomes U+FFFD
	return strings.Join(strings.FieldsFunc(valid, unicode.IsSpace), " ")
}

func TestCollapseMatchesDefinition(t *testing.T) {
	for _, s := range fastPathSeeds {
		if got, want := collapse(s), collapseReference(s); got != want {
			t.Errorf("collapse(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzFastPaths(f *testing.F) {
	for _, s := range fastPathSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkPrepare(t, s)
		if got, want := collapse(s), collapseReference(s); got != want {
			t.Fatalf("collapse(%q) = %q, want %q", s, got, want)
		}
	})
}

func FuzzJSONString(f *testing.F) {
	for _, s := range append(fastPathSeeds, "<script>&amp;</script>", "\"\\\b\f\n\r\t\x00\x1f\u2028\u2029") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
		if got := appendJSONString(nil, []byte(s)); string(got) != string(want) {
			t.Fatalf("appendJSONString([]byte(%q)) = %s, want %s", s, got, want)
		}
	})
}

// An index with no pages is still well-formed.
func TestBuildEmpty(t *testing.T) {
	files, st := Files("ja", nil, Options{})
	idx, err := Load("ja", func(p string) ([]byte, bool) { b, ok := files[p]; return b, ok })
	if err != nil || st.Docs != 0 || st.Keys != 0 || st.Shards != 0 {
		t.Fatalf("empty index: %v, %+v\n%s", err, st, files[IndexPath("ja")])
	}
	if len(Search(idx, "etcd")) != 0 {
		t.Error("an empty index found something")
	}
}
