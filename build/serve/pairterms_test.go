package serve

import (
	"context"
	"net"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kakehashi-dev/kakehashi/build/glossary"
	"github.com/kakehashi-dev/kakehashi/build/internal/browsertest"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// pairGlossary gives the paragraph of pairSite's pages a glossary entry.
const pairGlossary = `- id: paragraph
  terms: {ja: 段落, ko: 단락}
- id: etcd
  terms: {ja: etcd, ko: etcd}
`

func TestMarkTerms(t *testing.T) {
	g, ds := glossary.Parse("g.yaml", []byte(pairGlossary), []string{"ja", "ko"})
	if ds.Err() != nil {
		t.Fatal(ds)
	}
	tests := []struct {
		g          *glossary.Glossary
		text, lang string
		want       string
	}{
		{g, "最初の段落です。", "ja", `最初の<mark class="pair-term" data-term="paragraph" title="paragraph">段落</mark>です。`},
		{g, "첫 단락 <b>&", "ko", `첫 <mark class="pair-term" data-term="paragraph" title="paragraph">단락</mark> &lt;b&gt;&amp;`},
		{g, "ETCD and etcdctl", "ko", `<mark class="pair-term" data-term="etcd" title="etcd">ETCD</mark> and etcdctl`},
		{g, "단락", "ja", `단락`}, // the terms of the text's language only
		{nil, "段落 <", "ja", `段落 &lt;`},
	}
	for _, tt := range tests {
		if got := string(markTerms(tt.g, tt.text, tt.lang)); got != tt.want {
			t.Errorf("markTerms(%q, %s) = %s, want %s", tt.text, tt.lang, got, tt.want)
		}
	}
	v := pairNoteView{pairNote: pairNote{OrigLang: "ja"}, Blocks: []pairBlockView{{pairBlock: pairBlock{Text: "段落", Was: "古い段落"}}}}
	markNote(g, &v)
	if b := v.Blocks[0]; b.Marked == "" || b.WasMarked != `古い<mark class="pair-term" data-term="paragraph" title="paragraph">段落</mark>` {
		t.Errorf("a stale block marked %q, was %q", b.Marked, b.WasMarked)
	}
	if termsJSON(g, "ko") != `[{"id":"paragraph","term":"단락"},{"id":"etcd","term":"etcd"}]` || termsJSON(nil, "ko") != "" {
		t.Errorf("terms of ko: %s", termsJSON(g, "ko"))
	}
}

// TestPairTermsInBrowser: the pair view marks the glossary's terms of
// each side's language in its frame, each naming its entry.
func TestPairTermsInBrowser(t *testing.T) {
	site := sitetest.New(t, pairSite+"-- content/glossary.yaml --\n"+pairGlossary, sitetest.OnDisk())
	ctx, cancel := context.WithCancel(context.Background())
	s, err := New(ctx, Options{Root: site.Root()})
	must(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	runErr := make(chan error, 1)
	go func() { runErr <- s.Run(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-runErr; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	b := browsertest.New(t, browsertest.Options{})
	if err := chromedp.Do(b.Ctx, chromedp.Navigate("http://"+ln.Addr().String()+"/_pair/ko/cka/03-ops/")); err != nil {
		t.Fatal(err)
	}
	const marks = `[...document.querySelectorAll("iframe")].map(f => f.dataset.terms && f.contentDocument ? [...f.contentDocument.querySelectorAll("main mark.pair-term")].map(m => m.dataset.term + ":" + m.textContent).join() : "").join(" | ")`
	want := "paragraph:段落 | paragraph:단락"
	if got, err := poll[string](b.Ctx, `(`+marks+`) === "`+want+`" ? "ok" : null`); err != nil || got != "ok" {
		got, _ := chromedp.Run(b.Ctx, chromedp.Evaluate[string](marks))
		t.Fatalf("the frames mark %q (%v), want %q", got, err, want)
	}
}
