package site

import (
	"bytes"
	"path"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// foldName is the form in which two names or URLs are the same file on a
// case-insensitive file system (macOS, Windows) or server, or after
// Unicode normalization (macOS writes names decomposed, NFD): NFC, then
// lowercased. Two names with the same foldName collide.
func foldName(s string) string { return strings.ToLower(norm.NFC.String(s)) }

// checkContentNames reports every two content files or folders, in the
// same folder, whose names differ only in case or in Unicode
// normalization (Intro.md and intro.md; ガ written composed and
// decomposed): one file on a case-insensitive file system, and URLs that
// collide. Each such pair is an error at the second name (the decomposed
// one, if one is), naming the first; a pair of files inside two such
// folders is the folders' error only.
func checkContentNames(c *source.Content) diag.List {
	paths := make([]string, 0, len(c.Pages)+len(c.Series)+len(c.Files))
	for _, p := range c.Pages {
		paths = append(paths, p.Path)
	}
	for _, sr := range c.Series {
		paths = append(paths, sr.Path)
	}
	for _, f := range c.Files {
		paths = append(paths, f.Path)
	}
	folder := map[string]bool{}
	seen := make(map[string]bool, len(paths))
	// The first spelling of each folded name, and the distinct spellings
	// of those that have more than one.
	spelled := make(map[string]string, len(paths))
	byFold := map[string][]string{}
	note := func(p string) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		k := foldName(p)
		switch q, ok := spelled[k]; {
		case !ok:
			spelled[k] = p
		case byFold[k] == nil:
			byFold[k] = []string{q, p}
		default:
			byFold[k] = append(byFold[k], p)
		}
		return true
	}
	for _, p := range paths {
		note(p)
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			folder[d] = true
			if !note(d) {
				break // and the folders above it, noted with it
			}
		}
	}
	var diags diag.List
	for _, names := range byFold {
		sort.Strings(names)
		first := map[string]string{} // the first spelling in each folder
		for _, p := range names {
			dir := path.Dir(p)
			q, ok := first[dir]
			if !ok {
				first[dir] = p
				continue
			}
			// Only names of one folder are compared: spellings in two
			// folders are the folders' pair, reported for them.
			at, other := p, q
			if norm.NFC.IsNormalString(p) && !norm.NFC.IsNormalString(q) {
				at, other = q, p
			}
			what := "file"
			if folder[at] {
				what = "folder"
			}
			diags = append(diags, diag.File(at, "the name of this %s differs only %s from %s: on a case-insensitive or normalizing file system (macOS, Windows) the two are one, and their URLs collide; rename one",
				what, howDiffer(at, other), other))
		}
	}
	diags.Sort()
	return diags
}

// howDiffer says how two names with the same foldName differ.
func howDiffer(a, b string) string {
	switch {
	case norm.NFC.String(a) == norm.NFC.String(b):
		d := "in its Unicode normalization"
		if !norm.NFC.IsNormalString(a) {
			d += " (this one is decomposed, NFD: write it composed, NFC)"
		}
		return d
	case strings.ToLower(a) == strings.ToLower(b):
		return "in case"
	}
	return "in case and Unicode normalization"
}

// sameSource reports whether two pages come from files whose names
// collide (checkContentNames reported them), so that no other message
// reports the pair again.
func sameSource(a, b *source.Page) bool {
	return a != nil && b != nil && a != b && foldName(a.Path) == foldName(b.Path)
}

// urlClaim is one URL the site publishes something at, for
// checkURLCase.
type urlClaim struct {
	url  string
	page *Page  // the page published at url; nil for an alias or a file
	what string // "page URL", "alias", "file URL"
	src  string // the source file it comes from; "" for a generated page
	set  bool   // the front matter sets it (a slug, an alias): reported first
	// alias is the file of the page an alias is of, off the alias's
	// offset in it; nil for a page or a file.
	alias *source.Page
	off   int
}

// desc is how a message about another claim names this one.
func (c *urlClaim) desc() string {
	switch {
	case c.page != nil:
		return "the URL of " + describePage(c.page)
	case c.alias != nil:
		return "an alias of " + c.src
	}
	return "the URL of " + c.src
}

