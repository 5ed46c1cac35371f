package search

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// corpus is a small fake site: two parts per language, sharing enough
// vocabulary that ranking, not mere presence, decides.
func corpus() []Doc {
	return []Doc{
		{
			Lang: "ja", URL: "/ja/cka/02-control-plane/", Part: 2,
			Title:    "コントロールプレーンの構成",
			Headings: "kube-apiserver の役割\n単一ノード",
			Text: "control plane は kube-apiserver、etcd、scheduler、controller-manager で構成されます。" +
				"kube-apiserver の役割: kubectl は apiserver に https://10.0.0.120:6443 で接続します。" +
				"単一ノード: ノードが 1 台だけのクラスターでは etcd も同じノードにあります。",
			Code: "kubectl get nodes\nkubeadm init --apiserver-advertise-address=10.0.0.120",
		},
		{
			Lang: "ja", URL: "/ja/cka/05-ha-cluster/", Part: 5,
			Title:    "HA クラスター: etcd クォーラムと複数 control plane",
			Headings: "etcd クォーラム\nロードバランサー",
			Text: "etcd クォーラム: etcd は書き込みのためにメンバーの過半数、つまりクォーラムが必要です。" +
				"3 台なら 1 台の障害に耐えます。ロードバランサー: apiserver の前に VIP 10.0.0.100 を置き、" +
				"--control-plane-endpoint に指定します。",
			Code: "etcdctl member list\nETCDCTL_API=3 etcdctl endpoint health",
		},
		{
			Lang: "ko", URL: "/ko/cka/02-control-plane/", Part: 2,
			Title:    "컨트롤 플레인의 구성",
			Headings: "kube-apiserver 의 역할",
			Text: "control plane 은 kube-apiserver, etcd, scheduler 로 구성됩니다. " +
				"kube-apiserver 의 역할: kubectl 은 10.0.0.120 의 apiserver 에 접속합니다. 노드가 한 대뿐인 클러스터입니다.",
			Code: "kubectl get nodes",
		},
		{
			Lang: "ko", URL: "/ko/cka/05-ha-cluster/", Part: 5,
			Title:    "HA 클러스터: etcd 쿼럼과 여러 control plane",
			Headings: "etcd 쿼럼",
			Text: "etcd 쿼럼: etcd 는 쿼럼을 유지하려면 과반수 멤버가 필요합니다. 쿼럼이 깨지면 쓰기가 멈춥니다. " +
				"apiserver 앞에 VIP 10.0.0.100 을 둡니다.",
			Code: "etcdctl member list",
		},
	}
}

func build(t *testing.T, docs []Doc, lang string, opts Options) ([]byte, *Index) {
	t.Helper()
	var ix Indexer
	for _, d := range docs {
		ix.Add(d)
	}
	js, _ := ix.Build(lang, opts)
	idx, err := Load(js)
	if err != nil {
		t.Fatalf("Load(Build(%q)): %v", lang, err)
	}
	return js, idx
}

// searchCases are the queries of issue 6 and the part each must rank first.
var searchCases = []struct {
	lang, query string
	wantURL     string // "" when nothing may match
	wantMark    string // a marked piece the first snippet must contain
}{
	{"ja", "クォーラム", "/ja/cka/05-ha-cluster/", "クォーラム"},
	{"ja", "クォーラ", "/ja/cka/05-ha-cluster/", "クォーラ"},
	{"ja", "ｸｫｰﾗﾑ", "/ja/cka/05-ha-cluster/", "クォーラム"},
	{"ja", "etcdctl member list", "/ja/cka/05-ha-cluster/", "etcdctl member list"},
	{"ja", "kube-apiserver", "/ja/cka/02-control-plane/", "kube-apiserver"},
	{"ja", "10.0.0.120", "/ja/cka/02-control-plane/", "10.0.0.120"},
	{"ja", "ｋｕｂｅｃｔｌ", "/ja/cka/02-control-plane/", "kubectl"},
	{"ja", "KUBECTL", "/ja/cka/02-control-plane/", "kubectl"},
	{"ja", "control-plane-endpoint", "/ja/cka/05-ha-cluster/", "control-plane-endpoint"},
	{"ja", "ロードバランサ", "/ja/cka/05-ha-cluster/", "ロードバランサ"},
	{"ja", "単一ノード", "/ja/cka/02-control-plane/", "単一ノード"},
	{"ja", "kubec", "/ja/cka/02-control-plane/", "kubectl"},
	{"ja", "構", "/ja/cka/02-control-plane/", "で構成"},
	{"ja", "存在しない語彙", "", ""},
	{"ko", "쿼럼", "/ko/cka/05-ha-cluster/", "쿼럼"},
	{"ko", "쿼럼은", "/ko/cka/05-ha-cluster/", "쿼럼"},
	{"ko", "쿼럼이 깨지면", "/ko/cka/05-ha-cluster/", "쿼럼이 깨지면"},
	{"ko", "etcdctl member list", "/ko/cka/05-ha-cluster/", "etcdctl member list"},
	{"ko", "kube-apiserver", "/ko/cka/02-control-plane/", "kube-apiserver"},
	{"ko", "10.0.0.120", "/ko/cka/02-control-plane/", "10.0.0.120"},
	{"ko", "ｋｕｂｅｃｔｌ", "/ko/cka/02-control-plane/", "kubectl"},
	{"ko", "컨트롤 플레인은", "/ko/cka/02-control-plane/", ""},
	{"ko", "zzzz", "", ""},
}

