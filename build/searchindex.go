package build

import (
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// writeSearch builds each language's search index from its articles, home
// and series pages, reusing the previous index when nothing it holds
// changed. It returns the size of each index.
func (r *run) writeSearch(pages []*render.Page, mds []*mdEntry) map[string]int {
	sizes := map[string]int{}
	for _, lang := range r.siteData.Langs {
		h := newHasher()
		var docs []search.Doc
		for i, p := range pages {
			md := mds[i]
			if p.Lang != lang || md == nil || p.Kind == render.KindNotFound || p.Kind == render.KindRoot {
				continue
			}
			h.str(p.URL)
			h.str(p.Title)
			h.num(int64(p.Part))
			h.num(int64(md.gen))
			docs = append(docs, search.Doc{
				Lang: lang, URL: p.URL, Part: p.Part, Title: p.Title,
				Headings: headingText(p.TOC), Text: md.res.Text, Code: md.res.CodeText,
			})
		}
		fp := h.sum()
		e, ok := r.b.search[lang]
		if !ok || e.fp != fp {
			var ix search.Indexer
			for _, d := range docs {
				ix.Add(d)
			}
			idx, _ := ix.Build(lang, search.Options{ExplicitIndex: r.b.opts.ExplicitIndex})
			e = searchEntry{fp: fp, index: idx}
			r.b.search[lang] = e
		}
		r.out.Put(search.IndexPath(lang), e.index)
		sizes[lang] = len(e.index)
	}
	return sizes
}

func headingText(toc []render.TOCEntry) string {
	var b strings.Builder
	var walk func([]render.TOCEntry)
	walk = func(es []render.TOCEntry) {
		for _, e := range es {
			b.WriteString(e.Text)
			b.WriteByte('\n')
			walk(e.Children)
		}
	}
	walk(toc)
	return b.String()
}
