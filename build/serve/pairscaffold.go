package serve

import (
	"strconv"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// scaffold is how to write the page a pair misses, as the pair view
// shows it: the file to create, and the text to start it with, as
// "kakehashi new part" starts a part's page (its front matter filled in,
// then the UI string new_part_body of its language). "kakehashi new
// part" itself makes a part in every language at once and refuses a
// part that is published already, so the view names the one file
// instead.
type scaffold struct {
	Lang string // the missing page's language
	Path string // its file, from the site folder ("content/ko/cka/05-ha-cluster.md")
	From string // the language of the page that exists
	Text string
	// Part: the page is a part of a series.
	Part bool
}

// scaffoldOf is the scaffold of the page the line l misses: its
// translation, or its original when the translation is the page that
// exists (l.NoOriginal). The title is the series file's for the part in
// the missing page's language, else the existing page's, to translate;
// the series, part number, date and slug are the existing page's; a
// translation of an original not in the site's first language says so
// (translationOf); body is the page's first text.
func scaffoldOf(l translation.Line, c *source.Content, first, body string) scaffold {
	lang, have := l.Pair.Lang, l.Pair.Orig
	if l.NoOriginal {
		lang, have = l.Pair.OrigLang, l.Pair.Tr
	}
	m := have.Meta
	sc := scaffold{Lang: lang, Path: l.Path, From: have.Lang, Part: m.Series != "" && m.Part > 0}
	title := m.Title
	if sc.Part {
		for _, s := range c.Series {
			if s.ID != m.Series {
				continue
			}
			if p, ok := s.Part(m.Part); ok && p.Title[lang] != "" {
				title = p.Title[lang]
			}
		}
	}
	var b strings.Builder
	b.WriteString("---\ntitle: " + strconv.Quote(title) + "\n")
	if sc.Part {
		b.WriteString("series: " + strconv.Quote(m.Series) + "\npart: " + strconv.Itoa(m.Part) + "\n")
	}
	if !m.Date.IsZero() {
		b.WriteString("date: " + m.Date.Format(time.DateOnly) + "\n")
	}
	if m.Slug != "" {
		b.WriteString("slug: " + strconv.Quote(m.Slug) + "\n")
	}
	if !l.NoOriginal && l.Pair.OrigLang != first {
		b.WriteString("translationOf: " + strconv.Quote(l.Pair.OrigLang) + "\n")
	}
	b.WriteString("---\n\n" + body)
	sc.Text = b.String()
	return sc
}
