// Package site is the resolve stage: it turns loaded content into the set of
// pages the site publishes, with their URLs, translations, series parts and
// neighbours, and runs the whole-site checks (parts missing from the series
// file, planned parts that have pages, missing translations, URL
// collisions, also of names and URLs that differ only in case or Unicode
// normalization, aliases that name a page, pages without a title). It
// renders nothing. The rule for each single name is source.CheckSegment.
// A Resolver resolves a site again as its content is edited, taking the
// last site again when only pages' bodies changed.
package site

import (
	"path"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Kind is what a page is. Its values are the words templates compare
// .Kind with ({{if eq .Kind "article"}}); render uses the same type.
type Kind string

// Page kinds.
const (
	KindArticle  Kind = "article" // one part of a series
	KindHome     Kind = "home"    // /ja/, /ko/
	KindSeries   Kind = "series"  // /ja/cka/: the series index
	KindSection  Kind = "section" // a page of its own outside a series
	KindRoot     Kind = "root"    // /: sends the reader to their language
	KindNotFound Kind = "404"     // /404.html
	KindTags     Kind = "tags"    // /ja/tags/: every tag of a language
	KindTag      Kind = "tag"     // /ja/tags/kubernetes/: the articles with one tag
	// KindUntranslated stands, in a language, for a page written in
	// another language only: /ko/cka/07-x/ says that part #7 is not
	// translated yet and links to the original (Page.Original).
	KindUntranslated Kind = "untranslated"
)

// TagsDir is the folder under each language that holds the tag pages.
const TagsDir = "tags"

// Page is one published page.
type Page struct {
	Kind   Kind
	Lang   string       // "" for the root page
	URL    string       // site-absolute path: "/ja/cka/05-ha-cluster/", "/404.html"
	Source *source.Page // nil for generated pages
	Series *source.Series
	Part   int
	Tag    *Tag // the tag of a tag page; nil on any other
	// Key pairs translations: the same for a page in every language.
	Key string
	// Translations maps each language to that language's version,
	// this page included.
	Translations map[string]*Page
	// Bundle is the folder of a page folder's index.md under the content
	// root ("ja/cka/03-scheduling"); "" for any other page.
	Bundle string
	// Original is, on a KindUntranslated page, the page it stands for:
	// the same page in the language it is written in.
	Original *Page
}

// OutPath is the file the page is written to, relative to the output root.
func (p *Page) OutPath() string {
	if strings.HasSuffix(p.URL, "/") {
		return strings.TrimPrefix(p.URL, "/") + "index.html"
	}
	return strings.TrimPrefix(p.URL, "/")
}

// Tag is one tag of one language, and the articles carrying it.
type Tag struct {
	Name  string  // as the first article (by URL) writes it
	Slug  string  // its URL segment, source.TagSlug
	URL   string  // "/ja/tags/kubernetes/"
	Pages []*Page // the articles, newest first, then by URL
}

// Alias is an old URL of a page, published as a redirect to it.
type Alias struct {
	URL  string // site-absolute: "/ja/old-name/", or "/ja/old.html"
	Page *Page
}

// OutPath is the file the redirect is written to, relative to the output
// root.
func (a Alias) OutPath() string { return (&Page{URL: a.URL}).OutPath() }

// Site is the resolved site.
type Site struct {
	Langs  []string
	Pages  []*Page // deterministic order: by URL
	Series []*source.Series
	// Aliases are the redirects of the pages' old URLs, by URL.
	Aliases []Alias
	// Files are the files of the page folders, published beside their
	// pages, by URL.
	Files []File
	files map[string]*File  // by language and path under it ("ja/cka/03-scheduling/diagram.png")
	tags  map[string][]*Tag // by language, by slug
	byURL map[string]*Page
	parts map[partKey]*Page
	// order lists each language's published part pages of a series in
	// part order; index is a page's place in it.
	order  map[string][]*Page
	index  map[*Page]int
	failed map[string]bool // Options.Failed

	// Glossary is the site's glossary, as Options gave it; nil without.
	Glossary []GlossaryEntry
}

type partKey struct {
	lang, series string
	n            int
}

// Options steer resolution.
type Options struct {
	Langs  []string // in order, first is the default
	Drafts bool     // publish pages marked draft
	// Glossary is the site's glossary (content/glossary.yaml); with
	// entries, each language gets its glossary page (KindGlossary).
	Glossary []GlossaryEntry
	// Failed are the content files that did not load, for their errors
	// (FailedFiles): a page's series or twin missing for want of one is
	// not reported again.
	Failed map[string]bool
}

// Resolve builds the site from loaded content, reporting every error and
// warning (a missing translation, a page without a title); a page in
// error is left out, or joins no series.
func Resolve(c *source.Content, opts Options) (*Site, diag.List) {
	s := &Site{Langs: opts.Langs, Series: c.Series, byURL: make(map[string]*Page, len(c.Pages)), parts: make(map[partKey]*Page, len(c.Pages)), failed: opts.Failed}
	var diags diag.List
	series := map[string]*source.Series{}
	for _, sr := range c.Series {
		if prev, dup := series[sr.ID]; dup {
			diags = append(diags, diag.File(sr.Path, "series %q is also defined in %s", sr.ID, prev.Path))
			continue
		}
		series[sr.ID] = sr
	}
	diags = append(diags, checkContentNames(c)...)
	add := func(p *Page, at *source.Page) {
		if prev, dup := s.byURL[p.URL]; dup {
			if sameSource(prev.Source, at) {
				return // names that collide: reported by checkContentNames
			}
			where := "a generated page"
			if prev.Source != nil {
				where = prev.Source.Path
			}
			off := 0
			if at.Meta.Slug != "" {
				off = at.Meta.Pos["slug"].Off
			}
			diags = append(diags, diag.At(at.Path, at.Src, off, "page URL %s is already taken by %s", p.URL, where))
			return
		}
		s.byURL[p.URL] = p
		s.Pages = append(s.Pages, p)
	}
	sections := map[string]bool{} // "ja/cka" folders holding an _index.md
	for _, sp := range c.Pages {
		if sp.Meta.Draft && !opts.Drafts {
			continue
		}
		dir, file := path.Split(sp.Rel)
		dir = strings.TrimSuffix(dir, "/")
		p := &Page{Lang: sp.Lang, Source: sp}
		if file == "_index.md" {
			p.Key = dir + "/"
			p.URL = "/" + path.Join(sp.Lang, dir) + "/"
			p.Kind = KindSection
			if dir == "" {
				p.URL, p.Kind = "/"+sp.Lang+"/", KindHome
			} else if sr := series[dir]; sr != nil {
				p.Kind, p.Series = KindSeries, sr
			} else if dir == TagsDir {
				p.Kind = KindTags
			}
			if sp.Meta.Slug != "" {
				diags = append(diags, posDiag(sp, "slug", "front matter field \"slug\" has no effect on an _index.md: the folder's name is its URL").AsWarning())
			}
			sections[sp.Lang+"/"+dir] = true
			add(p, sp)
			continue
		}
		if file == source.BundleIndex {
			if dir == "" {
				diags = append(diags, diag.File(sp.Path, "a page folder's index.md cannot be at the top of a language folder: the home page is _index.md"))
				continue
			}
			// A page folder: the page is named by its folder, as a
			// file of that name would be.
			p.Bundle = path.Join(sp.Lang, dir)
			dir, file = path.Dir(dir), path.Base(dir)+".md"
			if dir == "." {
				dir = ""
			}
		}
		slug := strings.TrimSuffix(file, ".md")
		p.Key = path.Join(dir, slug) // translations pair by file, whatever their slugs
		if sp.Meta.Slug != "" {
			slug = sp.Meta.Slug
		}
		p.URL = "/" + path.Join(sp.Lang, dir, slug) + "/"
		p.Kind = KindArticle
		diags = append(diags, s.joinSeries(p, sp, dir, series)...)
		add(p, sp)
	}
	s.addGeneratedPages(opts.Langs, c.Series, sections)
	diags = append(diags, s.addTags(opts.Langs, sections)...)
	diags = append(diags, s.addAliases()...)
	diags = append(diags, s.addFiles(c)...)
	diags = append(diags, s.addGlossary(opts.Langs, opts.Glossary)...)

	slices.SortFunc(s.Pages, byURL) // URLs are unique
	s.pairTranslations()
	s.addUntranslated()
	diags = append(append(diags, s.checkURLCase()...), s.checkTitles()...)
	s.orderParts()
	diags = append(diags, s.checkSeries(series)...)
	return s, diags
}

// addGeneratedPages adds a series index per language where no _index.md
// exists, a home per language likewise, the root and the 404.
func (s *Site) addGeneratedPages(langs []string, series []*source.Series, sections map[string]bool) {
	for _, lang := range langs {
		if !sections[lang+"/"] {
			s.addGenerated(&Page{Kind: KindHome, Lang: lang, URL: "/" + lang + "/", Key: "/"})
		}
		for _, sr := range series {
			if !sections[lang+"/"+sr.ID] {
				s.addGenerated(&Page{Kind: KindSeries, Lang: lang, URL: "/" + lang + "/" + sr.ID + "/", Key: sr.ID + "/", Series: sr})
			}
		}
	}
	s.addGenerated(&Page{Kind: KindRoot, URL: "/", Key: ""})
	s.addGenerated(&Page{Kind: KindNotFound, URL: "/404.html", Key: "404"})
}

// joinSeries puts the article p (from sp, in folder dir) into its series
// and part, checking that the series lists the part as published and
// that no other page of the language holds it.
func (s *Site) joinSeries(p *Page, sp *source.Page, dir string, series map[string]*source.Series) diag.List {
	var diags diag.List
	if id := seriesOf(sp, dir); id != "" {
		sr := series[id]
		switch {
		case sr == nil && s.seriesFailed(sp):
			// Its series file may be the one that did not load.
		case sr == nil:
			diags = append(diags, fieldDiag(sp, "series", "series %q has no series file (content/%s/%s.yaml)", id, source.SeriesDir, id))
		case sp.Meta.Part == 0:
			diags = append(diags, diag.At(sp.Path, sp.Src, 0, "page is in series %q but has no \"part\" in its front matter", id))
		default:
			part, ok := sr.Part(sp.Meta.Part)
			switch {
			case !ok:
				diags = append(diags, fieldDiag(sp, "part", "part %d is not in series %q (%s lists %s)", sp.Meta.Part, id, sr.Path, sr.Numbers()))
			case part.State != source.Published:
				diags = append(diags, fieldDiag(sp, "part", "part %d has a page but %s marks it %q: mark it published", sp.Meta.Part, sr.Path, part.State))
			default:
				k := partKey{sp.Lang, id, sp.Meta.Part}
				switch prev := s.parts[k]; {
				case prev == nil:
					p.Series, p.Part = sr, sp.Meta.Part
					s.parts[k] = p
				case !sameSource(prev.Source, sp): // colliding names are checkContentNames'
					diags = append(diags, fieldDiag(sp, "part", "part %d of %q in %s is also %s", sp.Meta.Part, id, sp.Lang, prev.Source.Path))
				}
			}
		}
	}
	return diags
}

// describePage names a page in messages: its file, or what it is.
func describePage(p *Page) string {
	if p.Source != nil {
		return p.Source.Path
	}
	if p.Original != nil && p.Original.Source != nil {
		return "the " + p.Lang + " page of " + p.Original.Source.Path + ", not translated yet"
	}
	return "the generated " + string(p.Kind) + " page"
}

// posDiag is a diagnostic at the value of the front matter field of sp.
func posDiag(sp *source.Page, field, format string, args ...any) diag.Diagnostic {
	return diag.At(sp.Path, sp.Src, sp.Meta.Pos[field].Off, format, args...)
}

func (s *Site) addGenerated(p *Page) {
	if s.byURL[p.URL] != nil {
		return
	}
	s.byURL[p.URL] = p
	s.Pages = append(s.Pages, p)
}

// seriesOf is the series a page belongs to: its front matter's, or the
// folder's when that folder is a series.
func seriesOf(sp *source.Page, dir string) string {
	if sp.Meta.Series != "" {
		return sp.Meta.Series
	}
	if sp.Meta.Part > 0 {
		return strings.SplitN(dir, "/", 2)[0]
	}
	return ""
}

// fieldDiag is a diagnostic at the name of the front matter field of sp,
// where the parser recorded it (source.FrontMatter.Pos), or at the start
// of the file when the page does not write the field (a part's series
// taken from its folder).
func fieldDiag(sp *source.Page, field, format string, args ...any) diag.Diagnostic {
	return diag.At(sp.Path, sp.Src, sp.Meta.Pos[field].Key, format, args...)
}

func (s *Site) pairTranslations() {
	groups := make(map[string]map[string]*Page, len(s.Pages)/max(len(s.Langs), 1))
	for _, p := range s.Pages {
		if p.Lang == "" {
			continue
		}
		if groups[p.Key] == nil {
			groups[p.Key] = map[string]*Page{}
		}
		groups[p.Key][p.Lang] = p
	}
	for _, p := range s.Pages {
		if p.Lang != "" {
			p.Translations = groups[p.Key]
		}
	}
}

// addUntranslated gives a page written in some languages only a
// KindUntranslated page in each of the others, at the URL its language
// switcher leads to: its own URL with the language changed. The page
// stands for the original (the page in the site's first language that has
// one), and joins the translations' group, so that switchers lead to it.
func (s *Site) addUntranslated() {
	var add []*Page
	for _, p := range s.Pages {
		if p.Source == nil || p.Kind != KindArticle {
			continue
		}
		orig := s.original(p)
		if orig != p {
			continue // one stand-in per group, made from its original
		}
		for _, lang := range s.Langs {
			if p.Translations[lang] != nil {
				continue
			}
			u := "/" + lang + strings.TrimPrefix(p.URL, "/"+p.Lang)
			if s.byURL[u] != nil {
				continue // taken: the switcher leads to the home page, as before
			}
			q := &Page{Kind: KindUntranslated, Lang: lang, URL: u, Key: p.Key, Series: p.Series, Part: p.Part,
				Translations: p.Translations, Original: p}
			s.byURL[u] = q
			add = append(add, q)
		}
	}
	for _, q := range add {
		q.Translations[q.Lang] = q
	}
	s.Pages = append(s.Pages, add...)
	slices.SortFunc(s.Pages, byURL) // each URL taken once
}

// byURL orders pages by URL.
func byURL(p, q *Page) int { return strings.Compare(p.URL, q.URL) }

// original is the page of p's group that the others translate: the one
// in the language a page's translationOf names, else the one in the first
// of the site's languages that has one (package translation checks the
// fields).
func (s *Site) original(p *Page) *Page {
	for _, l := range s.Langs {
		if q := p.Translations[l]; q != nil && q.Source != nil && q.Source.Meta.TranslationOf != "" {
			if o := p.Translations[q.Source.Meta.TranslationOf]; o != nil && o.Source != nil {
				return o
			}
		}
	}
	for _, l := range s.Langs {
		if q := p.Translations[l]; q != nil && q.Kind != KindUntranslated {
			return q
		}
	}
	return p
}

// Original is the page the translations of p's group are made from: on
// a KindUntranslated page, the page it stands for; else the page in the
// language a translation's translationOf names, or the page in the first
// of the site's languages that has one (see addUntranslated); p itself
// when it is that page, or when p has no group.
func (s *Site) Original(p *Page) *Page {
	if p.Original != nil {
		return p.Original
	}
	if p.Translations == nil {
		return p
	}
	return s.original(p)
}

// checkSeries warns about published parts missing in a language.
func (s *Site) checkSeries(series map[string]*source.Series) diag.List {
	var diags diag.List
	for _, sr := range s.Series {
		if series[sr.ID] != sr {
			continue
		}
		for _, part := range sr.Parts {
			for _, lang := range s.Langs {
				if part.Title[lang] == "" {
					diags = append(diags, diag.At(sr.Path, sr.Src, part.Off, "part #%d has no %s title", part.Number, lang))
				}
				if part.State == source.Published && s.parts[partKey{lang, sr.ID, part.Number}] == nil && !s.failedPart(sr, part.Number, lang) {
					diags = append(diags, diag.At(sr.Path, sr.Src, part.Off, "part #%d is published but has no %s page", part.Number, lang).AsWarning())
				}
			}
		}
	}
	return diags
}

// failedPart reports whether the page of part n of sr in lang may be a
// file that did not load: the twin of the part's page in another
// language, or a file of the series' folder named by the part's number.
func (s *Site) failedPart(sr *source.Series, n int, lang string) bool {
	if len(s.failed) == 0 {
		return false
	}
	for _, l := range s.Langs {
		if p := s.parts[partKey{l, sr.ID, n}]; p != nil && s.FailedTwin(p, lang) {
			return true
		}
	}
	return s.failedPartFile(sr, n, lang)
}

// ByURL finds a page by its URL.
func (s *Site) ByURL(u string) *Page { return s.byURL[u] }

// PartPage is the page of part n of series id in lang, or nil.
func (s *Site) PartPage(lang, id string, n int) *Page { return s.parts[partKey{lang, id, n}] }

// orderParts lists each series' published part pages per language in
// part order, for Neighbours.
func (s *Site) orderParts() {
	s.order, s.index = map[string][]*Page{}, make(map[*Page]int, len(s.parts))
	for _, sr := range s.Series {
		for _, lang := range s.Langs {
			k := lang + "/" + sr.ID
			for _, part := range sr.Parts {
				if q := s.parts[partKey{lang, sr.ID, part.Number}]; q != nil {
					s.index[q] = len(s.order[k])
					s.order[k] = append(s.order[k], q)
				}
			}
		}
	}
}

// PartPages are the pages of lang's published parts of the series id, in
// the order of the series file's parts: those with a page (PartPage).
// The caller must not change the list.
func (s *Site) PartPages(lang, id string) []*Page { return s.order[lang+"/"+id] }

// Neighbours returns the published parts before and after p in its
// series and language.
func (s *Site) Neighbours(p *Page) (prev, next *Page) {
	i, ok := s.index[p]
	if p.Series == nil || !ok {
		return nil, nil
	}
	list := s.order[p.Lang+"/"+p.Series.ID]
	if i > 0 {
		prev = list[i-1]
	}
	if i+1 < len(list) {
		next = list[i+1]
	}
	return prev, next
}

// Articles are the article pages of lang, newest first, then by URL.
func (s *Site) Articles(lang string) []*Page {
	var out []*Page
	for _, p := range s.Pages {
		if p.Kind == KindArticle && p.Lang == lang {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(p, q *Page) int {
		if a, b := p.Source.Meta.Date, q.Source.Meta.Date; !a.Equal(b) {
			return b.Compare(a) // newest first
		}
		return strings.Compare(p.URL, q.URL)
	})
	return out
}

// SourcePaths is the set of the source files of the site's pages.
func (s *Site) SourcePaths() map[string]bool {
	paths := make(map[string]bool, len(s.Pages))
	for _, p := range s.Pages {
		if p.Source != nil {
			paths[p.Source.Path] = true
		}
	}
	return paths
}
