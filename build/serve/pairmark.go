package serve

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/translation"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// markPath is where the pair view posts "mark as translated".
const markPath = "/_kakehashi/mark"

// maxMarkForm bounds the body of a mark request: a token and two paths.
const maxMarkForm = 16 << 10

// serveMark marks a translation as up to date with its original, as
// "kakehashi translations mark PATH" does, from the pair view's form: a
// POST of the form's token (the server's, made when it started), the
// translation's file (path, from the site folder) and the pair view to
// return to (back). Only the server's own pages may post it: the Host
// and Origin checks of every request that is not GET (checkOrigin), and
// the token, which a page of another site cannot read, refuse the rest
// with 403. The site is read from disk as the command reads it
// (translation.LoadSite) and the translation marked with today's date
// (translation.Site.Mark); what the command refuses is refused with its
// message (400), and a translation that cannot be written is 422. The
// server then rebuilds, and answers with a redirect to the pair view,
// which shows the translation current.
func (s *Server) serveMark(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(w, r) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxMarkForm)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form: "+err.Error(), http.StatusBadRequest)
		return
	}
	st := s.cur.Load()
	lang := r.PostForm.Get("lang")
	if !slices.Contains(st.langs, lang) {
		lang = viewLang(st, r, "")
	}
	var strs *i18n.Bundle
	if idx := st.pairs.index(); idx != nil {
		strs = idx.strings
	}
	u := newUI(strs, lang)
	back := backTo(r.PostForm.Get("back"))
	refuse := func(status int, why string, lines ...string) {
		ref := refusal{UI: u, W: newWords(u), Why: why, Lines: lines, Back: back, BackLabel: u.T("pair_heading")}
		if back == PairView+"/" {
			ref.BackLabel = u.T("pair_back")
		}
		writePair(w, "refused", ref, status)
	}
	if tok := r.PostForm.Get("token"); subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		refuse(http.StatusForbidden, u.T("pair_mark_token"))
		return
	}
	rel := r.PostForm.Get("path")
	s.markMu.Lock()
	defer s.markMu.Unlock()
	ctx := r.Context()
	site, diags := translation.LoadSite(ctx, s.in, s.opts.Root, s.translationLayout())
	if errs := diags.Errors(); len(errs) > 0 {
		var lines []string
		for _, d := range errs.CapPerFile(20) {
			lines = append(lines, s.rel(d).String())
		}
		refuse(http.StatusBadRequest, "", append(lines, fmt.Sprintf("kakehashi translations mark: %d error%s in the site; fix them first", len(errs), plural(len(errs))))...)
		return
	}
	p, err := site.PairOf(filepath.Join(s.opts.Root, filepath.FromSlash(rel)))
	if err != nil {
		refuse(http.StatusBadRequest, "", "kakehashi translations mark: "+err.Error(), "kakehashi translations mark: nothing was marked")
		return
	}
	m, err := site.Mark(ctx, s.disk, p, time.Now())
	if m.CopyErr != nil {
		fmt.Fprintf(s.opts.Log, "kakehashi translations mark: warning: keeping a copy of %s: %v\n", site.Show(p.Orig.Path), m.CopyErr)
	}
	if err != nil {
		refuse(http.StatusUnprocessableEntity, "", "kakehashi translations mark: "+err.Error())
		return
	}
	if m.Unchanged {
		fmt.Fprintf(s.opts.Log, "unchanged %s: already current (marked %s)\n", site.Show(p.Tr.Path), m.Status.Marked.Date.Format(time.DateOnly))
	} else {
		fmt.Fprintf(s.opts.Log, "marked %s: translated: %s %s (from %s)\n", site.Show(p.Tr.Path), m.Date, m.Status.Hash, site.Show(p.Orig.Path))
	}
	// The watcher sees the edit too; the page the browser goes back to
	// must show it already.
	s.Rebuild(ctx, []string{p.Tr.Path})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// refusal is the page of a mark refused: why in the view's language,
// or the lines "kakehashi translations mark" would print.
type refusal struct {
	UI    ui
	W     words
	Why   string
	Lines []string
	// Back is the page to go back to, the pair view or the index, named
	// BackLabel.
	Back, BackLabel string
}

// backTo is where a mark request returns: the pair view it names (a
// path under /_pair/ of this server, with its query), else the index.
func backTo(back string) string {
	u, err := url.Parse(back)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || u.User != nil ||
		!strings.HasPrefix(u.Path, PairView+"/") || strings.Contains(back, "\\") || strings.HasPrefix(back, "//") {
		return PairView + "/"
	}
	return (&url.URL{Path: u.Path, RawQuery: u.RawQuery}).RequestURI()
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
