package page

import (
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// GlossaryCSS is the theme's stylesheet of the glossary page.
const GlossaryCSS = "/css/glossary.css"

// glossaryPage fills in a glossary page: every entry of the site's
// glossary with its term in the page's language, sorted as that language
// sorts (collate), its definition, and its terms in the other languages.
// An entry with no term in the language shows the first it has.
func (a *Assembler) glossaryPage(sp *site.Page, p *render.Page) {
	if sp.Kind != site.KindGlossary {
		return
	}
	if p.Title == "" {
		p.Title = a.t(sp.Lang, "glossary")
	}
	if !slices.Contains(p.Styles, GlossaryCSS) {
		p.Styles = append(slices.Clone(p.Styles), GlossaryCSS) // p.Styles may be a cached rendering's
	}
	for _, e := range a.st.Glossary {
		g := render.GlossaryEntry{ID: e.ID, Term: e.Terms[sp.Lang], Definition: e.Definition[sp.Lang]}
		for _, l := range a.data.Langs {
			t := e.Terms[l]
			switch {
			case t == "":
			case g.Term == "":
				g.Term, g.TermLang = t, l
			case l != sp.Lang && l != g.TermLang:
				g.Others = append(g.Others, render.GlossaryTerm{Lang: l, Term: t})
			}
		}
		p.Glossary = append(p.Glossary, g)
	}
	c := collate.New(language.Make(sp.Lang))
	slices.SortStableFunc(p.Glossary, func(x, y render.GlossaryEntry) int {
		if n := c.CompareString(sortKey(x.Term), sortKey(y.Term)); n != 0 {
			return n
		}
		return c.CompareString(x.Term, y.Term)
	})
}

// sortKey is a term as the glossary page sorts it: without the prolonged
// sound mark (ー), which Japanese sorts as the vowel before it but
// x/text's Japanese collation puts before every kana ("ワーカー" would
// come before "エンドポイント"); the term itself breaks ties.
func sortKey(term string) string {
	return strings.NewReplacer("ー", "", "ｰ", "").Replace(term)
}
