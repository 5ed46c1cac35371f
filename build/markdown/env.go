package markdown

import (
	"context"
	"slices"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/yuin/goldmark/parser"
)

// envKey is the parser.Context key under which Render stores the *Env of
// the document being parsed. Keys are immutable once created.
var envKey = parser.NewContextKey()

// PartLink is one part of a series, as a "#N" reference links to it.
type PartLink struct {
	Href      string // site-absolute or page-relative URL of the part
	Title     string // the part's title in the page's language
	Published bool   // false: planned, rendered as a mark, never a link
}

// Env is what the rendering of one document knows about its page.
type Env struct {
	Lang string // the page's language, one of the site's
	// Parts looks up part n of the page's series; nil outside a series,
	// ok=false when the series has no such part.
	Parts func(n int) (PartLink, bool)
	// SeriesParts looks up part n of the site's series id, for a
	// reference to any series ({{< part series="ckad" n=3 >}}); nil when
	// the site has no series, ok=false when the series has no such part.
	SeriesParts func(id string, n int) (PartLink, bool)
	// SeriesIDs lists the ids of the site's series, in order: what
	// SeriesParts knows.
	SeriesIDs []string
	// T returns a UI string ("planned", "copy", "copied", "anchor"); nil or
	// an empty answer selects i18n's fallback for Lang.
	T func(key string) string
	// Assets resolves a reference to a file the page shows (an image:
	// "diagram.png", "/img/site.png") against the page: its URL relative
	// to the page and its size, or an error that says why it cannot be
	// shown. The build sets it; nil leaves references as written,
	// unchecked. See Env.Image.
	Assets func(ref string) (Asset, error)
	// Link resolves the destination of each link of the body, inline or
	// by reference ("02-control-plane.md#etcd", "../ko/", "#etcd"): what
	// the HTML links to instead, what the link names, and a problem to
	// report at the link's '['. The build sets it (page.Links); nil leaves
	// links as written, unchecked. A fragment of the page itself
	// (LinkTarget.Self) is checked against the ids of the rendered page.
	Link func(dest string) LinkTarget
	// Param looks a parameter up as Hugo's .Page.Param does (the param
	// shortcode): the page's front matter params, else the site's
	// [params]; a key is any case, dots name keys in maps ("a.b"). The
	// build sets it; nil knows none.
	Param func(key string) (value any, ok bool)
	// Term looks an entry of the site's glossary up by its id, for the
	// term shortcode; TermIDs lists the ids, for a message about one it
	// lacks. The build sets both; nil on a site without a glossary.
	Term    func(id string) (Term, bool)
	TermIDs []string
	// Page is what a site shortcode template shows of the page and its
	// site (Hugo's .Page and .Site). The build sets it; nil shows an
	// empty page, and relative links as written.
	Page *PageInfo

	st *docState // set by Render
	// sub: the environment of another source rendered for the document
	// (Sub), whose reports land at at, an offset into the document's body.
	sub bool
	at  int
}

// PageInfo describes a page and its site as a site shortcode template
// shows them (Hugo's .Page and .Site).
type PageInfo struct {
	Title  string
	Params map[string]any // the page's front matter params
	// URL is the page's site-absolute path ("/ja/cka/05-ha-cluster/"),
	// Permalink its absolute URL, under BaseURL.
	URL, Permalink string
	SiteTitle      string         // the site's title in the page's language
	SiteParams     map[string]any // the configuration's [params]
	// BaseURL is the absolute URL the site is published under, ending in
	// "/"; "/" when it has none.
	BaseURL string
	// Rel makes a site-absolute path a URL relative to the page, as the
	// theme's rel does (one that works under any base URL and from
	// file://); Abs makes it an absolute URL under BaseURL, as abs does.
	// Nil leaves a path as it is.
	Rel, Abs func(p string) string
}

// docState is the per-document state behind an Env made by Render.
type docState struct {
	ctx       context.Context
	path      string
	full      []byte // Doc.Src
	body      []byte // Doc.Src[BodyStart:], what goldmark parses
	bodyStart int
	// fallback gives the embedded UI strings of Env.Lang, read when
	// first needed (i18n.WithFallback).
	fallback func(key string) string

	mu     sync.Mutex
	diags  diag.List
	index  *diag.Index   // made on the first report
	images int           // images resolved so far (Env.Image)
	links  []pendingLink // the links Env.Link resolved, in document order
	// styles and scripts are what the document's components need
	// (Env.Need), each once, in the order first needed.
	styles, scripts []string
}

