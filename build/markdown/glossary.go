package markdown

// Term is a glossary entry as the term shortcode shows it on a page
// (Env.Term): its term and definition in the page's language, and the
// link to its entry on the language's glossary page.
type Term struct {
	Text       string // the term; in TextLang when the page's language has none
	TextLang   string // "" when Text is in the page's language
	Definition string // "" for none
	Href       string // relative to the page: "../../glossary/#quorum"
}
