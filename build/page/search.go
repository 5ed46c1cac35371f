package page

import (
	"strings"

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
