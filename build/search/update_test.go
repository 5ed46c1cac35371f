package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// updateDoc is a page of the update tests: a title and text drawn from
// a few Japanese, Korean and Latin words, so that pages share keys.
func updateDoc(r *rand.Rand, i, words int) Doc {
	vocab := []string{"クラスター", "証明書", "更新", "制御", "ノード", "障害", "복구", "인증서", "노드", "etcd", "kubeadm", "quorum", "10.0.0.1", "api-server", "の", "を", "は"}
	// And many rarer words, so that a page holds a few of the keys.
	kanji := []rune("日本語学習者向講座演習問題解説設定構成手順確認実行結果記録管理運用監視")
	pick := func(n int) string {
		var b strings.Builder
		for range n {
			switch r.IntN(3) {
			case 0:
				b.WriteString(vocab[r.IntN(len(vocab))])
			case 1:
				fmt.Fprintf(&b, "w%d ", r.IntN(3000))
			default:
				b.WriteRune(kanji[r.IntN(len(kanji))])
				b.WriteRune(kanji[r.IntN(len(kanji))])
			}
			if r.IntN(3) == 0 {
				b.WriteString(" ")
			}
		}
		return b.String()
	}
	return Doc{Lang: "ja", URL: fmt.Sprintf("/ja/p%03d/", i), Title: pick(3), Text: pick(words), Code: pick(r.IntN(5))}
}

// pagesOf analyzes docs into pages, each fingerprinted by its text.
func pagesOf(docs []Doc) []Page {
	var an Analyzer
	ps := make([]Page, len(docs))
	for i, d := range docs {
		ps[i] = Page{URL: d.URL, Terms: an.Analyze(d), FP: urlHash(d.Title + "\x00" + d.Text + "\x00" + d.Code)}
	}
	return ps
}

// sameIndex compares got, made by Update over the output out of the last
// build (by path), with want, made afresh by Build.
func sameIndex(t *testing.T, step string, got, want *Built, out map[string][]byte) {
	t.Helper()
	if !bytes.Equal(got.Manifest, want.Manifest) {
		t.Fatalf("%s: the manifests differ", step)
	}
	if len(got.Shards) != len(want.Shards) {
		t.Fatalf("%s: %d shards, want %d", step, len(got.Shards), len(want.Shards))
	}
	for i, w := range want.Shards {
		g := got.Shards[i]
		if g.Path != w.Path || g.Sum != w.Sum {
			t.Fatalf("%s: shard %d is %s (%x), want %s (%x)", step, i, g.Path, g.Sum, w.Path, w.Sum)
		}
		data := g.Data
		if data == nil {
			data = out[g.Path]
			if !bytes.Equal(got.Made(i), w.Data) {
				t.Fatalf("%s: shard %s made again differs", step, g.Path)
			}
		}
		if !bytes.Equal(data, w.Data) {
			t.Fatalf("%s: shard %s differs", step, g.Path)
		}
	}
	if got.Stats != want.Stats {
		t.Errorf("%s: stats %+v, want %+v", step, got.Stats, want.Stats)
	}
}

