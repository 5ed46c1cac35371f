package page

import (
	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
)

// terms sets what the term shortcode of sp's page knows of the site's
// glossary (markdown.Env.Term and TermIDs): each entry's term and
// definition in the page's language (the first language's term where it
// has none) and the link to it on the language's glossary page. Nothing
// on a site without a glossary.
func terms(env *markdown.Env, st *site.Site, sp *site.Page, explicitIndex bool) {
	if len(st.Glossary) == 0 {
		return
	}
	byID := make(map[string]site.GlossaryEntry, len(st.Glossary))
	env.TermIDs = make([]string, len(st.Glossary))
	for i, e := range st.Glossary {
		byID[e.ID] = e
		env.TermIDs[i] = e.ID
	}
	lang := sp.Lang
	env.Term = func(id string) (markdown.Term, bool) {
		e, ok := byID[id]
		if !ok {
			return markdown.Term{}, false
		}
		t := markdown.Term{Text: e.Terms[lang], Definition: e.Definition[lang],
			Href: render.Link(sp.URL, site.GlossaryURL(lang), explicitIndex) + "#" + id}
		for _, l := range st.Langs {
			if t.Text == "" && e.Terms[l] != "" {
				t.Text, t.TextLang = e.Terms[l], l
			}
		}
		return t, true
	}
}

// glossaryFP is the fingerprint of what the term shortcode shows of the
// site's glossary: a page that calls it is made again when it changes.
func glossaryFP(st *site.Site) uint64 {
	h := cache.NewHasher()
	for _, e := range st.Glossary {
		h.Str(e.ID)
		h.Value(e.Terms)
		h.Value(e.Definition)
	}
	return h.Sum()
}
