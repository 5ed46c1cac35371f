// Package render is the template stage: it turns the site's pages into
// HTML with a theme's html/template layouts, which it loads and checks in
// the load stage (Load). For the write stage it lists the theme's static
// files and makes the sitemap, the Atom feeds and robots.txt; Outputs is
// the registry of every file a build generates beside its pages.
//
// A theme folder holds layouts/*.html and static/. layouts/baseof.html
// defines the template "base", the page skeleton; one file per page kind
// (article.html, home.html, series.html, root.html, 404.html, tags.html,
// tag.html) defines the blocks "base" calls ("title", "main"); every other
// file in layouts/ holds partials shared by all kinds.
//
// Templates see the Page as "." and these functions, bound to the page
// being rendered:
//
//	T key              UI string in the page's language
//	Tf key args...     UI string formatted with args (fmt verbs)
//	Tin lang key       UI string in another language
//	rel path           site-absolute path → URL relative to this page
//	                   (absolute on the 404 page, which is served at any depth);
//	                   with Site.ExplicitIndex a folder's URL names its
//	                   index.html, for links followed from file://
//	relFolder path     the same, but a folder stays a folder (a base URL that
//	                   scripts join paths to)
//	abs path           site-absolute path → Site.BaseURL + path
//	date t             date in the page's language (2026年11月2日, 2026년 11월 2일)
//	isodate t          2026-11-02
//	lang               the page's language, the site's first on the root page
//	langs              the site's languages
//	siteTitle          the site title in the page's language
//	siteTitleIn lang   the site title in lang
//	home               "/<lang>/", this language's home
//	feed               "/<lang>/index.xml", this language's Atom feed
//	xdefault           the URL of the x-default alternate, or ""
//	dict k v k v...    a map, to pass several values to a template
//	csp                the attribute content="…" holding the pages'
//	                   Content-Security-Policy (ContentSecurityPolicy), for
//	                   <meta http-equiv="Content-Security-Policy" {{csp}}>
//	site               the Site, as every page has it (.Site): for cached
//	                   templates, whose data is not the page
//	cached name data   the template name executed with data, made once per
//	                   build for each data, language and folder depth, and
//	                   reused: for HTML text that many pages share (see
//	                   below)
//
// cached keeps what a template makes of its data for every page of the
// same language at the same depth, where rel gives the same paths: the
// data must say everything the output depends on, and be a value that
// can be a key (a struct of strings, numbers and bools, such as a
// PartRef, or a pointer, which stands for what it points at). A cached
// template sees the functions as the page does, but xdefault, which
// reads the page. {{range .Series.Parts}}{{cached "part" .}}{{end}}
// executes "part" once for each part, not once for each page that lists
// it.
//
// rel, relFolder and abs give a fingerprinted file (a stylesheet, script
// or WebAssembly module, Site.Assets) under its hashed name:
// {{rel "/css/main.css"}} is "../css/main.3f2a1c9e.css".
package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
	"github.com/spf13/afero"
)

// baseFile is the layout that defines the page skeleton, "base".
const baseFile = "baseof.html"

// kinds lists every page kind a theme must have a layout for.
var kinds = [...]string{string(KindArticle), string(KindUntranslated), string(KindSection), string(KindHome), string(KindSeries), string(KindRoot), string(KindNotFound), string(KindTags), string(KindTag), string(KindGlossary)}

// optional are the kinds whose layout a theme may leave out, with the
// kind whose layout stands in: a page of its own outside a series (an
// _index.md in another folder) is laid out as an article unless the
// theme has section.html.
// A theme without glossary.html lays the glossary out as an article.
var optional = map[string]string{string(KindUntranslated): string(KindArticle), string(KindSection): string(KindArticle), string(KindGlossary): string(KindArticle)}

// Theme is a loaded theme: one template set per page kind. Render is safe
// for concurrent use.
type Theme struct {
	fsys   afero.Fs
	dir    string
	bundle *i18n.Bundle
	// sources maps each layout's path to its text, to place errors. The
	// path is the file's origin (source.Origin): in a layered theme, the
	// site's, the theme's or the embedded default's file.
	sources map[string][]byte
	// kindFiles maps each page kind to its layout's path.
	kindFiles map[string]string
	layouts   map[string]*layout
	// keyTypes remembers which types of data cached takes (keyable).
	keyTypes sync.Map
}