func TestSearchFindsTheRightPart(t *testing.T) {
	idx := map[string]*Index{}
	for _, lang := range []string{"ja", "ko"} {
		_, idx[lang] = build(t, corpus(), lang, Options{})
	}
	for _, tc := range searchCases {
		t.Run(tc.lang+"/"+tc.query, func(t *testing.T) {
			hits := Search(idx[tc.lang], tc.query)
			if tc.wantURL == "" {
				if len(hits) != 0 {
					t.Fatalf("got %d hits, first %s; want none", len(hits), hits[0].URL)
				}
				return
			}
			if len(hits) == 0 {
				t.Fatalf("no hits; want %s", tc.wantURL)
			}
			if hits[0].URL != tc.wantURL {
				t.Errorf("first hit %s (matched %d/%d, score %d); want %s",
					hits[0].URL, hits[0].Matched, hits[0].Terms, hits[0].Score, tc.wantURL)
			}
			if len(hits) > 1 && hits[1].Matched == hits[0].Matched && hits[1].Score == hits[0].Score {
				t.Errorf("first two hits tie at %d/%d", hits[0].Matched, hits[0].Score)
			}
			if tc.wantMark != "" && !marks(hits[0].Snippet, tc.wantMark) {
				t.Errorf("snippet %q does not mark %q", SnippetText(hits[0].Snippet), tc.wantMark)
			}
		})
	}
}

// marks tells whether a marked piece of segs contains want.
func marks(segs []Segment, want string) bool {
	for _, s := range segs {
		if s.Mark && strings.Contains(s.Text, want) {
			return true
		}
	}
	return false
}

func TestSearchTolerance(t *testing.T) {
	_, idx := build(t, corpus(), "ko", Options{})
	tests := []struct {
		query       string
		wantMatched int
		wantTerms   int
	}{
		{"쿼럼은", 1, 2}, // 럼은 is nowhere; half the terms suffice
		{"쿼럼", 1, 1},
		{"etcdctl member list", 3, 3},
		{"etcdctl nothing here", 1, 3}, // below half: no hit
	}
	for _, tt := range tests {
		hits := Search(idx, tt.query)
		if tt.wantMatched*2 < tt.wantTerms {
			if len(hits) != 0 {
				t.Errorf("Search(%q) = %d hits, want none", tt.query, len(hits))
			}
			continue
		}
		if len(hits) == 0 {
			t.Fatalf("Search(%q): no hits", tt.query)
		}
		if hits[0].Matched != tt.wantMatched || hits[0].Terms != tt.wantTerms {
			t.Errorf("Search(%q) matched %d/%d, want %d/%d", tt.query, hits[0].Matched, hits[0].Terms, tt.wantMatched, tt.wantTerms)
		}
	}
}

func TestBuildDeterministic(t *testing.T) {
	docs := corpus()
	a, _ := build(t, docs, "ja", Options{})
	rev := make([]Doc, len(docs))
	for i, d := range docs {
		rev[len(docs)-1-i] = d
	}
	b, _ := build(t, rev, "ja", Options{})
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of the same pages differ")
	}
	golden := filepath.Join("testdata", "ja-index.golden.js")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, a, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(a, want) {
		t.Errorf("index differs from %s (run go test -update if intended)", golden)
	}
}

func TestBuildOptionsAndStats(t *testing.T) {
	var ix Indexer
	for _, d := range corpus() {
		ix.Add(d)
	}
	if got := strings.Join(ix.Langs(), ","); got != "ja,ko" {
		t.Errorf("Langs() = %s", got)
	}
	js, st := ix.Build("ko", Options{ExplicitIndex: true})
	idx, err := Load(js)
	if err != nil {
		t.Fatal(err)
	}
	if idx.Lang != "ko" || len(idx.docs) != 2 {
		t.Fatalf("Load: lang %q, %d docs", idx.Lang, len(idx.docs))
	}
	for _, d := range idx.docs {
		if !strings.HasSuffix(d.url, "/index.html") || !strings.HasPrefix(d.url, "/ko/cka/") {
			t.Errorf("explicit URL %q", d.url)
		}
	}
	if st.Bytes != len(js) || st.Docs != 2 || st.Keys != len(idx.keys) || st.Keys == 0 || st.TextBytes == 0 || st.Postings < st.Keys {
		t.Errorf("stats %+v for %d bytes, %d keys", st, len(js), len(idx.keys))
	}
	if !bytes.HasPrefix(js, []byte("globalThis.kakehashiSearch=globalThis.kakehashiSearch||{};\nglobalThis.kakehashiSearch[\"ko\"]=")) {
		t.Errorf("script head: %.80s", js)
	}
	// nothing in the script may close a <script> element or break a line
	if bytes.Contains(js, []byte("</")) || bytes.ContainsRune(js, '\u2028') {
		t.Error("script holds </ or U+2028")
	}

	empty, st := ix.Build("fr", Options{})
	if idx, err := Load(empty); err != nil || len(Search(idx, "etcd")) != 0 || st.Docs != 0 {
		t.Errorf("empty language: %v, stats %+v", err, st)
	}
}

func TestLoadRejectsBadInput(t *testing.T) {
	good, _ := build(t, corpus(), "ja", Options{})
	tests := []struct {
		name string
		in   string
	}{
		{"empty", ""},
		{"not ours", "var x = 1;"},
		{"truncated", string(good[:len(good)/2])},
		{"bad posting", strings.Replace(string(good), `"post":"`, `"post":"?`, 1)},
		{"doc out of range", strings.Replace(string(good), `"post":"`, `"post":"6v0 `, 1)},
		{"wrong version", strings.Replace(string(good), `"v":1`, `"v":99`, 1)},
	}
	for _, tt := range tests {
		if _, err := Load([]byte(tt.in)); err == nil {
			t.Errorf("%s: Load accepted it", tt.name)
		}
	}
	if Search(nil, "etcd") != nil {
		t.Error("Search(nil) returned hits")
	}
}
