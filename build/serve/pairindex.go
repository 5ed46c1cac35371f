package serve

import (
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/translation"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// pairStates are the states the index filters by, in the order it
// offers them.
var pairStates = []string{"stale", "missing", "unmarked", "current"}

// indexRow is one pair of the index.
type indexRow struct {
	Key              string // the pages' shared name ("cka/05-ha-cluster.md")
	Title, TitleLang string // the title of a page of the pair, and its language
	// Lang is the language of the side to write or update: the
	// translation's, or the original's when it is the page missing.
	Lang, LangName string
	State          string        // "current", "stale", "unmarked" or "missing"
	Says           template.HTML // the state in words, with its days
	Path           string        // the translation's file, or the missing page's
	URL            string        // the pair's view
	Hidden         bool          // filtered out
}

// filterLink is one choice of a filter: a link to the index filtered so.
type filterLink struct {
	Filter, Value, Label, URL string
	Count                     int
	Current                   bool
}

// serveIndex serves /_pair/: every pair of the site with how it stands,
// as "kakehashi translations status" lists them, each linking to its
// view. ?state= (current, stale, unmarked, missing) and ?lang= (the
// language to write in, which the index then speaks) filter it: every
// row is in the page, those filtered out hidden, so that the filters
// are plain links that work without script, and the page's script
// applies a state at once.
func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request, st *state) {
	q := r.URL.Query()
	state, lang := q.Get("state"), q.Get("lang")
	if !slices.Contains(pairStates, state) {
		state = ""
	}
	if !slices.Contains(st.langs, lang) {
		lang = ""
	}
	idx := st.pairs.index()
	var strs *i18n.Bundle
	if idx != nil {
		strs = idx.strings
	}
	u := newUI(strs, viewLang(st, r, lang))
	data := struct {
		UI            ui
		W             words
		Unavailable   bool
		Rows          []indexRow
		States, Langs []filterLink
		Shown         template.HTML
		Any           bool
	}{UI: u, W: newWords(u), Unavailable: idx == nil}
	shown := 0
	if idx != nil {
		for _, l := range idx.lines {
			row := indexRowOf(u, l)
			row.Hidden = state != "" && row.State != state || lang != "" && row.Lang != lang
			if !row.Hidden {
				shown++
			}
			data.Rows = append(data.Rows, row)
		}
	}
	data.Any = shown > 0
	data.Shown = u.HTML(u.T("pair_shown"), template.HTML(`<span data-shown>`+strconv.Itoa(shown)+`</span>`), strconv.Itoa(len(data.Rows)))
	link := func(filter, value, label string) filterLink {
		f := filterLink{Filter: filter, Value: value, Label: label}
		v := url.Values{}
		st, lg := state, lang
		if filter == "state" {
			st, f.Current = value, value == state
		} else {
			lg, f.Current = value, value == lang
		}
		if st != "" {
			v.Set("state", st)
		}
		if lg != "" {
			v.Set("lang", lg)
		}
		f.URL = PairView + "/"
		if len(v) > 0 {
			f.URL += "?" + v.Encode()
		}
		for _, row := range data.Rows {
			if (st == "" || row.State == st) && (lg == "" || row.Lang == lg) {
				f.Count++
			}
		}
		return f
	}
	data.States = append(data.States, link("state", "", u.T("pair_filter_all")))
	for _, v := range pairStates {
		data.States = append(data.States, link("state", v, stateWord(u, v)))
	}
	data.Langs = append(data.Langs, link("lang", "", u.T("pair_filter_all")))
	for _, l := range st.langs {
		data.Langs = append(data.Langs, link("lang", l, u.Name(l)))
	}
	writePair(w, "index", data, http.StatusOK)
}

// indexRowOf is the row of the status line l, worded in u.
func indexRowOf(u ui, l translation.Line) indexRow {
	p := l.Pair
	row := indexRow{Key: p.Key, Lang: p.Lang, Path: l.Path}
	page := p.Orig
	if page == nil {
		page = p.Tr
	}
	row.Title, row.TitleLang = page.Meta.Title, page.Lang
	switch {
	case p.Missing():
		if l.NoOriginal {
			row.Lang = p.OrigLang
		}
		row.State = "missing"
		row.Says = u.HTML(u.T("pair_missing_in"), u.Name(row.Lang))
	default:
		st := l.Status
		row.State = st.State.String()
		switch st.State {
		case translation.Stale:
			row.Says = u.HTML("%s", u.T("pair_state_stale"))
			if !st.Updated.IsZero() {
				row.Says = u.HTML(u.T("pair_stale_since"), st.Updated.Format(time.DateOnly))
			}
		case translation.Current:
			row.Says = u.HTML("%s", u.T("pair_state_current"))
		default:
			row.Says = u.HTML("%s", u.T("pair_state_unmarked"))
		}
		if !st.Marked.IsZero() {
			row.Says += " · " + u.HTML(u.T("pair_marked"), st.Marked.Date.Format(time.DateOnly))
		}
	}
	row.LangName = u.Name(row.Lang)
	// The pair's view speaks the language of the side to write.
	row.URL = PairView + "/" + row.Lang + "/"
	if rel := urlRel(page); rel != "" {
		row.URL += rel + "/"
	}
	return row
}