// layout is one page kind's templates: a master that is never executed and
// a pool of executable clones, each with its functions bound to a state.
type layout struct {
	master *htmltemplate.Template
	pool   sync.Pool
	// files maps each defined template's name to the file defining it,
	// read from the master's parse trees, which escaping never touches.
	files map[string]string
}

// instance is one executable clone of a layout. Its functions read the page
// from state, so one instance renders one page at a time.
type instance struct {
	t     *htmltemplate.Template
	state *state
	buf   bytes.Buffer // the page being rendered
}

// state is what the template functions of one instance see.
type state struct {
	page *Page
	t    *htmltemplate.Template // the instance's templates, which cached executes
	// caching counts the cached templates being executed, nested.
	caching int
	// err is the first error of a cached template: the page's error,
	// placed in the template that made it rather than at the call.
	err error
}

// fragKey names the output of a cached template (Theme.cached): rel's
// paths depend on the page by its depth alone, but on the 404 page,
// whose links are absolute.
type fragKey struct {
	name, lang string
	depth      int
	abs        bool
	data       any
}

// Load parses the theme in themeDir: every layouts/*.html file, checked so
// that template syntax and HTML escaping errors come back now, each at its
// file:line:col. A cancelled ctx stops the reading with its error.
//
// fsys may lay several folders over one another (source.Layers: the
// site's own layouts/, its theme's, the embedded default's): each error
// names the file it is in, by source.Origin.
func Load(ctx context.Context, fsys afero.Fs, themeDir string, bundle *i18n.Bundle) (*Theme, diag.List) {
	if bundle == nil {
		return nil, diag.List{diag.File(themeDir, "no UI strings given to the theme")}
	}
	th := &Theme{
		fsys:      fsys,
		dir:       themeDir,
		bundle:    bundle,
		sources:   make(map[string][]byte),
		kindFiles: make(map[string]string),
		layouts:   make(map[string]*layout),
	}
	layoutDir := path.Join(themeDir, "layouts")
	entries, err := afero.ReadDir(fsys, layoutDir)
	if err != nil {
		return nil, diag.List{diag.File(layoutDir, "cannot read layouts: %v", err)}
	}
	var diags diag.List
	var shared []string // the base and partials, by path
	seen := cachedSeen{names: map[string]bool{}, missing: map[string]bool{}}
	kindFile := make(map[string]string)
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, diag.List{diag.File(layoutDir, "reading layouts: %v", err)}
		}
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".html") {
			continue
		}
		p := source.Origin(fsys, path.Join(layoutDir, name))
		src, err := afero.ReadFile(fsys, path.Join(layoutDir, name))
		if err != nil {
			diags = append(diags, diag.File(p, "cannot read: %v", err))
			continue
		}
		th.sources[p] = src
		if k := strings.TrimSuffix(name, ".html"); isKind(k) {
			kindFile[k] = p
		} else {
			shared = append(shared, p)
		}
	}
	sort.Strings(shared)
	baseOrigin := source.Origin(fsys, path.Join(layoutDir, baseFile))
	if _, ok := th.sources[baseOrigin]; !ok {
		diags = append(diags, diag.File(baseOrigin, "missing: the base layout defines the template \"base\""))
	}

	base := htmltemplate.New("").Funcs(th.funcs(&state{}))
	for _, p := range shared {
		if _, err := base.New(p).Parse(string(th.sources[p])); err != nil {
			diags = append(diags, th.parseDiag(p, err))
		}
	}
	if len(diags) > 0 {
		return nil, diags
	}
	for _, k := range kinds {
		p, ok := kindFile[k]
		if !ok && optional[k] != "" {
			if _, parsed := th.layouts[optional[k]]; !parsed && kindFile[optional[k]] != "" {
				continue // the stand-in's errors are reported once, as its own
			}
			p, ok = kindFile[optional[k]]
		}
		if !ok {
			diags = append(diags, diag.File(source.Origin(fsys, path.Join(layoutDir, k+".html")), "missing: the layout for %s pages", k))
			continue
		}
		th.kindFiles[k] = p
		t, err := base.Clone()
		if err != nil {
			diags = append(diags, diag.File(p, "%v", err))
			continue
		}
		if _, err := t.New(p).Parse(string(th.sources[p])); err != nil {
			diags = append(diags, th.parseDiag(p, err))
			continue
		}
		if t.Lookup("base") == nil {
			diags = append(diags, diag.File(baseOrigin, "no template \"base\" is defined"))
			continue
		}
		l := &layout{master: t, files: make(map[string]string)}
		for _, d := range t.Templates() {
			if d.Tree != nil {
				l.files[d.Name()] = d.Tree.ParseName
			}
		}
		l.pool.New = func() any { return th.newInstance(l) }
		th.layouts[k] = l
		var cached []string
		cached, diags = th.cachedNames(t, seen, diags)
		if err := th.check(k, cached, seen); err != nil {
			diags = append(diags, err...)
		}
	}
	if len(diags) > 0 {
		diags.Sort()
		return nil, diags
	}
	return th, nil
}

