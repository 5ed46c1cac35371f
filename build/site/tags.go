// The site's tag pages and the aliases that redirect old URLs to a page.

package site

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// addTags makes the tag pages of each language that has tagged articles:
// one per tag and the index of them all (unless an _index.md in the
// language's tags folder is that index). A tag page whose URL is taken by
// a page of content is an error at the first article's tag.
func (s *Site) addTags(langs []string, sections map[string]bool) diag.List {
	var diags diag.List
	s.tags = map[string][]*Tag{}
	slugs := map[string]string{} // source.TagSlug of each name, made once
	slugOf := func(name string) string {
		sl, ok := slugs[name]
		if !ok {
			sl = source.TagSlug(name)
			slugs[name] = sl
		}
		return sl
	}
	for _, lang := range langs {
		bySlug := map[string]*Tag{}
		where := map[string]*Page{} // the first article with each tag
		var list []*Tag
		arts := s.Articles(lang)
		sorted := slices.Clone(arts)
		slices.SortFunc(sorted, byURL)
		for _, p := range sorted {
			for _, name := range p.Source.Meta.Tags {
				slug := slugOf(name)
				if bySlug[slug] == nil {
					t := &Tag{Name: name, Slug: slug, URL: "/" + lang + "/" + TagsDir + "/" + slug + "/"}
					bySlug[slug], where[slug] = t, p
					list = append(list, t)
				}
			}
		}
		if len(list) == 0 {
			continue
		}
		var seen []string        // the slugs of one article's tags: a few
		for _, p := range arts { // newest first
			seen = seen[:0]
			for _, name := range p.Source.Meta.Tags {
				if slug := slugOf(name); !slices.Contains(seen, slug) {
					seen = append(seen, slug)
					bySlug[slug].Pages = append(bySlug[slug].Pages, p)
				}
			}
		}
		sort.Slice(list, func(i, j int) bool { return list[i].Slug < list[j].Slug })
		s.tags[lang] = list
		if !sections[lang+"/"+TagsDir] {
			s.addGenerated(&Page{Kind: KindTags, Lang: lang, URL: "/" + lang + "/" + TagsDir + "/", Key: TagsDir + "/"})
		}
		for _, t := range list {
			if prev := s.byURL[t.URL]; prev != nil {
				first := where[t.Slug].Source
				i := slices.IndexFunc(first.Meta.Tags, func(n string) bool { return source.TagSlug(n) == t.Slug })
				diags = append(diags, diag.At(first.Path, first.Src, first.Meta.Pos["tags"].Item(i),
					"the page of tag %q, %s, is already taken by %s", t.Name, t.URL, describePage(prev)))
				continue
			}
			s.addGenerated(&Page{Kind: KindTag, Lang: lang, URL: t.URL, Key: TagsDir + "/" + t.Slug, Tag: t})
		}
	}
	return diags
}

// Tags are the tags of lang's articles, by slug.
func (s *Site) Tags(lang string) []*Tag { return s.tags[lang] }

// addAliases lists the redirects of every page's aliases. A relative alias
// is taken from the page's folder: "old" on /ja/cka/05-new/ is
// /ja/cka/old/. An alias that is the URL of a page, or another page's
// alias, is an error at the alias.
func (s *Site) addAliases() diag.List {
	var diags diag.List
	taken := map[string]*Page{}
	for _, p := range s.Pages {
		if p.Source == nil {
			continue
		}
		sp := p.Source
		for i, a := range sp.Meta.Aliases {
			u := AliasURL(p.URL, a)
			at := sp.Meta.Pos["aliases"].Item(i)
			switch prev := s.byURL[u]; {
			case prev != nil:
				diags = append(diags, diag.At(sp.Path, sp.Src, at, "alias %s is already the URL of %s", u, describePage(prev)))
			case taken[u] != nil:
				diags = append(diags, diag.At(sp.Path, sp.Src, at, "alias %s is also an alias of %s", u, taken[u].Source.Path))
			default:
				taken[u] = p
				s.Aliases = append(s.Aliases, Alias{URL: u, Page: p})
			}
		}
	}
	sort.Slice(s.Aliases, func(i, j int) bool { return s.Aliases[i].URL < s.Aliases[j].URL })
	return diags
}

// AliasURL is the site-absolute URL of the alias a (which passed
// source.CheckAlias) of the page at the URL page: a site-absolute alias as
// it is, a relative one from the page's folder; a folder ends in "/", a
// path ending in ".html" is a file.
func AliasURL(page, a string) string {
	u := a
	if !strings.HasPrefix(a, "/") {
		u = path.Join(path.Dir(strings.TrimSuffix(page, "/")), a)
	}
	u = "/" + strings.Trim(u, "/")
	if !strings.HasSuffix(u, ".html") {
		u += "/"
	}
	return u
}
