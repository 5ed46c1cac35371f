package page

import (
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// Searchable reports whether p belongs in its language's search index:
// every page of a language but its 404 page (the root page has none).
func Searchable(p *render.Page) bool {
	return p.Lang != "" && p.Kind != render.KindNotFound && p.Kind != render.KindRoot
}

// SearchDoc is what the search index takes of a page: its title, part and
// headings, and the text and code of its markdown.
func SearchDoc(p *render.Page, text, code string) search.Doc {
	return search.Doc{Lang: p.Lang, URL: p.URL, Part: p.Part, Title: p.Title, Headings: headingText(p.TOC), Text: text, Code: code}
}

// headingText is every heading of toc, one a line.
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

// Rendered is what a page's search entry takes of its markdown: its
// plain text, its code, and the rendering's gen; nil for a page without
// markdown.
type Rendered struct {
	Text, Code string
	Gen        uint64
}

// Indexed reports whether p, rendered as r, belongs in lang's index.
func Indexed(lang string, p *render.Page, r *Rendered) bool {
	return p.Lang == lang && r != nil && Searchable(p)
}

// SearchDocs are lang's documents: each indexed page of pages, whose
// markdown is rs[i].
func SearchDocs(lang string, pages []*render.Page, rs []*Rendered) []search.Doc {
	var docs []search.Doc
	for i, p := range pages {
		if Indexed(lang, p, rs[i]) {
			docs = append(docs, SearchDoc(p, rs[i].Text, rs[i].Code))
		}
	}
	return docs
}

// SearchFingerprint covers what lang's search index holds: its pages and
// their markdown renderings.
func SearchFingerprint(lang string, pages []*render.Page, rs []*Rendered) uint64 {
	h := cache.NewHasher()
	for i, p := range pages {
		if Indexed(lang, p, rs[i]) {
			h.Str(p.URL)
			h.Str(p.Title)
			h.Num(int64(p.Part))
			h.Num(int64(rs[i].Gen))
		}
	}
	return h.Sum()
}