func isKind(k string) bool {
	for _, kk := range kinds {
		if k == kk {
			return true
		}
	}
	return false
}

// newInstance clones l's master and binds its functions to a fresh state.
// A nil t means the clone failed (it cannot once Load succeeded).
func (th *Theme) newInstance(l *layout) *instance {
	st := &state{}
	t, err := l.master.Clone()
	if err != nil {
		return &instance{state: st}
	}
	st.t = t.Funcs(th.funcs(st))
	return &instance{t: st.t, state: st}
}

// LayoutFile is the path of the layout file that renders pages of kind
// in the theme, "" for a kind it has none for.
func (th *Theme) LayoutFile(kind Kind) string { return th.kindFiles[string(kind)] }

// kindFile is the path of the layout file of kind.
func (th *Theme) kindFile(kind string) string {
	return th.kindFiles[kind]
}

// Render executes the layout for p.Kind and writes the page to w. Nothing is
// written when execution fails; the error is a diag.Diagnostic naming the
// template file and line when it can.
func (th *Theme) Render(w io.Writer, p *Page) error {
	if p == nil {
		return errors.New("render: nil page")
	}
	if p.Site == nil {
		return diag.File(p.URL, "render: page has no Site")
	}
	l, ok := th.layouts[string(p.Kind)]
	if !ok {
		return diag.File(p.URL, "render: no layout for page kind %q", p.Kind)
	}
	inst := l.pool.Get().(*instance)
	if inst.t == nil {
		return diag.File(th.dir, "render: cannot clone the %s layout", p.Kind)
	}
	inst.state.page = p
	inst.buf.Reset() // kept with the instance: pages need no growing buffers
	err := inst.t.ExecuteTemplate(&inst.buf, "base", p)
	if err == nil {
		_, err = w.Write(inst.buf.Bytes())
	} else {
		if inst.state.err != nil {
			err = inst.state.err
		}
		err = th.execDiag(l, err)
	}
	inst.state.page, inst.state.err = nil, nil
	l.pool.Put(inst)
	return err
}

// cached is the template function cached: the output of the template
// name with data, made once per page language and folder depth for each
// data and kept in the page's Site, which lives as long as one build.
func (th *Theme) cached(st *state, lang, name string, data any) (htmltemplate.HTML, error) {
	p := st.page
	if p == nil || p.Site == nil || st.t == nil {
		return "", fmt.Errorf("cached %q: no page", name)
	}
	if data != nil && !th.keyable(reflect.TypeOf(data)) {
		return "", fmt.Errorf("cached %q: its data, a %T, cannot stand for its output: give a value made of strings, numbers and bools, or a pointer", name, data)
	}
	k := fragKey{name: name, lang: lang, depth: relDepth(p.URL), abs: p.Kind == KindNotFound, data: data}
	if h, ok := p.Site.frags.get(k); ok {
		return h, nil
	}
	var b strings.Builder
	st.caching++
	err := st.t.ExecuteTemplate(&b, name, data)
	st.caching--
	if err != nil {
		if st.err == nil {
			st.err = err
		}
		return "", err
	}
	h := htmltemplate.HTML(b.String())
	p.Site.frags.put(k, h)
	return h, nil
}