// TestUpdate: an index updated after edits of every kind (a word added
// or gone, a key new to the index or the last of its kind, a title, a
// page emptied) is, byte for byte, the index Build makes of the same
// pages, edit after edit, each update starting from the last one's
// state; and it remakes only the shards the edit reaches.
func TestUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 60
	docs := make([]Doc, n)
	for i := range docs {
		docs[i] = updateDoc(r, i, 40+r.IntN(40))
	}
	opts := Options{ShardBytes: 512}
	b := Build("ja", pagesOf(docs), opts)
	out := map[string][]byte{}
	files := func(b *Built) {
		clear(out)
		for i, f := range b.Shards {
			out[f.Path] = b.Made(i)
		}
	}
	files(b)
	st := b.State()
	blocks := func(st *State) func(string, uint64) ([]byte, bool) {
		m := map[string]Block{}
		for _, bl := range st.Blocks {
			m[bl.Name] = bl
		}
		return func(name string, sum uint64) ([]byte, bool) {
			bl, ok := m[name]
			return bl.Data, ok && bl.Sum == sum
		}
	}
	edits := []struct {
		name string
		edit func(d *Doc)
	}{
		{"a word added", func(d *Doc) { d.Text += " 追記した段落" }},
		{"a key new to the index", func(d *Doc) { d.Text += " zzzunique 龘龘" }},
		{"a key before every other", func(d *Doc) { d.Text += " 0000" }},
		{"that key gone again", func(d *Doc) { d.Text = strings.ReplaceAll(d.Text, " 0000", "") }},
		{"the title", func(d *Doc) { d.Title = "更新 quorum" }},
		{"the code", func(d *Doc) { d.Code += " etcdctl snapshot" }},
		{"nothing but the fingerprint", func(d *Doc) { d.Code += " " }},
	}
	updated, fresh, remade, shards := 0, 0, 0, 0
	for round := range 12 {
		for _, e := range edits {
			prev := pagesOf(docs)
			// One page edited, or three.
			touched := []int{r.IntN(n)}
			if round%3 == 2 {
				touched = append(touched, r.IntN(n), r.IntN(n))
			}
			for _, i := range touched {
				e.edit(&docs[i])
			}
			now := pagesOf(docs)
			urls, fps := make([]string, n), make([]uint64, n)
			for i, p := range now {
				urls[i], fps[i] = p.URL, p.FP
			}
			want := Build("ja", now, opts)
			got, ok := Update("ja", urls, fps, func(i int) (Terms, bool) { return now[i].Terms, true },
				func(url string, fp uint64) (Terms, bool) {
					for _, p := range prev {
						if p.URL == url && p.FP == fp {
							return p.Terms, true
						}
					}
					return Terms{}, false
				}, st.Head, blocks(st), opts)
			step := fmt.Sprintf("round %d, %s", round, e.name)
			if !ok {
				// Allowed (the average length moved), not the rule.
				fresh++
				b, st = want, want.State()
				files(b)
				continue
			}
			updated++
			sameIndex(t, step, got, want, out)
			made := 0
			for _, f := range got.Shards {
				if f.Data != nil {
					made++
				}
			}
			if e.name == "nothing but the fingerprint" && made > 0 {
				t.Errorf("%s: %d shards made again", step, made)
			}
			remade, shards = remade+made, shards+len(got.Shards)
			b, st = got, got.State()
			files(b)
		}
	}
	if updated < fresh*3 {
		t.Errorf("updated %d times, built afresh %d", updated, fresh)
	}
	if remade*3 > shards {
		t.Errorf("the updates made %d of their %d shards again", remade, shards)
	}
	t.Logf("%d updates, %d built afresh; %d of %d shards made again", updated, fresh, remade, shards)
}

// TestUpdateRefuses: Update reports false, for the caller to build
// afresh, when the pages are others, when a page's terms then are not
// known, and when the state is damaged.
func TestUpdateRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	docs := make([]Doc, 20)
	for i := range docs {
		docs[i] = updateDoc(r, i, 30)
	}
	opts := Options{ShardBytes: 512}
	ps := pagesOf(docs)
	st := Build("ja", ps, opts).State()
	blocks := map[string][]byte{}
	for _, bl := range st.Blocks {
		blocks[bl.Name] = bl.Data
	}
	block := func(name string, _ uint64) ([]byte, bool) { b, ok := blocks[name]; return b, ok }
	urls, fps := make([]string, len(ps)), make([]uint64, len(ps))
	for i, p := range ps {
		urls[i], fps[i] = p.URL, p.FP
	}
	now := func(i int) (Terms, bool) { return ps[i].Terms, true }
	old := func(string, uint64) (Terms, bool) { return Terms{}, false }
	if _, ok := Update("ja", urls, fps, now, old, st.Head, block, opts); !ok {
		t.Error("nothing changed, yet the index cannot be updated")
	}
	other := append([]string(nil), urls...)
	other[3] = "/ja/other/"
	if _, ok := Update("ja", other, fps, now, old, st.Head, block, opts); ok {
		t.Error("another set of pages updated")
	}
	edited := append([]uint64(nil), fps...)
	edited[5]++
	if _, ok := Update("ja", urls, edited, now, old, st.Head, block, opts); ok {
		t.Error("updated without the edited page's terms then")
	}
	if _, ok := Update("ja", urls, fps, now, old, st.Head[:len(st.Head)-3], block, opts); ok {
		t.Error("updated from a head cut short")
	}
	if _, ok := Update("ko", urls, fps, now, old, st.Head, block, opts); ok {
		t.Error("updated another language's index")
	}
	if _, ok := Update("ja", urls, fps, now, old, st.Head, block, Options{}); ok {
		t.Error("updated with other options")
	}
}
