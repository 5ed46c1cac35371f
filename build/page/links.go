package page

import (
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// PartLinks resolves "#N" in the prose of a page of series sr in lang: the
// part's title in lang, and a link when the part has a page. Links are
// relative to the page at the site-absolute path from, or site-absolute
// when from is "" (a fragment that has no page of its own). Both the build
// and Builder.RenderDoc use it.
func PartLinks(st *site.Site, sr *source.Series, lang, from string) func(int) (markdown.PartLink, bool) {
	return func(n int) (markdown.PartLink, bool) {
		part, ok := sr.Part(n)
		if !ok {
			return markdown.PartLink{}, false
		}
		l := markdown.PartLink{Title: part.Title[lang]}
		if q := st.PartPage(lang, sr.ID, n); q != nil {
			l.Href, l.Published = q.URL, true
			if from != "" {
				l.Href = render.Rel(from, q.URL)
			}
		}
		return l, true
	}
}
