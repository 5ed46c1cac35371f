package hugoimport

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// markdownExts are the extensions of the markdown pages Hugo reads.
var markdownExts = []string{".md", ".markdown", ".mdown", ".mkdn", ".mkd"}

// otherContentExts are the extensions of the pages Hugo renders with
// other markups, which kakehashi does not read.
var otherContentExts = []string{".html", ".htm", ".org", ".adoc", ".asciidoc", ".ad", ".rst", ".pandoc", ".pdc", ".ipynb"}

// hfile is one file of a content folder.
type hfile struct {
	src  string // from the Hugo site's root: "content/course/one.ko.md"
	rel  string // under its content folder: "course/one.ko.md"
	dir  string // its folder under the content folder: "course"
	base string // its name without language and extension: "one"
	ext  string // ".md"; "" for a file without one
	// lang is the file's language: its suffix's (one.ko.md), else its
	// content folder's; "" for a file that every language of a shared
	// content folder shares (a bundle's image).
	lang string
	size int64
}

// hpage is one markdown page of the Hugo site.
type hpage struct {
	hfile
	lang   string
	branch bool   // an _index.md: a home or a section's page
	bundle string // a leaf bundle's folder under the content folder; "" for a plain file
	dir    string // the page's folder under the content folder (a bundle's parent)
	name   string // the page's name: its file's base, a bundle's folder name
	text   []byte // the whole file
	fm     *doc   // its front matter; nil for none
	format string // of the front matter
	body   int    // where the body starts in text

	title, slug, url, translationKey string
	weight                           int
	date                             time.Time
	draft                            bool

	group *group
}

// isHome tells whether the page is a language's home page.
func (p *hpage) isHome() bool { return p.branch && p.dir == "" }

// group is a page and its translations: the pages of one translation
// key, one per language.
type group struct {
	key    string
	pages  map[string]*hpage // by language
	branch bool
	dir    string // the Hugo folder of its first page
	// out is the group's path under each language folder of the kakehashi
	// site, without the extension: "course/01-one" (a page folder's
	// "/index" is added per page); "course" for a section.
	out    string
	part   int
	series *hseries
	files  map[string]string // the kakehashi page's file in each language
}

// first is the group's page in the first of the site's languages that
// has one.
func (g *group) first(langs []string) *hpage {
	for _, l := range langs {
		if p := g.pages[l]; p != nil {
			return p
		}
	}
	return nil
}

// resource is a file of a leaf bundle, or a file of a content folder
// outside any (a branch bundle's).
type resource struct {
	hfile
	bundle string // the leaf bundle's folder under the content folder; "" outside bundles
	under  string // its path under the bundle's folder (or the content folder)
}

// hseries is a section that becomes a series.
type hseries struct {
	id      string
	section string // its Hugo folder
	groups  []*group
	index   *group // the section's _index.md pages, if any
	byDate  bool   // ordered by date: no page has a weight
}

// contentSet is what the importer found in the content folders.
type contentSet struct {
	pages     []*hpage
	resources []*resource
	groups    []*group
	series    []*hseries
}

// scanContent reads every content folder of the site: the pages, with
// their front matter, and the other files, each given its language.
func (cv *converter) scanContent(ctx context.Context) (*contentSet, diag.List, error) {
	c := cv.cfg
	dirLangs := map[string][]string{} // content folder → its languages, in the site's order
	var dirs []string
	for _, l := range c.langs {
		if _, ok := dirLangs[l.contentDir]; !ok {
			dirs = append(dirs, l.contentDir)
		}
		dirLangs[l.contentDir] = append(dirLangs[l.contentDir], l.code)
	}
	set := &contentSet{}
	var diags diag.List
	for _, dir := range dirs {
		files, bad, err := walkFiles(ctx, cv.src, dir)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range bad {
			cv.report.addAt(NotConverted, dir, 0, 0, "%v", e)
		}
		langs := dirLangs[dir]
		var hfiles []hfile
		leaves := map[string]bool{} // leaf bundle folders
		for _, f := range files {
			h := cv.classify(dir, f, langs)
			hfiles = append(hfiles, h)
			if h.base == "index" && slices.Contains(markdownExts, h.ext) {
				leaves[h.dir] = true
			}
		}
		for _, h := range hfiles {
			bundle := bundleOf(h.dir, leaves)
			isMarkdown := slices.Contains(markdownExts, h.ext)
			switch {
			case isMarkdown && (bundle == "" || bundle == h.dir && h.base == "index"):
				if h.lang == "" {
					h.lang = langs[0]
				}
				p, d := cv.readPage(h, bundle)
				if d != nil {
					diags = append(diags, *d)
					continue
				}
				set.pages = append(set.pages, p)
			case isMarkdown:
				cv.report.addAt(NotConverted, h.src, 0, 0, "a markdown file inside the page bundle %s is a resource in Hugo; a kakehashi page folder holds one page, index.md: not copied", path.Join(dir, bundle))
			case slices.Contains(otherContentExts, h.ext) && bundle == "":
				cv.report.addAt(NotConverted, h.src, 0, 0, "a %s page: kakehashi reads markdown pages only", strings.TrimPrefix(h.ext, "."))
			default:
				under := h.rel
				if bundle != "" {
					under = strings.TrimPrefix(h.rel, bundle+"/")
				}
				set.resources = append(set.resources, &resource{hfile: h, bundle: bundle, under: under})
			}
		}
	}
	return set, diags, nil
}

