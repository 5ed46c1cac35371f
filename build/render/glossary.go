package render

import "github.com/kakehashi-dev/kakehashi/build/site"

// KindGlossary is a language's glossary page, /ja/glossary/ (only on a
// site with a glossary).
const KindGlossary = site.KindGlossary

// GlossaryEntry is one entry as a glossary page lists it: the term in the
// page's language (or, where the glossary gives none, in TermLang), its
// definition, and the terms of the site's other languages.
type GlossaryEntry struct {
	ID         string // its anchor: /ja/glossary/#quorum
	Term       string
	TermLang   string // "" when Term is in the page's language
	Definition string // in the page's language; "" for none
	Others     []GlossaryTerm
}

// GlossaryTerm is an entry's term in another of the site's languages.
type GlossaryTerm struct {
	Lang, Term string
}