// at is the error of this claim; false for a generated page, which has
// no file to report at.
func (c *urlClaim) at(format string, args ...any) (diag.Diagnostic, bool) {
	switch {
	case c.alias != nil:
		return diag.At(c.alias.Path, c.alias.Src, c.off, format, args...), true
	case c.page == nil:
		return diag.File(c.src, format, args...), true
	case c.page.Source == nil:
		return diag.Diagnostic{}, false
	case c.page.Source.Meta.Slug != "":
		return posDiag(c.page.Source, "slug", format, args...), true
	}
	return diag.File(c.page.Source.Path, format, args...), true
}

// checkURLCase reports every two URLs of the site (of pages, aliases and
// page folder files) that differ only in case: a case-insensitive file
// system or server holds one of them. Each pair is an error at the one
// the front matter sets (a slug, an alias), else at the one with a source
// file, the later by URL when both have one, naming the other. Pairs from names that collide already (checkContentNames) are
// left to that message.
func (s *Site) checkURLCase() diag.List {
	claims := make([]urlClaim, 0, len(s.Pages)+len(s.Aliases)+len(s.Files))
	for _, p := range s.Pages {
		c := urlClaim{url: p.URL, page: p, what: "page URL"}
		if sp := p.Source; sp != nil {
			c.src, c.set = sp.Path, sp.Meta.Slug != ""
		}
		claims = append(claims, c)
	}
	for _, a := range s.Aliases {
		sp, i := a.Page.Source, 0
		for j, x := range sp.Meta.Aliases {
			if AliasURL(a.Page.URL, x) == a.URL {
				i = j
				break
			}
		}
		claims = append(claims, urlClaim{url: a.URL, what: "alias", src: sp.Path, set: true, alias: sp, off: sp.Meta.Pos["aliases"].Item(i)})
	}
	for _, f := range s.Files {
		claims = append(claims, urlClaim{url: f.URL, what: "file URL", src: f.Source.Path})
	}
	slices.SortStableFunc(claims, func(a, b urlClaim) int { return strings.Compare(a.url, b.url) })
	var diags diag.List
	first := map[string]int{}
	for i := range claims {
		c := &claims[i]
		k := foldName(c.url)
		j, ok := first[k]
		if !ok {
			first[k] = i
			continue
		}
		o := &claims[j]
		if o.url == c.url || c.src != "" && o.src != "" && foldName(c.src) == foldName(o.src) || mirrored(c.page, o.page) || mirrored(o.page, c.page) {
			continue // the same URL twice, or colliding names: reported already
		}
		if c.page != nil && c.page.Source == nil || o.set && !c.set {
			c, o = o, c
		}
		d, ok := c.at("%s %s differs only in case from %s, %s: on a case-insensitive file system or server the two are one; change one",
			c.what, c.url, o.url, o.desc())
		if !ok {
			continue // two generated pages: their names come from files reported already
		}
		diags = append(diags, d)
	}
	return diags
}

// mirrored reports whether the page q, standing for a page not translated
// yet, collides with the page r only because their originals collide: r
// has a page of its own in the original's language, where the pair is
// reported.
func mirrored(q, r *Page) bool {
	if q == nil || r == nil || q.Kind != KindUntranslated || q.Original == nil || r.Translations == nil {
		return false
	}
	t := r.Translations[q.Original.Lang]
	return t != nil && t.Kind != KindUntranslated
}

// checkTitles warns about each article and section page without a title:
// its page and every listing of it would show none (the empty file a
// failed kakehashi new part leaves is one). A home, series or tags page
// has its title from the site, the series file or the UI strings.
func (s *Site) checkTitles() diag.List {
	var diags diag.List
	for _, p := range s.Pages {
		sp := p.Source
		if sp == nil || sp.Meta.Title != "" || p.Kind != KindArticle && p.Kind != KindSection {
			continue
		}
		var d diag.Diagnostic
		switch _, set := sp.Meta.Pos["title"]; {
		case set:
			d = posDiag(sp, "title", "front matter field \"title\" is empty: the page has no title")
		case len(bytes.TrimSpace(sp.Src)) == 0:
			d = diag.File(sp.Path, "the page is empty: it has no front matter, so no title; write it (title: … between --- lines) or delete it")
		default:
			d = diag.File(sp.Path, "the page has no title: add \"title\" to its front matter")
		}
		diags = append(diags, d.AsWarning().WithCode("front-matter"))
	}
	return diags
}