// bundleOf is the leaf bundle folder holding the folder dir (or dir
// itself), "" when none does.
func bundleOf(dir string, leaves map[string]bool) string {
	for d := dir; d != "" && d != "."; d = path.Dir(d) {
		if leaves[d] {
			return d
		}
		if !strings.Contains(d, "/") {
			break
		}
	}
	return ""
}

// classify names a file of the content folder dir, whose languages are
// langs: its folder, base name, extension and language.
func (cv *converter) classify(dir string, f found, langs []string) hfile {
	h := hfile{src: f.path, rel: f.rel, size: f.size}
	h.dir = path.Dir(f.rel)
	if h.dir == "." {
		h.dir = ""
	}
	name := path.Base(f.rel)
	h.ext = path.Ext(name)
	h.base = strings.TrimSuffix(name, h.ext)
	if i := strings.LastIndex(h.base, "."); i > 0 && cv.cfg.hasLang(strings.ToLower(h.base[i+1:])) {
		h.lang = strings.ToLower(h.base[i+1:])
		h.base = h.base[:i]
	}
	isPage := slices.Contains(markdownExts, h.ext)
	switch {
	case h.lang != "":
	case len(langs) == 1:
		h.lang = langs[0]
	case isPage && slices.Contains(langs, cv.cfg.defaultLang):
		h.lang = cv.cfg.defaultLang
	case isPage:
		h.lang = langs[0]
	}
	return h
}

// readPage reads a markdown page and its front matter.
func (cv *converter) readPage(h hfile, bundle string) (*hpage, *diag.Diagnostic) {
	text, err := readFile(cv.src, h.src)
	if err != nil {
		d := diag.File(h.src, "%v", err)
		return nil, &d
	}
	p := &hpage{hfile: h, lang: h.lang, text: text, bundle: bundle}
	p.branch = h.base == "_index"
	p.dir, p.name = h.dir, h.base
	if bundle != "" {
		p.dir, p.name = path.Dir(bundle), path.Base(bundle)
		if p.dir == "." {
			p.dir = ""
		}
	}
	fm, start, end, format, d := splitFrontMatter(h.src, text)
	if d != nil {
		return nil, d
	}
	p.body, p.format = end, format
	if format != "" {
		doc, d := decodeDoc(h.src, text, fm, start, format)
		if d != nil {
			return nil, d
		}
		p.fm = doc
	}
	cv.readFields(p)
	return p, nil
}

// readFields reads the front matter fields that decide a page's place:
// its title, slug, url, translation key, weight, date and draft.
func (cv *converter) readFields(p *hpage) {
	if p.fm == nil {
		return
	}
	get := func(k string) any { v, _ := lookup(p.fm.vals, k); return v }
	p.title, _ = scalarString(get("title"))
	p.slug, _ = scalarString(get("slug"))
	p.url, _ = scalarString(get("url"))
	p.translationKey, _ = scalarString(get("translationkey"))
	p.weight, _ = asInt(get("weight"))
	for _, k := range []string{"date", "publishdate", "pubdate", "published"} {
		if t, _, ok := parseHugoDate(get(k)); ok {
			p.date = t
			break
		}
	}
	if b, ok := get("draft").(bool); ok {
		p.draft = b
	}
}

// groupPages pairs the pages into translation groups, by translation
// key, else by kind and path, as Hugo pairs them.
func (cv *converter) groupPages(set *contentSet) {
	byKey := map[string]*group{}
	langs := cv.cfg.codes()
	sort.SliceStable(set.pages, func(i, j int) bool {
		a, b := set.pages[i], set.pages[j]
		if a.rel != b.rel {
			return a.rel < b.rel
		}
		return slices.Index(langs, a.lang) < slices.Index(langs, b.lang)
	})
	for _, p := range set.pages {
		key := "page:" + path.Join(p.dir, p.name)
		if p.branch {
			key = "section:" + p.dir
		}
		if p.translationKey != "" && !p.branch {
			key = "key:" + p.translationKey
		}
		g := byKey[key]
		if g == nil {
			g = &group{key: key, pages: map[string]*hpage{}, branch: p.branch, dir: p.dir}
			byKey[key] = g
			set.groups = append(set.groups, g)
		}
		if prev := g.pages[p.lang]; prev != nil {
			cv.report.addAt(NotConverted, p.src, 0, 0, "%s is also the %s page of %s: only that one is imported", p.src, p.lang, prev.src)
			continue
		}
		g.pages[p.lang] = p
		p.group = g
	}
}

