package page

import (
	"fmt"
	"path"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// PartLinks resolves "#N" in the prose of a page of series sr in lang: the
// part's title in lang, and a link when the part has a page. Links are
// relative to the page at the site-absolute path from (naming a folder's
// index.html when explicit, see render.Link), or site-absolute when from is
// "" (a fragment that has no page of its own). Both the build and
// Builder.RenderDoc use it.
func PartLinks(st *site.Site, sr *source.Series, lang, from string, explicit bool) func(int) (markdown.PartLink, bool) {
	return func(n int) (markdown.PartLink, bool) {
		part, ok := sr.Part(n)
		if !ok {
			return markdown.PartLink{}, false
		}
		l := markdown.PartLink{Title: part.Title[lang]}
		if q := st.PartPage(lang, sr.ID, n); q != nil {
			l.Href, l.Published = q.URL, true
			if from != "" {
				l.Href = render.Link(from, q.URL, explicit)
			}
		}
		return l, true
	}
}

// ExplicitIndexLinks is the goldmark extension that makes every relative
// link and image of the markdown that names a folder name its index.html
// (render.ExplicitIndex), the form the rest of an exported page links in
// (build.Options.ExplicitIndex).
func ExplicitIndexLinks() goldmark.Extender { return explicitIndexLinks{} }

type explicitIndexLinks struct{}

var (
	_ goldmark.Extender     = explicitIndexLinks{}
	_ parser.ASTTransformer = explicitIndexLinks{}
)

// Extend implements goldmark.Extender.
func (x explicitIndexLinks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(x, 1000)))
}

// Transform implements parser.ASTTransformer.
func (explicitIndexLinks) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch l := n.(type) {
			case *ast.Link:
				l.Destination = []byte(render.ExplicitIndex(string(l.Destination)))
			case *ast.Image:
				l.Destination = []byte(render.ExplicitIndex(string(l.Destination)))
			}
		}
		return ast.WalkContinue, nil
	})
}

// Links sets in env what the markdown of sp resolves its links with: "#N"
// within sp's series, a part shortcode naming any series, the series'
// ids, and every other link of the body (env.Link, see LinkResolver),
// against the site's link index, made once per build. A page without a
// URL or a source file (a fragment: Builder.RenderDoc) links its parts
// site-absolute and leaves its other links as written.
func (a *Assembler) Links(env *markdown.Env, sp *site.Page) {
	links(env, a.st, sp, a.data.ExplicitIndex, a.index)
}

// Links is Assembler.Links for a page of st outside a build (a fragment:
// Builder.RenderDoc); a page with a URL and a source file has its links
// resolved against an index made for it alone, with the outputs of every
// language.
func Links(env *markdown.Env, st *site.Site, sp *site.Page, explicitIndex bool) {
	links(env, st, sp, explicitIndex, func() *linkIndex { return newLinkIndex(st, render.NewOutputs(st.Langs, false, true)) })
}

// links is Links with the link index of the site, made when first asked.
func links(env *markdown.Env, st *site.Site, sp *site.Page, explicitIndex bool, index func() *linkIndex) {
	if sp.Series != nil {
		env.Parts = PartLinks(st, sp.Series, sp.Lang, sp.URL, explicitIndex)
	}
	if sp.Source != nil && sp.URL != "" {
		env.Link = (&linker{ix: index(), st: st, sp: sp, explicit: explicitIndex, env: env}).resolve
	}
	terms(env, st, sp, explicitIndex)
	if len(st.Series) == 0 {
		return
	}
	env.SeriesIDs = make([]string, len(st.Series))
	for i, sr := range st.Series {
		env.SeriesIDs[i] = sr.ID
	}
	env.SeriesParts = func(id string, n int) (markdown.PartLink, bool) {
		for _, sr := range st.Series {
			if sr.ID == id {
				return PartLinks(st, sr, sp.Lang, sp.URL, explicitIndex)(n)
			}
		}
		return markdown.PartLink{}, false
	}
}

