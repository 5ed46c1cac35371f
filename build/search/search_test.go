package search

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"sort"
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

func build(t *testing.T, docs []Doc, lang string, opts Options) (map[string][]byte, *Index) {
	t.Helper()
	files, _ := Files(lang, docs, opts)
	idx, err := Load(lang, reader(files))
	if err != nil {
		t.Fatalf("Load(Files(%q)): %v", lang, err)
	}
	return files, idx
}

// reader reads files as Load asks for them.
func reader(files map[string][]byte) func(string) ([]byte, bool) {
	return func(p string) ([]byte, bool) {
		b, ok := files[p]
		return b, ok
	}
}

// joined is every file of an index, sorted by path, each after a line
// naming it: what the golden file holds.
func joined(files map[string][]byte) []byte {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b bytes.Buffer
	for _, p := range paths {
		b.WriteString("// " + p + "\n")
		b.Write(files[p])
	}
	return b.Bytes()
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
	if !bytes.Equal(joined(a), joined(b)) {
		t.Fatal("two builds of the same pages differ")
	}
	golden := filepath.Join("testdata", "ja-index.golden.js")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, joined(a), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(joined(a), want) {
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
	files, st := Files("ko", corpus(), Options{ExplicitIndex: true})
	idx, err := Load("ko", reader(files))
	if err != nil {
		t.Fatal(err)
	}
	if idx.Lang != "ko" || len(idx.pages) != 2 {
		t.Fatalf("Load: lang %q, %d pages", idx.Lang, len(idx.pages))
	}
	for _, d := range idx.pages {
		if !strings.HasSuffix(d.url, "/index.html") || !strings.HasPrefix(d.url, "/ko/cka/") {
			t.Errorf("explicit URL %q", d.url)
		}
	}
	keys, shardBytes := 0, 0
	for _, sh := range idx.shards {
		keys += len(sh.keys)
	}
	for p, b := range files {
		if strings.HasPrefix(p, ShardPrefix("ko")) {
			shardBytes += len(b)
		}
	}
	if st.Docs != 2 || st.Keys != keys || st.Keys == 0 || st.Postings < st.Keys || st.Shards != len(idx.shards) ||
		st.ManifestBytes != len(files[IndexPath("ko")]) || st.ShardBytes != shardBytes || len(files) != 1+st.Shards+st.Docs {
		t.Errorf("stats %+v for %d files, %d keys", st, len(files), keys)
	}
	head := "globalThis.kakehashiSearch=globalThis.kakehashiSearch||{};\nglobalThis.kakehashiSearch[\"ko\"]={\"v\":3,"
	if m := files[IndexPath("ko")]; !bytes.HasPrefix(m, []byte(head)) {
		t.Errorf("manifest head: %.120s", m)
	}
	for p, b := range files {
		// nothing in a script may close a <script> element or break a line
		if bytes.Contains(b, []byte("</")) || bytes.ContainsRune(b, '\u2028') {
			t.Errorf("%s holds </ or U+2028", p)
		}
		if p != IndexPath("ko") && !strings.HasPrefix(p, DataDir("ko")) {
			t.Errorf("file %s outside the index's folder", p)
		}
	}

	empty, st := Files("fr", corpus(), Options{})
	if idx, err := Load("fr", reader(empty)); err != nil || len(Search(idx, "etcd")) != 0 || st.Docs != 0 || len(empty) != 1 {
		t.Errorf("empty language: %v, stats %+v, files %d", err, st, len(empty))
	}
}

func TestLoadRejectsBadInput(t *testing.T) {
	good, _ := build(t, corpus(), "ja", Options{})
	manifest := string(good[IndexPath("ja")])
	var shard, fragment string
	for p := range good {
		switch {
		case strings.HasPrefix(p, ShardPrefix("ja")) && shard == "":
			shard = p
		case strings.Contains(p, "/p-") && fragment == "":
			fragment = p
		}
	}
	tests := []struct {
		name string
		path string // the file changed
		in   string
	}{
		{"empty", IndexPath("ja"), ""},
		{"not ours", IndexPath("ja"), "var x = 1;"},
		{"truncated", IndexPath("ja"), manifest[:len(manifest)/2]},
		{"wrong version", IndexPath("ja"), strings.Replace(manifest, `"v":3`, `"v":99`, 1)},
		{"another language", IndexPath("ja"), strings.Replace(manifest, `"lang":"ja"`, `"lang":"ko"`, 1)},
		{"a shard too few", IndexPath("ja"), strings.Replace(manifest, `"shards":"`, `"shards":"x `, 1)},
		{"shard missing", shard, ""},
		{"shard truncated", shard, string(good[shard][:len(good[shard])/2])},
		{"bad posting", shard, strings.Replace(string(good[shard]), `"post":"`, `"post":"?`, 1)},
		{"doc out of range", shard, strings.Replace(string(good[shard]), `"post":"`, `"post":"6v0 `, 1)},
		{"shard of another name", shard, strings.Replace(string(good[shard]), `.shard["`, `.shard["x`, 1)},
		{"fragment missing", fragment, ""},
		{"fragment truncated", fragment, string(good[fragment][:len(good[fragment])-3])},
	}
	for _, tt := range tests {
		files := maps.Clone(good)
		if tt.in == "" && tt.name != "empty" {
			delete(files, tt.path)
		} else {
			files[tt.path] = []byte(tt.in)
		}
		if _, err := Load("ja", reader(files)); err == nil {
			t.Errorf("%s: Load accepted it", tt.name)
		}
	}
	if Search(nil, "etcd") != nil {
		t.Error("Search(nil) returned hits")
	}
}

// TestSnippetEdgesKeepWordsWhole: a matched word the snippet's window
// begins or ends in is shown and marked whole, not cut to its first
// letters ("apiserver+et…").
func TestSnippetEdgesKeepWordsWhole(t *testing.T) {
	// "etcd ", then 93 runes: the window from the first etcd (100 runes)
	// ends two runes into the second word
	pad := "etcd " + strings.Repeat("x ", 46) + "+"
	for _, tc := range []struct{ text, want string }{
		{pad + "etcd and more after it", "[etcd]"},
		{pad + "etcdctl and more after it", "[etcdctl]"},
	} {
		rs := []rune(tc.text)
		segs := snippetOf(pageText{rs, tokenizeRunes(rs)}, queryTerms("etcd"))
		got := SnippetText(segs)
		var last string
		for _, s := range segs {
			if s.Mark {
				last = "[" + s.Text + "]"
			}
		}
		if last != tc.want {
			t.Errorf("%q: snippet %q, last mark %s; want %s", tc.text, got, last, tc.want)
		}
	}
}
