package serve

import (
	"bytes"
	_ "embed"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// pairHTML holds the translator's view's pages: "index" (/_pair/),
// "pair" (a page side by side) and "refused" (a mark refused).
//
//go:embed pair.html
var pairHTML string

var pairPages = template.Must(template.New("pair").Parse(pairHTML))

// words are the view's UI strings in its language.
type words struct {
	IndexTitle, IndexIntro, Filters, FilterState, FilterLang, FilterAll string
	ColPage, ColFile, None, Unavailable                                 string
	Back, Heading, Original, ScaffoldPath, StatusLabel                  string
	MarkButton, BlockWas, Removed, MarkRefused, MarkToken               string
	Copy, Copied, CopyFailed                                            string
}

// newWords are the view's strings in u's language.
func newWords(u ui) words {
	return words{
		IndexTitle: u.T("pair_index_title"), IndexIntro: u.T("pair_index_intro"), Filters: u.T("pair_filters"),
		FilterState: u.T("pair_filter_state"), FilterLang: u.T("pair_filter_lang"), FilterAll: u.T("pair_filter_all"),
		ColPage: u.T("pair_col_page"), ColFile: u.T("pair_col_file"), None: u.T("pair_none"), Unavailable: u.T("pair_unavailable"),
		Back: u.T("pair_back"), Heading: u.T("pair_heading"), Original: u.T("pair_original"),
		ScaffoldPath: u.T("pair_scaffold_path"), StatusLabel: u.T("pair_status_label"),
		MarkButton: u.T("pair_mark_button"), BlockWas: u.T("pair_block_was"), Removed: u.T("pair_removed"),
		MarkRefused: u.T("pair_mark_refused"), MarkToken: u.T("pair_mark_token"),
		Copy: u.T("copy"), Copied: u.T("copied"), CopyFailed: u.T("copy_failed"),
	}
}

// stateWord is the name of a state ("current", "stale", "unmarked",
// "missing"), as the filters show it.
func stateWord(u ui, state string) string {
	switch state {
	case "current":
		return u.T("pair_state_current")
	case "stale":
		return u.T("pair_state_stale")
	case "unmarked":
		return u.T("pair_state_unmarked")
	case "missing":
		return u.T("pair_state_missing")
	}
	return state
}

// pairCol is one language's column of a pair: the page in a frame, or,
// when it is missing, how to write it.
type pairCol struct {
	Lang, Name, URL string
	Exists          bool
	Original        bool // the column of the original
	Missing         template.HTML
	Scaffold        *scaffoldView
	// Terms are the glossary's terms of Lang, as JSON, for the script
	// that marks them in the frame; "" for none.
	Terms string
}

// scaffoldView is a scaffold as the view words it.
type scaffoldView struct {
	scaffold
	Intro, PartNote template.HTML
}

// pairNoteView is a note as the view words it; its Blocks and Removed
// are the note's, worded.
type pairNoteView struct {
	pairNote
	Says, MarkSame, NoCopyText template.HTML
	BlocksIntro                template.HTML
	Mark                       bool // offer to mark it
	Blocks, Removed            []pairBlockView
}

// pairBlockView is a block as the view words it.
type pairBlockView struct {
	pairBlock
	Label template.HTML // "changed, line 12"; for a fold, "… 3 unchanged blocks …"
	// Marked and WasMarked are Text and Was with the glossary's terms
	// marked (markTerms).
	Marked, WasMarked template.HTML
}

// servePair serves /_pair/<page>: the page in every language of the site,
// side by side, and how each translation stands, with the way to write a
// page missing in a language and a button that marks a translation. <page>
// may start with a language ("ja/cka/05-ha-cluster/"), which the view
// then speaks, or not ("cka/05-ha-cluster/"). /_pair/ itself is the
// index of the site's translations (serveIndex).
func (s *Server) servePair(w http.ResponseWriter, r *http.Request, st *state, rel string) {
	if rel == "" {
		s.serveIndex(w, r, st)
		return
	}
	first, rest, _ := strings.Cut(rel, "/")
	pathLang := ""
	for _, l := range st.langs {
		if first == l {
			rel, pathLang = rest, l
			break
		}
	}
	rel = strings.TrimSuffix(rel, "/index.html")
	rel = strings.Trim(rel, "/")
	lang := viewLang(st, r, pathLang)
	idx := st.pairs.index()
	var strs *i18n.Bundle
	if idx != nil {
		strs = idx.strings
	}
	u := newUI(strs, lang)
	data := struct {
		UI         ui
		W          words
		Rel, Title string
		TitleLang  string
		Cols       []pairCol
		Notes      []pairNoteView
		Back, Here string
		Token      string
		MarkAction string
	}{UI: u, W: newWords(u), Rel: "/" + rel, Token: s.token, MarkAction: markPath,
		Back: PairView + "/?" + url.Values{"lang": {lang}}.Encode(), Here: r.URL.RequestURI()}
	key, _ := idx.key(rel)
	lines := idx.linesOf(key)
	pages := map[string]string{} // by language, the URL of the page of key
	origLang := ""
	for _, l := range lines {
		origLang = l.Pair.OrigLang
		for _, p := range []*source.Page{l.Pair.Orig, l.Pair.Tr} {
			if p == nil {
				continue
			}
			pages[p.Lang] = pageURL(p)
			if data.Title == "" || p.Lang == origLang {
				data.Title, data.TitleLang = p.Meta.Title, p.Lang
			}
		}
	}
	for _, l := range st.langs {
		at := pages[l]
		if at == "" {
			at = "/" + l + "/"
			if rel != "" {
				at += rel + "/"
			}
		}
		f, _ := st.site.lookup(strings.Trim(at, "/"), true)
		col := pairCol{Lang: l, Name: u.Name(l), URL: at, Exists: f != nil && !st.untranslated[at], Original: l == origLang}
		if idx != nil {
			col.Terms = termsJSON(idx.glossary, l)
		}
		if !col.Exists {
			col.Missing = u.HTML(u.T("pair_missing_side"), col.Name)
			col.Scaffold = scaffoldFor(idx, u, lines, l)
		}
		data.Cols = append(data.Cols, col)
	}
	// Under the frames: how each translation stands against its original.
	for _, n := range idx.notes(key) {
		v := noteView(u, n)
		markNote(idx.glossary, &v)
		data.Notes = append(data.Notes, v)
	}
	writePair(w, "pair", data, http.StatusOK)
}

// scaffoldFor is how to write the page of lines missing in lang, nil
// when none of them is.
func scaffoldFor(idx *pairIndex, u ui, lines []translation.Line, lang string) *scaffoldView {
	for _, l := range lines {
		missing := l.Pair.Tr == nil && l.Pair.Lang == lang || l.NoOriginal && l.Pair.OrigLang == lang
		if !missing {
			continue
		}
		sc := scaffoldOf(l, idx.site.Content, idx.site.Langs[0], u.Tin(lang, "new_part_body"))
		v := &scaffoldView{scaffold: sc, Intro: u.HTML(u.T("pair_scaffold_text"), u.Name(sc.From))}
		if sc.Part {
			v.PartNote = u.HTML(u.T("pair_scaffold_part"), u.Name(sc.From))
		}
		return v
	}
	return nil
}

// noteView words the note n.
func noteView(u ui, n pairNote) pairNoteView {
	v := pairNoteView{pairNote: n}
	name, tr, orig := u.Name(n.Lang), code(n.Path), code(n.Orig)
	switch n.State {
	case "current":
		v.Says = u.HTML(u.T("pair_note_current"), name, n.Marked, tr, orig)
	case "unmarked":
		v.Says = u.HTML(u.T("pair_note_unmarked"), name, tr, orig)
		v.Mark = true
	default:
		if n.Since != "" {
			v.Says = u.HTML(u.T("pair_note_stale"), name, n.Since, n.Marked, orig, tr)
		} else {
			v.Says = u.HTML(u.T("pair_note_stale_undated"), name, n.Marked, orig, tr)
		}
		v.Mark = true
		if n.NoCopy {
			v.NoCopyText = u.HTML(u.T("pair_nocopy"), code(n.Store), code("git log -p "+n.Orig))
		} else {
			v.BlocksIntro = u.HTML(u.T("pair_blocks"), u.Name(n.OrigLang))
		}
	}
	if v.Mark {
		v.MarkSame = u.HTML(u.T("pair_mark_same"), code("kakehashi translations mark "+n.Path))
	}
	for _, b := range n.Blocks {
		v.Blocks = append(v.Blocks, blockView(u, b))
	}
	for _, b := range n.Removed {
		v.Removed = append(v.Removed, pairBlockView{pairBlock: b})
	}
	return v
}

// blockView words the block b.
func blockView(u ui, b pairBlock) pairBlockView {
	v := pairBlockView{pairBlock: b}
	switch b.Kind {
	case "same":
		v.Label = u.HTML(u.T(i18n.Count("pair_unchanged", b.Folded)), b.Folded)
		return v
	case "added":
		v.Label = u.HTML("%s", u.T("pair_block_added"))
	default:
		v.Label = u.HTML("%s", u.T("pair_block_changed"))
	}
	if b.Line > 0 {
		v.Label = u.HTML(u.T("pair_block_line"), v.Label, b.Line)
	}
	return v
}

// writePair executes the view's page name with data and writes it with
// status.
func writePair(w http.ResponseWriter, name string, data any, status int) {
	var b bytes.Buffer
	if err := pairPages.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	pairHeaders(w)
	w.WriteHeader(status)
	w.Write(b.Bytes())
}
