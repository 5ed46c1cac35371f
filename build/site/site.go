// Package site is the resolve stage: it turns loaded content into the set of
// pages the site publishes, with their URLs, translations, series parts and
// neighbours, and runs the whole-site checks (parts missing from the series
// file, planned parts that have pages, missing translations, URL
// collisions). It renders nothing.
package site

import (
	"path"
	"sort"
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
)

// Page is one published page.
type Page struct {
	Kind   Kind
	Lang   string       // "" for the root page
	URL    string       // site-absolute path: "/ja/cka/05-ha-cluster/", "/404.html"
	Source *source.Page // nil for generated pages
	Series *source.Series
	Part   int
	// Key pairs translations: the same for a page in every language.
	Key string
	// Translations maps each language to that language's version,
	// this page included.
	Translations map[string]*Page
}

// OutPath is the file the page is written to, relative to the output root.
func (p *Page) OutPath() string {
	if strings.HasSuffix(p.URL, "/") {
		return strings.TrimPrefix(p.URL, "/") + "index.html"
	}
	return strings.TrimPrefix(p.URL, "/")
}

// Site is the resolved site.
type Site struct {
	Langs  []string
	Pages  []*Page // deterministic order: by URL
	Series []*source.Series
	byURL  map[string]*Page
	parts  map[partKey]*Page
	// order lists each language's published part pages of a series in
	// part order; index is a page's place in it.
	order map[string][]*Page
	index map[*Page]int
}

type partKey struct {
	lang, series string
	n            int
}

// Options steer resolution.
type Options struct {
	Langs  []string // in order, first is the default
	Drafts bool     // publish pages marked draft
}

// Resolve builds the site from loaded content. Errors stop the build;
// warnings (a missing translation) do not.
func Resolve(c *source.Content, opts Options) (*Site, diag.List) {
	s := &Site{Langs: opts.Langs, Series: c.Series, byURL: map[string]*Page{}, parts: map[partKey]*Page{}}
	var diags diag.List
	series := map[string]*source.Series{}
	for _, sr := range c.Series {
		if prev, dup := series[sr.ID]; dup {
			diags = append(diags, diag.File(sr.Path, "series %q is also defined in %s", sr.ID, prev.Path))
			continue
		}
		series[sr.ID] = sr
	}
	add := func(p *Page, at *source.Page) {
		if prev, dup := s.byURL[p.URL]; dup {
			where := "a generated page"
			if prev.Source != nil {
				where = prev.Source.Path
			}
			diags = append(diags, diag.At(at.Path, at.Src, 0, "page URL %s is already taken by %s", p.URL, where))
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
			}
			sections[sp.Lang+"/"+dir] = true
			add(p, sp)
			continue
		}
		slug := strings.TrimSuffix(file, ".md")
		p.Key = path.Join(dir, slug)
		p.URL = "/" + path.Join(sp.Lang, dir, slug) + "/"
		p.Kind = KindArticle
		if id := seriesOf(sp, dir); id != "" {
			sr := series[id]
			switch {
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
					if prev := s.parts[k]; prev != nil {
						diags = append(diags, fieldDiag(sp, "part", "part %d of %q in %s is also %s", sp.Meta.Part, id, sp.Lang, prev.Source.Path))
					} else {
						p.Series, p.Part = sr, sp.Meta.Part
						s.parts[k] = p
					}
				}
			}
		}
		add(p, sp)
	}
	// Generated pages: a series index per language where no _index.md
	// exists, a home per language likewise, the root and the 404.
	for _, lang := range opts.Langs {
		if !sections[lang+"/"] {
			s.addGenerated(&Page{Kind: KindHome, Lang: lang, URL: "/" + lang + "/", Key: "/"})
		}
		for _, sr := range c.Series {
			if !sections[lang+"/"+sr.ID] {
				s.addGenerated(&Page{Kind: KindSeries, Lang: lang, URL: "/" + lang + "/" + sr.ID + "/", Key: sr.ID + "/", Series: sr})
			}
		}
	}
	s.addGenerated(&Page{Kind: KindRoot, URL: "/", Key: ""})
	s.addGenerated(&Page{Kind: KindNotFound, URL: "/404.html", Key: "404"})

	sort.Slice(s.Pages, func(i, j int) bool { return s.Pages[i].URL < s.Pages[j].URL })
	s.pairTranslations()
	s.orderParts()
	diags = append(diags, s.checkSeries(series)...)
	return s, diags
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

// fieldDiag points at a front matter field's line when it can be found.
func fieldDiag(sp *source.Page, field, format string, args ...any) diag.Diagnostic {
	off := 0
	head := string(sp.Src[:sp.BodyStart])
	for _, prefix := range []string{"\n" + field + ":", "\n" + field + " =", "\n" + field + "="} {
		if i := strings.Index(head, prefix); i >= 0 {
			off = i + 1
			break
		}
	}
	return diag.At(sp.Path, sp.Src, off, format, args...)
}

func (s *Site) pairTranslations() {
	groups := map[string]map[string]*Page{}
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
				if part.State == source.Published && s.parts[partKey{lang, sr.ID, part.Number}] == nil {
					diags = append(diags, diag.At(sr.Path, sr.Src, part.Off, "part #%d is published but has no %s page", part.Number, lang).AsWarning())
				}
			}
		}
	}
	return diags
}

// ByURL finds a page by its URL.
func (s *Site) ByURL(u string) *Page { return s.byURL[u] }

// PartPage is the page of part n of series id in lang, or nil.
func (s *Site) PartPage(lang, id string, n int) *Page { return s.parts[partKey{lang, id, n}] }

// orderParts lists each series' published part pages per language in
// part order, for Neighbours.
func (s *Site) orderParts() {
	s.order, s.index = map[string][]*Page{}, map[*Page]int{}
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
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Source.Meta.Date, out[j].Source.Meta.Date
		if !a.Equal(b) {
			return a.After(b)
		}
		return out[i].URL < out[j].URL
	})
	return out
}
