package serve

import (
	"encoding/json"
	"html/template"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/glossary"
)

// pairTerm is one glossary term as the pair view's script looks for it in
// a frame: the entry's id and its preferred term in the frame's language.
type pairTerm struct {
	ID   string `json:"id"`
	Term string `json:"term"`
}

// termsJSON lists the glossary's terms of lang for the script that marks
// them in lang's frame; "" without a glossary or a term of lang.
func termsJSON(g *glossary.Glossary, lang string) string {
	if g == nil {
		return ""
	}
	var ts []pairTerm
	for _, e := range g.Entries {
		if t := e.Terms[lang]; t != "" {
			ts = append(ts, pairTerm{ID: e.ID, Term: t})
		}
	}
	if len(ts) == 0 {
		return ""
	}
	b, _ := json.Marshal(ts)
	return string(b)
}

// markTerms is text, escaped, with each glossary term of lang in a
// <mark class="pair-term"> naming its entry (data-term), as the frames mark
// theirs.
func markTerms(g *glossary.Glossary, text, lang string) template.HTML {
	var b strings.Builder
	at := 0
	for _, m := range g.Terms(text, lang) {
		b.WriteString(template.HTMLEscapeString(text[at:m.Off]))
		id := template.HTMLEscapeString(m.ID)
		b.WriteString(`<mark class="pair-term" data-term="` + id + `" title="` + id + `">`)
		b.WriteString(template.HTMLEscapeString(text[m.Off : m.Off+m.Len]))
		b.WriteString(`</mark>`)
		at = m.Off + m.Len
	}
	b.WriteString(template.HTMLEscapeString(text[at:]))
	return template.HTML(b.String())
}

// markNote marks the glossary's terms in the blocks of the note v, in the
// original's language they are written in.
func markNote(g *glossary.Glossary, v *pairNoteView) {
	for _, bs := range [][]pairBlockView{v.Blocks, v.Removed} {
		for i := range bs {
			bs[i].Marked = markTerms(g, bs[i].Text, v.OrigLang)
			bs[i].WasMarked = markTerms(g, bs[i].Was, v.OrigLang)
		}
	}
}
