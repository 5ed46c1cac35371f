package render

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"testing"
	"time"
)

// longSeriesArticle is part cur of a series of n parts in lang, as an
// article of a long series sees it: the first two parts, a window of
// parts around it, the last two, each published; a table of contents of
// seven sections of two levels, three tags and both translations.
func longSeriesArticle(site *Site, lang string, n, cur int) *Page {
	url := func(i int) string { return fmt.Sprintf("/%s/cka/%04d-part/", lang, i) }
	s := &Series{ID: "cka", Title: "Certified Kubernetes Administrator (CKA)", URL: "/" + lang + "/cka/", Published: n, Total: n}
	gap := false
	for i := 1; i <= n; i++ {
		if i > 2 && i < n-1 && (i < cur-7 || i > cur+7) {
			gap = true
			continue
		}
		s.Parts = append(s.Parts, PartRef{Number: i, Title: fmt.Sprintf("kubeadm クラスターのインストール (第%d回)", i),
			URL: url(i), Published: true, Current: i == cur, Gap: gap})
		gap = false
	}
	var toc []TOCEntry
	var anchors []string
	for i := 1; i <= 7; i++ {
		id := fmt.Sprintf("%d-%d-control-plane-ノードの追加ジョイン", cur, i)
		sub := fmt.Sprintf("%d-%d-1-etcd-メンバーの確認", cur, i)
		toc = append(toc, TOCEntry{Level: 2, ID: id, Text: fmt.Sprintf("%d.%d control plane ノードの追加ジョイン", cur, i),
			Children: []TOCEntry{{Level: 3, ID: sub, Text: fmt.Sprintf("%d.%d.1 etcd メンバーの確認", cur, i)}}})
		anchors = append(anchors, "2:"+id, "3:"+sub)
	}
	ts := translations(fmt.Sprintf("/cka/%04d-part/", cur), map[string]bool{"ja": true, "ko": true})
	for i := range ts {
		ts[i].Anchors = strings.Join(anchors, " ")
	}
	var prev, next *PartRef
	for i := range s.Parts {
		switch s.Parts[i].Number {
		case cur - 1:
			prev = &s.Parts[i]
		case cur + 1:
			next = &s.Parts[i]
		}
	}
	return &Page{
		Site: site, Kind: KindArticle, Lang: lang,
		Title:       fmt.Sprintf("kubeadm クラスターのインストール (第%d回)", cur),
		Description: "Kubernetesのコントロールプレーンが4つのプロセスに分かれ、etcdと話すのがapiserverだけである理由を説明します。",
		URL:         url(cur),
		Date:        time.Date(2017, 5, 18, 0, 0, 0, 0, time.UTC),
		Tags:        []string{"Kubernetes", "CKA", "control plane"},
		TagLinks: []TagRef{{Name: "Kubernetes", URL: "/" + lang + "/tags/kubernetes/"}, {Name: "CKA", URL: "/" + lang + "/tags/cka/"},
			{Name: "control plane", URL: "/" + lang + "/tags/control-plane/"}},
		Content:        template.HTML(strings.Repeat(testContentJA, 20)),
		TOC:            toc,
		ReadingMinutes: 7,
		Series:         s,
		Part:           cur,
		Prev:           prev,
		Next:           next,
		Translations:   ts,
	}
}

// BenchmarkRenderArticle renders the articles of a long series through
// the default theme, each part once per round, as a build does.
func BenchmarkRenderArticle(b *testing.B) {
	th := loadDefault(b)
	site := testSite()
	const n = 200
	pages := make([]*Page, 0, n)
	for i := 1; i <= n; i++ {
		pages = append(pages, longSeriesArticle(site, "ja", n, i))
	}
	var buf bytes.Buffer
	i := 0
	for b.Loop() {
		buf.Reset()
		if err := th.Render(&buf, pages[i%n]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkRenderTag renders the tag pages of a language: six tags, each
// of a few hundred of the same thousand articles.
func BenchmarkRenderTag(b *testing.B) {
	th := loadDefault(b)
	site := testSite()
	var pages []*Page
	for t := range 6 {
		p := tagPage(site, "ja")
		p.URL = fmt.Sprintf("/ja/tags/t%d/", t)
		p.Articles = nil
		for i := 1; i <= 1000; i++ {
			if i%(t+1) == 0 {
				p.Articles = append(p.Articles, ArticleRef{Title: fmt.Sprintf("kubeadm クラスターのインストール (第%d回)", i),
					URL: fmt.Sprintf("/ja/cka/%04d-part/", i), Summary: "Kubernetesのコントロールプレーンが4つのプロセスに分かれる理由を説明します。",
					Date: time.Date(2017, 5, 18, 0, 0, 0, 0, time.UTC), Series: "Certified Kubernetes Administrator (CKA)", Part: i})
			}
		}
		pages = append(pages, p)
	}
	var buf bytes.Buffer
	i := 0
	for b.Loop() {
		if i%len(pages) == 0 {
			site.frags = fragments{} // a new build
		}
		buf.Reset()
		if err := th.Render(&buf, pages[i%len(pages)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