// EnvFrom returns the Env of the document a goldmark parser.Context belongs
// to, or nil when the context was not made by Renderer.Render.
func EnvFrom(pc parser.Context) *Env {
	if pc == nil {
		return nil
	}
	e, _ := pc.Get(envKey).(*Env)
	return e
}

// Report records a diagnostic of severity sev at byte offset off into the
// body goldmark parsed (Source); it appears in Result.Diags with its
// position in the whole file. Safe on a nil Env (the report is dropped).
func (e *Env) Report(sev diag.Severity, off int, format string, args ...any) {
	if e == nil || e.st == nil {
		return
	}
	off = e.offset(off)
	st := e.st
	st.mu.Lock()
	if st.index == nil {
		st.index = diag.NewIndex(st.full)
	}
	d := st.index.At(st.path, st.bodyStart+off, format, args...)
	d.Severity = sev
	st.diags = append(st.diags, d)
	st.mu.Unlock()
}

// offset is the offset in the document's body that off, an offset into
// the source being parsed, stands for: off itself, or, in a Sub
// environment, the place the source came from.
func (e *Env) offset(off int) int {
	if e.sub {
		return e.at
	}
	return off
}

// Sub returns an environment for another markdown source rendered for
// e's document (the output of a {{% %}} site shortcode, the string a
// template gives markdownify) and a goldmark parser.Context that carries
// it: it knows what e knows and adds to e's result (the components
// needed, the links found, the diagnostics), and whatever is reported
// while that source is parsed and rendered lands at at, the offset in
// e's body of what it came from (the call). Safe on a nil Env: the
// context then carries none.
func (e *Env) Sub(at int) (*Env, parser.Context) {
	pc := parser.NewContext()
	if e == nil {
		return nil, pc
	}
	s := *e
	s.sub, s.at = true, e.offset(at)
	pc.Set(envKey, &s)
	return &s, pc
}

// Position is where the offset off of the body is in the file: its
// path, its 1-based line and column (in characters), and its byte offset
// in the whole file; in a Sub environment, where its source came from.
// Zero on an Env that Render did not make.
func (e *Env) Position(off int) (path string, line, col, fileOff int) {
	if e == nil || e.st == nil {
		return "", 0, 0, 0
	}
	fileOff = min(max(e.st.bodyStart+e.offset(off), 0), len(e.st.full))
	line, col = diag.Position(e.st.full, fileOff)
	return e.st.path, line, col, fileOff
}

// Need records that the document holds a component (a shortcode) whose
// HTML needs the stylesheets styles and the scripts scripts, site-absolute
// paths ("/css/calc.css", "/js/calc.js"); they appear in Result.Styles and
// Result.Scripts, each once, in the order first needed, and the page links
// them. Safe on a nil Env (dropped).
func (e *Env) Need(styles, scripts []string) {
	if e == nil || e.st == nil {
		return
	}
	st := e.st
	st.mu.Lock()
	st.styles = appendNew(st.styles, styles)
	st.scripts = appendNew(st.scripts, scripts)
	st.mu.Unlock()
}

// appendNew appends to list each of ps it does not hold yet.
func appendNew(list, ps []string) []string {
	for _, p := range ps {
		if !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	return list
}

// Source returns the markdown body goldmark parses (the file after its
// front matter); AST segments are offsets into it.
func (e *Env) Source() []byte {
	if e == nil || e.st == nil {
		return nil
	}
	return e.st.body
}

// Path returns the path of the document, as diagnostics print it.
func (e *Env) Path() string {
	if e == nil || e.st == nil {
		return ""
	}
	return e.st.path
}

// Context returns the context of the Render call, for extensions doing long
// work; never nil.
func (e *Env) Context() context.Context {
	if e == nil || e.st == nil || e.st.ctx == nil {
		return context.Background()
	}
	return e.st.ctx
}

// t returns the UI string for key: Env.T's answer, else i18n's fallback
// for Lang, read once for the document.
func (e *Env) t(key string) string {
	if e.T != nil {
		if s := e.T(key); s != "" {
			return s
		}
	}
	if e.st != nil && e.st.fallback != nil {
		return e.st.fallback(key)
	}
	return i18n.Fallback(e.Lang, key)
}
