package site

import (
	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// KindGlossary is a language's glossary page, /ja/glossary/: every entry
// of the site's glossary (content/glossary.yaml) in that language. A site
// without a glossary has none.
const KindGlossary Kind = "glossary"

// GlossaryDir is the URL segment of the glossary pages (/ja/glossary/).
const GlossaryDir = "glossary"

// GlossaryEntry is one entry of the site's glossary, as its pages and the
// term shortcode show it.
type GlossaryEntry struct {
	ID         string
	Terms      map[string]string // the preferred term, by language
	Definition map[string]string // by language; may be missing
}

// GlossaryURL is the URL of lang's glossary page.
func GlossaryURL(lang string) string { return "/" + lang + "/" + GlossaryDir + "/" }

// addGlossary gives each language its glossary page when the site has a
// glossary: a content/<lang>/glossary/_index.md, which then opens it, or
// a generated one. A page of another kind at its URL keeps it, warned of.
func (s *Site) addGlossary(langs []string, entries []GlossaryEntry) diag.List {
	if len(entries) == 0 {
		return nil
	}
	s.Glossary = entries
	var diags diag.List
	for _, lang := range langs {
		u := GlossaryURL(lang)
		switch p := s.byURL[u]; {
		case p == nil:
			s.addGenerated(&Page{Kind: KindGlossary, Lang: lang, URL: u, Key: GlossaryDir + "/"})
		case p.Kind == KindSection:
			p.Kind = KindGlossary
		case p.Source != nil:
			diags = append(diags, diag.File(p.Source.Path, "the glossary page of %s, %s, is taken by this page: the glossary is listed nowhere in %s", lang, u, lang).AsWarning())
		}
	}
	return diags
}
