package search

import (
	"bytes"
	"sync"
	"testing"
)

// TestFeedIndex: an index built from a Feed's pages is the one built from
// the same pages without a Feed, for each language and option, and a Feed
// never asks for the pages again.
func TestFeedIndex(t *testing.T) {
	docs := []Doc{
		{Lang: "ja", URL: "/ja/a/", Title: "クラスタ", Text: "高可用性のクラスタを組む"},
		{Lang: "ja", URL: "/ja/b/", Part: 2, Title: "ネットワーク", Headings: "ルーティング\n", Code: "ip route"},
		{Lang: "ko", URL: "/ko/a/", Title: "클러스터", Text: "고가용성 클러스터를 구성한다"},
	}
	for _, opts := range []Options{{}, {ExplicitIndex: true}} {
		f := NewFeed()
		for _, d := range docs {
			f.Add(d)
		}
		var wg sync.WaitGroup
		got := map[string][]byte{}
		var mu sync.Mutex
		for _, lang := range []string{"ja", "ko"} {
			wg.Go(func() {
				idx := f.Index(lang, func() []Doc { t.Errorf("%s: a Feed asked for the pages", lang); return nil }, opts)
				mu.Lock()
				got[lang] = idx
				mu.Unlock()
			})
		}
		wg.Wait()
		for _, lang := range []string{"ja", "ko"} {
			var nilFeed *Feed
			want := nilFeed.Index(lang, func() []Doc { return docs }, opts)
			if len(want) == 0 {
				t.Fatalf("%s: empty index", lang)
			}
			if !bytes.Equal(got[lang], want) {
				t.Errorf("%s %+v: the Feed's index differs from the one made without it", lang, opts)
			}
		}
	}
}

// TestFeedIndexLanguages: each language's index holds its own pages only.
func TestFeedIndexLanguages(t *testing.T) {
	docs := []Doc{{Lang: "ja", URL: "/ja/only-ja/", Title: "日本語"}, {Lang: "ko", URL: "/ko/only-ko/", Title: "한국어"}}
	var f *Feed
	ja := f.Index("ja", func() []Doc { return docs }, Options{})
	ko := f.Index("ko", func() []Doc { return docs }, Options{})
	if !bytes.Contains(ja, []byte("/ja/only-ja/")) || bytes.Contains(ja, []byte("/ko/only-ko/")) {
		t.Errorf("ja index: %.200s", ja)
	}
	if !bytes.Contains(ko, []byte("/ko/only-ko/")) || bytes.Contains(ko, []byte("/ja/only-ja/")) {
		t.Errorf("ko index: %.200s", ko)
	}
}