// linkIndex is what the links of a site's pages are resolved against,
// made once per build (Assembler.index).
type linkIndex struct {
	bySource map[string]*site.Page // the pages by source file
	// files are the site-absolute paths of the page folders' files, the
	// aliases and the files the build generates (render.Outputs).
	files map[string]bool
}

// newLinkIndex returns the link index of st, whose build generates outs.
func newLinkIndex(st *site.Site, outs *render.Outputs) *linkIndex {
	ix := &linkIndex{bySource: make(map[string]*site.Page, len(st.Pages)), files: map[string]bool{}}
	for _, p := range st.Pages {
		if p.Source != nil {
			ix.bySource[p.Source.Path] = p
		}
	}
	for _, f := range st.Files {
		ix.files[f.URL] = true
	}
	for _, a := range st.Aliases {
		ix.files[a.URL] = true
	}
	for _, o := range outs.All() {
		ix.files[o.Path] = true
	}
	return ix
}

// linkTargetsFP is the fingerprint of everything a link may name: the
// pages with their source files, the page folders' files and the aliases.
func linkTargetsFP(st *site.Site) uint64 {
	h := cache.NewHasher()
	for _, p := range st.Pages {
		h.Str(p.URL)
		if p.Source != nil {
			h.Str(p.Source.Path)
		}
	}
	for _, f := range st.Files {
		h.Str(f.URL)
	}
	for _, a := range st.Aliases {
		h.Str(a.URL)
	}
	return h.Sum()
}

// linker resolves the links of one page (markdown.Env.Link).
type linker struct {
	ix       *linkIndex
	st       *site.Site
	sp       *site.Page
	explicit bool
	env      *markdown.Env // for its Assets: the static files
}

// resolve is markdown.Env.Link for the page:
//
//   - a link to a page's source file, relative to the page's own
//     ("02-control-plane.md#etcd", "../cka/_index.md") or from the site
//     root ("/content/ja/cka/02-control-plane.md"), as the files link on
//     GitHub, links to that page, relative (render.Link); a file that is
//     no page of the site is an error;
//   - a link within the site, relative to the page's URL or site-absolute
//     ("/ja/cka/02-control-plane/", before the base URL's path), must name
//     a page, a page folder's file, a static file or a file the build
//     makes; else a warning. A site-absolute one is made relative, so that
//     it works under any base URL;
//   - a fragment of the page itself ("#etcd") is checked against the
//     page's ids once it is rendered (markdown.LinkTarget.Self);
//   - a URL with a scheme or a host is left alone.
func (l *linker) resolve(dest string) markdown.LinkTarget {
	if dest == "" || external(dest) {
		return markdown.LinkTarget{}
	}
	p, suffix := dest, ""
	if i := strings.IndexAny(dest, "?#"); i >= 0 {
		p, suffix = dest[:i], dest[i:]
	}
	frag, rawFrag := "", ""
	if i := strings.IndexByte(suffix, '#'); i >= 0 {
		rawFrag = suffix[i+1:]
		frag = markdown.UnescapeFragment(rawFrag)
	}
	if p == "" {
		if strings.HasPrefix(suffix, "#") {
			return markdown.LinkTarget{Path: l.sp.URL, Fragment: frag, Self: true}
		}
		return markdown.LinkTarget{}
	}
	name := markdown.UnescapeFragment(p)
	if n := len(name); n > 3 && strings.EqualFold(name[n-3:], ".md") {
		return l.source(dest, name, suffix, frag, rawFrag)
	}
	abs := strings.HasPrefix(name, "/")
	target := name
	if !abs {
		target = join(dir(l.sp.URL), name)
	}
	if q := l.page(target); q != nil {
		t := markdown.LinkTarget{Path: q.URL, Fragment: frag, Self: q == l.sp}
		if abs || q.URL != target {
			t.Href = l.href(q, suffix, rawFrag)
		}
		return t
	}
	if l.ix.files[target] {
		return l.file(target, abs, suffix, frag)
	}
	if !abs {
		// A page folder's file may be its first language's twin's, as
		// its images may (asset.Resolver).
		if tw := l.sp.Translations[l.first()]; tw != nil && tw != l.sp && tw.Bundle != "" && l.sp.Bundle != "" {
			if rel, ok := strings.CutPrefix(target, l.sp.URL); ok {
				if f := l.st.File(path.Join(tw.Bundle, rel)); f != nil {
					return markdown.LinkTarget{Path: f.URL, Fragment: frag, Href: render.Link(l.sp.URL, f.URL+suffix, l.explicit)}
				}
			}
		}
	}
	if l.env.Assets != nil && !strings.HasSuffix(target, "/") {
		if _, err := l.env.Assets(target); err == nil {
			return l.file(target, abs, suffix, frag)
		}
	} else if l.env.Assets == nil {
		return markdown.LinkTarget{} // static files unknown: unchecked
	}
	return markdown.LinkTarget{Problem: fmt.Sprintf("link to %q: no such page or file", dest), Severity: diag.Warning}
}

