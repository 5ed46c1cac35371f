package search

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// hitsOf is what a test compares of Search's hits.
func hitsOf(idx *Index, q string) []string {
	var out []string
	for _, h := range Search(idx, q) {
		out = append(out, fmt.Sprintf("%s %d/%d %d %s", h.URL, h.Matched, h.Terms, h.Score, SnippetText(h.Snippet)))
	}
	return out
}

// bothCorpora is the fake corpus and the course's pages, these under
// URLs of their own.
func bothCorpora(t *testing.T) []Doc {
	docs := corpus()
	for _, d := range courseDocs(t) {
		d.URL = "/" + d.Lang + "/course" + strings.TrimPrefix(d.URL, "/"+d.Lang)
		docs = append(docs, d)
	}
	return docs
}

// allKeys lists every key of idx, shard after shard.
func allKeys(idx *Index) []string {
	var out []string
	for _, sh := range idx.shards {
		out = append(out, sh.keys...)
	}
	return out
}

// TestShardsRoundTrip: an index cut into many small shards holds the
// same keys and postings, and answers every query the same, as one cut
// into a single shard; every shard holds the keys from its first key in
// the manifest to the next shard's, and no more than twice the size asked
// unless it holds a single key.
func TestShardsRoundTrip(t *testing.T) {
	docs := bothCorpora(t)
	for _, lang := range []string{"ja", "ko"} {
		whole, st := Files(lang, docs, Options{ShardBytes: 1 << 30})
		if st.Shards != 1 {
			t.Fatalf("%s: %d shards, want 1", lang, st.Shards)
		}
		one, err := Load(lang, reader(whole))
		if err != nil {
			t.Fatal(err)
		}
		const size = 300
		files, st := Files(lang, docs, Options{ShardBytes: size})
		idx, err := Load(lang, reader(files))
		if err != nil {
			t.Fatal(err)
		}
		if st.Shards < 10 {
			t.Fatalf("%s: %d shards of %d bytes; want many", lang, st.Shards, size)
		}
		if !slices.Equal(allKeys(idx), allKeys(one)) {
			t.Fatalf("%s: the shards' keys differ from the single shard's", lang)
		}
		for i, sh := range idx.shards {
			if sh.keys[0] != idx.first[i] {
				t.Errorf("%s: shard %d begins with %q, the manifest says %q", lang, i, sh.keys[0], idx.first[i])
			}
			data := files[shardPath(lang, idx.shardNames[i])]
			if len(data) > 2*size+200 && len(sh.keys) > 1 {
				t.Errorf("%s: shard %d is %d bytes with %d keys", lang, i, len(data), len(sh.keys))
			}
			for k, key := range sh.keys {
				o := one.shards[0]
				id := o.id[key]
				if o.idf[id] != sh.idf[k] || !reflect.DeepEqual(o.post[id], sh.post[k]) {
					t.Errorf("%s: the postings of %q differ", lang, key)
				}
			}
		}
		// The keys at either side of every cut, and some of the others,
		// each whole and cut short (a prefix, a lone character).
		queries := append([]string{}, parityQueries...)
		var keys []string
		for _, sh := range idx.shards {
			keys = append(keys, sh.keys[0], sh.keys[len(sh.keys)-1])
		}
		for i, k := range allKeys(one) {
			if i%13 == 0 {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			queries = append(queries, k, strings.TrimSuffix(k, containsMark))
			if rs := []rune(k); len(rs) > 2 {
				queries = append(queries, string(rs[:2]), string(rs[:len(rs)-1]))
			} else {
				queries = append(queries, string(rs[:1]))
			}
		}
		for _, q := range queries {
			if got, want := hitsOf(idx, q), hitsOf(one, q); !slices.Equal(got, want) {
				t.Errorf("%s %q: the sharded index answers\n%q\nthe whole one\n%q", lang, q, got, want)
			}
		}
	}
}

// TestPrefixAcrossShards: the last Latin word of a query matches every key
// it begins, wherever the cuts between shards fall among them.
func TestPrefixAcrossShards(t *testing.T) {
	var docs []Doc
	for i := range 60 {
		docs = append(docs, Doc{Lang: "ja", URL: fmt.Sprintf("/ja/p%02d/", i), Title: fmt.Sprintf("ページ %d", i),
			Text: fmt.Sprintf("kubeword%02d は kube 系の語です。その他 %s", i, strings.Repeat("filler ", i%7))})
	}
	files, _ := Files("ja", docs, Options{ShardBytes: 120})
	idx, err := Load("ja", reader(files))
	if err != nil {
		t.Fatal(err)
	}
	spans := idx.prefixShards("kubeword")
	if len(spans) < 3 {
		t.Fatalf("the keys beginning with kubeword are in %d shards; the test wants them across several", len(spans))
	}
	hits := Search(idx, "kubewor")
	if len(hits) != len(docs) {
		t.Fatalf("kubewor found %d pages, want %d", len(hits), len(docs))
	}
	for _, h := range hits {
		if !marks(h.Snippet, "kubeword") {
			t.Errorf("%s: snippet %q does not mark the prefix's key", h.URL, SnippetText(h.Snippet))
		}
	}
	if got := idx.shardsFor("kubewor"); !slices.Equal(got, idx.prefixShards("kubewor")) {
		t.Errorf("shardsFor = %v, prefixShards = %v", got, idx.prefixShards("kubewor"))
	}
	// A word that is not last is no prefix.
	if hits := Search(idx, "kubewor zzz"); len(hits) != 0 {
		t.Errorf("a prefix that is not the last word matched %d pages", len(hits))
	}
}

// TestContainsEntry: a lone Japanese or Hangul character matches, at half
// weight, every key holding it, which its contains entry answers from a
// shard or two: the scores are those of the keys themselves, found among
// all the keys of the index.
func TestContainsEntry(t *testing.T) {
	docs := bothCorpora(t)
	for _, lang := range []string{"ja", "ko"} {
		files, _ := Files(lang, docs, Options{ShardBytes: 200})
		idx, err := Load(lang, reader(files))
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, k := range allKeys(idx) {
			c, ok := strings.CutSuffix(k, containsMark)
			if !ok {
				continue
			}
			if n := len(idx.shardsFor(c)); n < 1 || n > 2 {
				t.Errorf("%s %q reads %d shards", lang, c, n)
			}
			// Every page's score: the best of the keys holding c at half
			// weight, or c's own key at full weight.
			want := map[int]int{}
			for _, sh := range idx.shards {
				for id, key := range sh.keys {
					if strings.HasSuffix(key, containsMark) || !strings.HasPrefix(key, c) && !strings.HasSuffix(key, c) {
						continue
					}
					for _, p := range sh.post[id] {
						s := sh.idf[id] * (p.w>>1 + titleBonus*(p.w&1))
						if key != c {
							s >>= 1
						}
						if old, ok := want[p.doc]; !ok || s > old {
							want[p.doc] = s
						}
					}
				}
			}
			got := map[int]int{}
			for _, h := range Search(idx, c) {
				got[h.Doc] = h.Score
				// (a page may hold it in its title or headings alone)
				if strings.Contains(idx.pages[h.Doc].text, c) && !marks(h.Snippet, c) {
					t.Errorf("%s %q: %s's snippet %q does not mark it", lang, c, h.URL, SnippetText(h.Snippet))
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: scores %v, want %v", lang, c, got, want)
			}
			checked++
		}
		if checked < 20 {
			t.Errorf("%s: %d contains entries", lang, checked)
		}
	}
}

// TestShardsStayWhenAPageChanges: the cuts between shards follow the keys,
// so words added to one page of many, new keys among them, leave most
// shards the same bytes (and files of the same names), where cuts by size
// alone would move the cuts after the new keys; and the fragments of the
// other pages stay too.
func TestShardsStayWhenAPageChanges(t *testing.T) {
	var text []rune
	for _, d := range courseDocs(t) {
		if d.Lang == "ja" {
			text = append(text, []rune(d.Text)...)
		}
	}
	if len(text) < 8000 {
		t.Skip("no course content")
	}
	// Pages of the course's text, each a window of its own.
	var docs []Doc
	for i := range 40 {
		a := i * (len(text) - 2000) / 40
		var words strings.Builder
		for j := range 60 {
			fmt.Fprintf(&words, " w%02dx%02d", i, j) // words of this page alone: many small records
		}
		docs = append(docs, Doc{Lang: "ja", URL: fmt.Sprintf("/ja/p%02d/", i), Title: fmt.Sprintf("第 %d 部", i), Text: string(text[a:a+2000]) + words.String()})
	}
	before, st := Files("ja", docs, Options{ShardBytes: 2048})
	edited := slices.Clone(docs)
	edited[17].Text += "\nクォーラムの過半数 (aardvark)。" // new keys before all others, more than a shard's slack
	for j := range 30 {
		edited[17].Text += fmt.Sprintf(" aardvark%02d", j)
	}
	after, _ := Files("ja", edited, Options{ShardBytes: 2048})
	var shards, frags [2]int // same, changed
	for p, b := range after {
		n := &frags
		if strings.HasPrefix(p, ShardPrefix("ja")) {
			n = &shards
		} else if !strings.Contains(p, "/p-") {
			continue
		}
		if old, ok := before[p]; ok && string(old) == string(b) {
			n[0]++
		} else {
			n[1]++
		}
	}
	t.Logf("of %d shards, %d are the same and %d new", shards[0]+shards[1], shards[0], shards[1])
	if st.Shards < 20 || shards[1] == 0 || shards[0] < 2*shards[1] {
		t.Errorf("of %d shards, %d are the same and %d new after a one-page edit", shards[0]+shards[1], shards[0], shards[1])
	}
	if frags != [2]int{39, 1} {
		t.Errorf("fragments: %d the same, %d new; want 39 and 1", frags[0], frags[1])
	}
}

// TestFragments: a page's fragment holds its URL (explicit under
// ExplicitIndex), collapsed title, part and text (prose, then code), is
// named by its URL alone, and the names stay distinct.
func TestFragments(t *testing.T) {
	d := Doc{Lang: "ja", URL: "/ja/cka/05-ha-cluster/", Part: 5, Title: "HA\n  クラスター", Text: "本文\n\nです。", Code: "kubectl  get\tnodes"}
	for _, opts := range []Options{{}, {ExplicitIndex: true}} {
		files, _ := Files("ja", []Doc{d, {Lang: "ja", URL: "/ja/other/", Title: "x"}}, opts)
		idx, err := Load("ja", reader(files))
		if err != nil {
			t.Fatal(err)
		}
		want := pageData{url: "/ja/cka/05-ha-cluster/", title: "HA クラスター", part: 5, text: "本文 です。 kubectl get nodes"}
		if opts.ExplicitIndex {
			want.url += "index.html"
		}
		if got := idx.pages[0]; !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: fragment %+v, want %+v", opts, got, want)
		}
	}
	// A name is the URL's: the same whatever the other pages are.
	a := NewFragments("ja", []string{"/ja/a/", "/ja/b/"}, Options{})
	b := NewFragments("ja", []string{"/ja/b/", "/ja/c/", "/ja/d/"}, Options{})
	pa, _ := a.Path("/ja/b/")
	pb, _ := b.Path("/ja/b/")
	if pa != pb || !strings.HasPrefix(pa, DataDir("ja")+"p-") {
		t.Errorf("the fragment of /ja/b/ is %s with one set of pages and %s with another", pa, pb)
	}
	if _, ok := a.Path("/ja/c/"); ok {
		t.Error("a page the index does not hold has a fragment")
	}
	// Names that would be the same take the whole hash; the same URL
	// twice is numbered.
	collide := func(u string) uint64 {
		if strings.HasPrefix(u, "/x") {
			return 0xABCDEF0123000000 | uint64(len(u))
		}
		return urlHash(u)
	}
	names := pageNamesBy([]string{"/x1", "/x22", "/y", "/y"}, collide)
	if len(names[0]) != 13 || len(names[1]) != 13 || names[0] == names[1] || names[2] == names[3] || len(names[2]) != 13 {
		t.Errorf("names %q", names)
	}
	if names[3] != names[2]+"-1" {
		t.Errorf("the second /y is %q, want %q", names[3], names[2]+"-1")
	}
}

// TestTermsRoundTrip: a page's terms read back as they were written, make
// the same index as the page analysed again, and a damaged or older
// encoding is refused.
func TestTermsRoundTrip(t *testing.T) {
	var an Analyzer
	var pages []Page
	for _, d := range corpus() {
		if d.Lang != "ja" {
			continue
		}
		tm := an.Analyze(d)
		if tm.Len() == 0 {
			t.Fatalf("%s: no terms", d.URL)
		}
		if again := an.Analyze(d); again.String() != tm.String() {
			t.Errorf("%s: two analyses differ", d.URL)
		}
		back, ok := DecodeTerms(tm.String())
		if !ok || back != tm {
			t.Fatalf("%s: DecodeTerms(String()) = %v", d.URL, ok)
		}
		pages = append(pages, Page{URL: d.URL, Terms: back})
		s := tm.String()
		for n := 1; n < len(s); n++ {
			if _, ok := DecodeTerms(s[:n]); ok {
				t.Fatalf("%s: cut to %d of %d bytes, decoded", d.URL, n, len(s))
			}
		}
		if _, ok := DecodeTerms(s + "x"); ok {
			t.Errorf("%s: a trailing byte was accepted", d.URL)
		}
		if _, ok := DecodeTerms(string(rune(termsVersion+1)) + s[1:]); ok {
			t.Errorf("%s: another version was accepted", d.URL)
		}
	}
	var ix Indexer
	for _, d := range corpus() {
		ix.Add(d)
	}
	if got, want := Build("ja", pages, Options{}), ix.Build("ja", Options{}); string(got.Manifest) != string(want.Manifest) || !reflect.DeepEqual(got.Shards, want.Shards) {
		t.Error("the index of decoded terms differs from the index of the pages")
	}
	if tm := an.Analyze(Doc{URL: "/ja/empty/"}); tm.String() != "" || tm.Len() != 0 {
		t.Errorf("an empty page's terms: %q", tm.String())
	}
	if _, ok := DecodeTerms(""); !ok {
		t.Error("the empty page's terms were refused")
	}
}

// TestFeedTerms: a Feed keeps each page's terms, the same as an analysis
// now, by language and URL; a nil Feed has none.
func TestFeedTerms(t *testing.T) {
	f := NewFeed()
	for _, d := range corpus() {
		f.Add(d)
	}
	var an Analyzer
	for _, d := range corpus() {
		got, ok := f.Terms(d.Lang, d.URL)
		if !ok || got != an.Analyze(d) {
			t.Errorf("%s: the Feed's terms (%v) are not the page's", d.URL, ok)
		}
		if _, ok := f.Terms("fr", d.URL); ok {
			t.Errorf("%s: found in another language", d.URL)
		}
	}
	var none *Feed
	if _, ok := none.Terms("ja", "/ja/cka/05-ha-cluster/"); ok || none.Done() != nil {
		t.Error("a nil Feed has terms")
	}
}