// parseErrRE matches text/template errors: "template: NAME:LINE: msg" and,
// for execution errors, "template: NAME:LINE:COL: msg".
var parseErrRE = regexp.MustCompile(`^template: ([^:]+):(\d+):(?:(\d+):)? ?(.*)$`)

// nameErrRE matches an execution error without a place, "template: NAME: msg".
var nameErrRE = regexp.MustCompile(`^template: ([^:]+): (.*)$`)

// locRE matches the ":LINE:COL" that ends parse.Tree.ErrorContext's location.
var locRE = regexp.MustCompile(`:(\d+):(\d+)$`)

// funcs returns the template functions bound to st.
func (th *Theme) funcs(st *state) htmltemplate.FuncMap {
	lang := func() string {
		if st.page != nil && st.page.Lang != "" {
			return st.page.Lang
		}
		if st.page != nil && st.page.Site != nil && len(st.page.Site.Langs) > 0 {
			return st.page.Site.Langs[0]
		}
		if ls := th.bundle.Langs(); len(ls) > 0 {
			return ls[0]
		}
		return ""
	}
	site := func() *Site {
		if st.page == nil || st.page.Site == nil {
			return &Site{}
		}
		return st.page.Site
	}
	asset := func(p string) string { return site().Assets.Path(p) }
	abs := func(p string) string { return Abs(site().BaseURL, asset(p)) }
	return htmltemplate.FuncMap{
		"T":  func(key string) string { return th.bundle.T(lang(), key) },
		"Tf": func(key string, args ...any) string { return th.bundle.Tf(lang(), key, args...) },
		"Tin": func(l, key string) string {
			return th.bundle.T(l, key)
		},
		"rel": func(p string) string {
			if st.page == nil {
				return p
			}
			if st.page.Kind == KindNotFound {
				return abs(p)
			}
			return Link(st.page.URL, asset(p), site().ExplicitIndex)
		},
		"relFolder": func(p string) string {
			if st.page == nil {
				return p
			}
			if st.page.Kind == KindNotFound {
				return abs(p)
			}
			return Rel(st.page.URL, asset(p))
		},
		"abs": abs,
		"csp": func() htmltemplate.HTMLAttr {
			return htmltemplate.HTMLAttr(`content="` + ContentSecurityPolicy + `"`) // our own constant
		},
		"date": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.Format(th.bundle.T(lang(), "date_format"))
		},
		"isodate": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.Format("2006-01-02")
		},
		"lang":      lang,
		"langs":     func() []string { return site().Langs },
		"siteTitle": func() string { return site().Title[lang()] },
		"siteShortTitle": func() string {
			if t := site().ShortTitle[lang()]; t != "" {
				return t
			}
			return site().Title[lang()]
		},
		"siteTitleIn": func(l string) string { return site().Title[l] },
		"home":        func() string { return "/" + lang() + "/" },
		"feed":        func() string { return FeedPath(lang()) },
		"dict":        shortcodes.Dict,
		"xdefault": func() (string, error) {
			if st.page == nil {
				return "", nil
			}
			if st.caching > 0 {
				return "", errors.New("xdefault reads the page: it cannot be in a cached template")
			}
			return xDefault(site(), st.page.Translations), nil
		},
		"site":   site,
		"cached": func(name string, data any) (htmltemplate.HTML, error) { return th.cached(st, lang(), name, data) },
	}
}

// xDefault is the URL of the translation in the site's first language, the
// x-default alternate, or "" when that translation does not exist.
func xDefault(site *Site, ts []Translation) string {
	if len(site.Langs) == 0 {
		return ""
	}
	first := site.Langs[0]
	for _, t := range ts {
		if t.Lang == first && t.Exists {
			return t.URL
		}
	}
	return ""
}

// String describes the theme for debugging.
func (th *Theme) String() string { return fmt.Sprintf("theme %s", th.dir) }
