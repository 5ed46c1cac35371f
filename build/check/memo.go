package check

import (
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Memo runs the checks of a site again and again as it is edited (Site),
// keeping from one run to the next what each translation was found to
// be against its original: for its code and headings (Twins), by the
// outlines compared, and for its state (Translations), by the source
// files compared, so that a rebuild checks again only the translations
// an edit can change. Outlines and source files are told apart by
// identity: a build gives a page whose markdown or file did not change
// the very outline and file of the last build, and none of them changes
// once made. Its zero value is ready; it is not safe for concurrent use.
type Memo struct {
	twins  map[string]twinFound        // by the translation's URL
	states map[*source.Page]stateFound // by the translation's file
	// next are the maps the next call fills, cleared, and byURL its
	// pages by URL: made once, kept with their room.
	nextTwins  map[string]twinFound
	nextStates map[*source.Page]stateFound
	byURL      map[string]*Page
	found      int // how many the last call found, to make room for
}

// twinFound is what Twins found of a translation against its original.
type twinFound struct {
	tr, orig         []markdown.Block // the outlines compared
	trPath, origPath string
	origLang         string
	found            diag.List
}

// stateFound is what Translations found of a translation against its
// original.
type stateFound struct {
	orig  *source.Page
	found diag.List
}

// Site is the package's Site of st and pages, each translation checked
// again only when its outline, its original's or their files changed
// since the last call; it keeps what this call found, for the next.
func (m *Memo) Site(st *site.Site, pages []*Page) diag.List {
	out := append(make(diag.List, 0, m.found), Fragments(pages)...)
	if m.byURL == nil {
		m.byURL, m.twins, m.nextTwins = map[string]*Page{}, map[string]twinFound{}, map[string]twinFound{}
		m.states, m.nextStates = map[*source.Page]stateFound{}, map[*source.Page]stateFound{}
	}
	byURL := m.byURL
	clear(byURL)
	for _, p := range pages {
		byURL[p.URL] = p
	}
	nextTwins := m.nextTwins
	for _, p := range pages {
		o := twinOf(p, byURL)
		if o == nil {
			continue
		}
		f, ok := m.twins[p.URL]
		if !ok || !same(f.tr, p.Outline) || !same(f.orig, o.Outline) || f.trPath != p.Source || f.origPath != o.Source || f.origLang != o.Lang {
			f = twinFound{tr: p.Outline, orig: o.Outline, trPath: p.Source, origPath: o.Source, origLang: o.Lang, found: twins(p, o)}
		}
		nextTwins[p.URL] = f
		out = append(out, f.found...)
	}
	m.twins, m.nextTwins = nextTwins, m.twins
	clear(m.nextTwins)

	nextStates := m.nextStates
	state := func(o, tr *source.Page) diag.List {
		f, ok := m.states[tr]
		if !ok || f.orig != o {
			f = stateFound{orig: o, found: translationState(o, tr)}
		}
		nextStates[tr] = f
		return f.found
	}
	for _, p := range st.Pages {
		out = append(out, translationOf(st, p, state)...)
	}
	m.states, m.nextStates = nextStates, m.states
	clear(m.nextStates)
	clear(byURL) // holds this call's pages no longer
	out.Sort()
	m.found = len(out)
	return out
}

// same reports whether a and b are the very same outline.
func same(a, b []markdown.Block) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
