package serve

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/i18n"
)

// The translator's view (/_pair/) speaks the site's languages, in the
// site's UI strings (i18n/<lang>.toml over the embedded ones, keys
// pair_*): the language of the translator. That is the language a
// request names with ?lang= when it is one of the site's; else, on a
// pair, the language its path starts with (/_pair/ko/cka/05-ha-cluster/
// is in Korean: a page's notice links there, and the index links each
// pair under the language of the side to write); else the best of the
// site's languages for the browser's Accept-Language; else the site's
// first. On the index, ?lang= is also the filter: the translations to
// write or update in that language.

// loadStrings reads the site's UI strings for langs, as the build does;
// nil when they do not load (the build reports why), and the view then
// speaks the embedded strings.
func (s *Server) loadStrings(ctx context.Context, langs []string) *i18n.Bundle {
	dir := s.opts.Build.Layout.WithDefaults().I18n
	b, diags := i18n.LoadSite(ctx, s.in, dir, langs)
	if diags.Err() != nil {
		return nil
	}
	return b
}

// stringsChanged reports whether a rebuild for paths may find the UI
// strings changed: paths is empty (unknown) or names a file of the
// strings' folder.
func (s *Server) stringsChanged(paths []string) bool {
	if len(paths) == 0 {
		return true
	}
	dir := strings.Trim(s.opts.Build.Layout.WithDefaults().I18n, "/")
	for _, p := range paths {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

// ui is the view's language and its strings.
type ui struct {
	Lang string
	b    *i18n.Bundle // nil: the embedded strings only
	t    func(key string) string
}

// newUI speaks lang in b's strings, else in the embedded ones.
func newUI(b *i18n.Bundle, lang string) ui {
	return ui{Lang: lang, b: b, t: i18n.WithFallback(lang, func(key string) string {
		if b == nil || !b.Has(lang, key) {
			return ""
		}
		return b.T(lang, key)
	})}
}

// T is the string for key (or i18n.Count(key, n)).
func (u ui) T(key string) string { return u.t(key) }

// Tin is the string for key in another of the site's languages.
func (u ui) Tin(lang, key string) string {
	if lang == u.Lang {
		return u.t(key)
	}
	return newUI(u.b, lang).lookup(key)
}

// lookup is the string for key, a key that the code builds: each
// language names each other (i18n.LangNameKey, which every bundle has).
func (u ui) lookup(key string) string { return u.t(key) }

// Name is the name of the language lang in the view's language.
func (u ui) Name(lang string) string {
	if n := u.lookup(i18n.LangNameKey(lang)); n != "" {
		return n
	}
	return lang
}

// HTML formats the string format (one of T's) with args as HTML: the
// string's text is escaped, and so is each argument but a template.HTML
// (HTML made here), so that a sentence of the strings can hold a path
// in <code>.
func (u ui) HTML(format string, args ...any) template.HTML {
	for i, a := range args {
		switch a := a.(type) {
		case template.HTML:
		case string:
			args[i] = template.HTMLEscapeString(a)
		case int:
		default:
			args[i] = template.HTMLEscapeString(fmt.Sprint(a))
		}
	}
	return template.HTML(fmt.Sprintf(template.HTMLEscapeString(format), args...))
}

// code is s in <code>, escaped.
func code(s string) template.HTML {
	return template.HTML("<code>" + template.HTMLEscapeString(s) + "</code>")
}

// viewLang is the language the view speaks for r (see above): ?lang=
// when it is one of the site's languages, else def when it is one, else
// the best for Accept-Language, else the first.
func viewLang(st *state, r *http.Request, def string) string {
	if l := r.URL.Query().Get("lang"); slices.Contains(st.langs, l) {
		return l
	}
	if slices.Contains(st.langs, def) {
		return def
	}
	if len(st.langs) == 0 {
		return "en"
	}
	return rootLang(st, r.Header.Get("Accept-Language"))
}

// PairView is the path of the translator's view: /_pair/ is its index,
// and /_pair/<lang>/<page>/ a page side by side in every language. The
// server's builds give it to the pages (build.Options.PairView), whose
// translation notices then link there.
const PairView = "/_pair"

// pairHeaders are the headers of every response of the view: made anew
// on each request, and shown only in a frame of the server's own pages,
// so that no page of another site can frame the view and have its
// reader click a button of it.
func pairHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", "frame-ancestors 'self'")
	h.Set("X-Frame-Options", "SAMEORIGIN")
}