// findSeries makes a series of each section (a folder at the top of the
// content) whose pages have a weight or, if none has, a date: its parts
// are its pages (and page bundles) in that order.
func (cv *converter) findSeries(set *contentSet) {
	langs := cv.cfg.codes()
	sections := map[string]*hseries{}
	var order []string
	for _, g := range set.groups {
		p := g.first(langs)
		if g.dir == "" || strings.Contains(g.dir, "/") {
			continue
		}
		s := sections[g.dir]
		if s == nil {
			s = &hseries{section: g.dir}
			sections[g.dir] = s
			order = append(order, g.dir)
		}
		if p.branch {
			s.index = g
			continue
		}
		s.groups = append(s.groups, g)
	}
	for _, name := range order {
		s := sections[name]
		weighted, dated := false, false
		for _, g := range s.groups {
			for _, p := range g.pages {
				weighted = weighted || p.weight != 0
				dated = dated || !p.date.IsZero()
			}
		}
		if len(s.groups) == 0 || !weighted && !dated {
			continue
		}
		s.id = cv.cfg.kakehashiName(name)
		if s.id == "" || s.id == "tags" || s.id == "series" {
			continue
		}
		s.byDate = !weighted
		// Hugo's order: weight (none last), then date; a part comes
		// after the parts published before it.
		key := func(g *group) *hpage { return g.first(langs) }
		sort.SliceStable(s.groups, func(i, j int) bool {
			a, b := key(s.groups[i]), key(s.groups[j])
			if (a.weight == 0) != (b.weight == 0) {
				return a.weight != 0
			}
			if a.weight != b.weight {
				return a.weight < b.weight
			}
			if !a.date.Equal(b.date) {
				return a.date.Before(b.date)
			}
			if a.title != b.title {
				return a.title < b.title
			}
			return a.name < b.name
		})
		for i, g := range s.groups {
			g.part, g.series = i+1, s
		}
		set.series = append(set.series, s)
	}
}

// numberedName is a part's file name: its number, as wide as the
// series' widest (two digits at least), and its name without a number
// it had ("01-intro" is "intro").
func numberedName(n, total int, name string) string {
	width := max(2, len(fmt.Sprint(total)))
	if i := strings.IndexByte(name, '-'); i > 0 && strings.Trim(name[:i], "0123456789") == "" && i < len(name)-1 {
		name = name[i+1:]
	}
	return fmt.Sprintf("%0*d-%s", width, n, name)
}

// place works out each group's path in the kakehashi site: the folders
// of its Hugo path as kakehashi names, its name numbered when it is a
// part. A name that is left empty, or that another group of the folder
// has, is reported and the group is not imported.
func (cv *converter) place(set *contentSet) {
	langs := cv.cfg.codes()
	taken := map[string]*group{}
	var kept []*group
	for _, g := range set.groups {
		p := g.first(langs)
		var segs []string
		ok := true
		for _, s := range strings.Split(g.dir, "/") {
			if s == "" {
				continue
			}
			n := cv.cfg.kakehashiName(s)
			if n == "" {
				ok = false
			}
			segs = append(segs, n)
		}
		dir := strings.Join(segs, "/")
		if g.series != nil {
			dir = g.series.id
		}
		switch {
		case !ok:
			cv.report.addAt(NotConverted, p.src, 0, 0, "the folder %q cannot be a kakehashi folder name, as no URL segment can hold it: not imported", g.dir)
			continue
		case g.branch:
			g.out = dir
		default:
			name := cv.cfg.kakehashiName(p.name)
			if name == "" {
				cv.report.addAt(NotConverted, p.src, 0, 0, "the name %q cannot be a kakehashi file name, as no URL segment can hold it: not imported", p.name)
				continue
			}
			if g.series != nil {
				name = numberedName(g.part, len(g.series.groups), name)
			}
			g.out = path.Join(dir, name)
		}
		k := strings.ToLower(g.out)
		if g.branch {
			k += "/_index"
		}
		if prev := taken[k]; prev != nil {
			cv.report.addAt(NotConverted, p.src, 0, 0, "its kakehashi name %s is also that of %s: not imported", g.out, prev.first(langs).src)
			continue
		}
		taken[k] = g
		kept = append(kept, g)
	}
	set.groups = kept
}