// source resolves a link to the markdown file name.
func (l *linker) source(dest, name, suffix, frag, rawFrag string) markdown.LinkTarget {
	var file string
	if strings.HasPrefix(name, "/") {
		file = strings.TrimPrefix(path.Clean(name), "/")
	} else {
		file = path.Join(path.Dir(l.sp.Source.Path), name)
	}
	q := l.ix.bySource[file]
	if q == nil && l.st.Failed(file) {
		return markdown.LinkTarget{} // the page's own errors say why it is not there
	}
	if q == nil {
		return markdown.LinkTarget{Problem: fmt.Sprintf("link to %q: no such page (%s)", dest, file), Severity: diag.Error}
	}
	return markdown.LinkTarget{Path: q.URL, Fragment: frag, Self: q == l.sp, Href: l.href(q, suffix, rawFrag)}
}

// href is the link to page q with suffix (its query and fragment, as
// written), relative to the page; a fragment of the page itself alone.
func (l *linker) href(q *site.Page, suffix, rawFrag string) string {
	if q == l.sp && rawFrag != "" && !strings.HasPrefix(suffix, "?") {
		return "#" + rawFrag
	}
	return render.Link(l.sp.URL, q.URL+suffix, l.explicit)
}

// file is the link to the file at the site-absolute target.
func (l *linker) file(target string, abs bool, suffix, frag string) markdown.LinkTarget {
	t := markdown.LinkTarget{Path: target, Fragment: frag}
	if abs {
		t.Href = render.Link(l.sp.URL, target+suffix, l.explicit)
	}
	return t
}

// page finds the page at target, also written without its folder's
// trailing slash or with its index.html.
func (l *linker) page(target string) *site.Page {
	if q := l.st.ByURL(target); q != nil {
		return q
	}
	if f, ok := strings.CutSuffix(target, "/index.html"); ok {
		return l.st.ByURL(f + "/")
	}
	if !strings.HasSuffix(target, "/") {
		return l.st.ByURL(target + "/")
	}
	return nil
}

func (l *linker) first() string {
	if len(l.st.Langs) == 0 {
		return ""
	}
	return l.st.Langs[0]
}

// external reports whether dest names another site: a scheme ("https:",
// "mailto:") or a host ("//example.org").
func external(dest string) bool {
	if strings.HasPrefix(dest, "//") {
		return true
	}
	for i := 0; i < len(dest); i++ {
		c := dest[i]
		switch {
		case c == ':':
			return i > 0
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

// dir is the folder of the page at the site-absolute url, with its
// trailing slash.
func dir(url string) string {
	return url[:strings.LastIndexByte(url, '/')+1]
}

// join is the site-absolute path of name relative to the folder d,
// keeping a folder's trailing slash ("../02-x/", "..").
func join(d, name string) string {
	j := path.Join(d, name)
	if j != "/" && (strings.HasSuffix(name, "/") || name == "." || name == ".." || strings.HasSuffix(name, "/.") || strings.HasSuffix(name, "/..")) {
		j += "/"
	}
	return j
}
