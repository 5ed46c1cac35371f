package search

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// parityQueries are run on both the fake corpus and, when present, the
// bundled course, by Go and by search.js; the two must agree exactly.
var parityQueries = []string{
	"クォーラム", "クォーラ", "ｸｫｰﾗﾑ", "etcd クォーラム", "高可用性", "単一障害点",
	"ロードバランサー", "証明書", "構", "ー", "kubectl", "ｋｕｂｅｃｔｌ", "kubec", "KUBE",
	"kube-apiserver", "kube apiserver", "10.0.0.120", "10.0.0", "6443",
	"etcdctl member list", "`etcdctl member list` で確認", "--control-plane-endpoint",
	"control-plane-endpoint", "stacked etcd", "external etcd", "apiserver 証明書 SAN",
	"쿼럼", "쿼럼은", "쿼럼이 깨지면", "컨트롤 플레인은", "인증서", "로드 밸런서", "고가용성",
	"k", "", "   ", "「」", "zzzz", "存在しない語彙",
	"台", "の", "쿼", "e", "et", "etcd", "etcdctl m", "kube-a", "10.0.0.1", "control plane 構成",
}

type parityHit struct {
	URL     string  `json:"url"`
	Matched int     `json:"matched"`
	Terms   int     `json:"terms"`
	Score   int     `json:"score"`
	Snippet [][]any `json:"snippet"`
}

type parityCase struct {
	Dir    string      `json:"dir"` // the folder of the index, under the fixtures'
	Lang   string      `json:"lang"`
	Query  string      `json:"query"`
	Shards []int       `json:"shards"` // what the query reads, by number
	Hits   []parityHit `json:"hits"`
}

type parityPair struct {
	In  string `json:"in"`
	Out any    `json:"out"`
}

// TestParityWithJS writes the Go results as fixtures and has node run
// build/e2e/node/search_parity.mjs over them with search.js, which loads
// each shard and fragment only when a query asks for it: the shards each
// query reads, its hits and their snippets must be the same. Each corpus
// is indexed with the default shards and with tiny ones, so that many
// queries cross a shard boundary. Without node the test is skipped,
// except under CI=true where that is a failure.
func TestParityWithJS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node not found; the search parity test needs it under CI")
		}
		t.Skip("node not found")
	}
	dir := t.TempDir()

	corpora := map[string][]Doc{"fake": corpus()}
	if docs := courseDocs(t); len(docs) > 0 {
		corpora["course"] = docs
	}
	sizes := map[string]int{"": 0, "-tiny": 120}
	var cases []parityCase
	for name, docs := range corpora {
		for suffix, size := range sizes {
			for _, lang := range []string{"ja", "ko"} {
				key := name + suffix + "-" + lang
				files, st := Files(lang, docs, Options{ShardBytes: size})
				if size > 0 && st.Shards < 5 {
					t.Fatalf("%s: %d shards; the tiny ones should be many", key, st.Shards)
				}
				for p, b := range files {
					f := filepath.Join(dir, key, filepath.FromSlash(p))
					if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(f, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				idx, err := Load(lang, reader(files))
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range parityQueries {
					c := parityCase{Dir: key, Lang: lang, Query: q, Shards: idx.shardsFor(q), Hits: []parityHit{}}
					if c.Shards == nil {
						c.Shards = []int{}
					}
					for _, h := range Search(idx, q) {
						ph := parityHit{URL: h.URL, Matched: h.Matched, Terms: h.Terms, Score: h.Score, Snippet: [][]any{}}
						for _, s := range h.Snippet {
							ph.Snippet = append(ph.Snippet, []any{s.Text, s.Mark})
						}
						c.Hits = append(c.Hits, ph)
					}
					cases = append(cases, c)
				}
			}
		}
	}

	var tokens, folds []parityPair
	inputs := append([]string{}, parityQueries...)
	for _, d := range corpus() {
		inputs = append(inputs, d.Title, d.Text, d.Code)
	}
	inputs = append(inputs, "ｶﾞｲﾄﾞ ｸｫｰﾗﾑ", "Café İstanbul ΣΑΣ", "①②③ ㍿ ﬁle", "a\u0301b", "\u3099x",
		"/etc/kubernetes/pki/apiserver.crt", "https://10.0.0.120:6443/healthz", strings.Repeat("x", 70))
	inputs = append(inputs, fastPathSeeds...)
	for _, s := range inputs {
		toks := Tokenize(s)
		if toks == nil {
			toks = []string{}
		}
		tokens = append(tokens, parityPair{s, toks})
		folds = append(folds, parityPair{s, fold(s)})
	}
	fx, err := json.Marshal(map[string]any{"tokens": tokens, "folds": folds, "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fixtures.json"), fx, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join("..", "e2e", "node", "search_parity.mjs")
	out, err := exec.Command(node, script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", node, script, err, out)
	}
	t.Logf("%s", out)
}

// courseDocs reads the bundled course's markdown as plain text, a larger
// and real corpus for the parity check. It is empty when the content folder
// is absent.
func courseDocs(t *testing.T) []Doc {
	t.Helper()
	root := filepath.Join("..", "..", "content")
	var docs []Doc
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) < 2 {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		title := strings.TrimSuffix(parts[len(parts)-1], ".md")
		docs = append(docs, Doc{
			Lang:  parts[0],
			URL:   "/" + strings.TrimSuffix(filepath.ToSlash(rel), ".md") + "/",
			Title: title,
			Text:  string(b),
		})
		return nil
	})
	return docs
}
