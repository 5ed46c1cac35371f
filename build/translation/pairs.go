package translation

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Pair is an original and its translation in one other language.
type Pair struct {
	// Key is the pages' shared name: the path under the language folder,
	// a page folder's index.md as a file of the folder's name
	// ("cka/05-ha-cluster.md").
	Key string
	// OrigLang and Lang are the languages of the original and of the
	// translation.
	OrigLang, Lang string
	// Orig is the original; nil when only translations exist (the page
	// is missing in OrigLang).
	Orig *source.Page
	// Tr is the translation; nil when it is missing in Lang.
	Tr *source.Page
}

// Missing reports whether one side of the pair has no page.
func (p Pair) Missing() bool { return p.Orig == nil || p.Tr == nil }

// Key is the name a page pairs by: its path under the language folder,
// with a page folder's "x/index.md" as "x.md".
func Key(p *source.Page) string {
	if p.IsBundle() {
		if dir := path.Dir(p.Rel); dir != "." {
			return dir + ".md"
		}
	}
	return p.Rel
}

// Pairs pairs the pages of c: for every page name, its original with
// each other language of langs (the site's languages, the first the
// default original), one Pair each, sorted by translation language then
// Key. A language with no page of that name gives a Pair with a nil side,
// unless the page that exists is a draft. Its diagnostics are the faults
// of translationOf: a language that is not one of langs, the page's own,
// or two pages of one name naming different originals, each an error at
// its field.
func Pairs(c *source.Content, langs []string) ([]Pair, diag.List) {
	if len(langs) == 0 {
		return nil, nil
	}
	var diags diag.List
	groups, keys := group(c.Pages, len(c.Pages)/len(langs)+1, func(string) bool { return true })
	var pairs []Pair
	for _, k := range keys {
		g := groups[k]
		orig, ds := origin(g, langs)
		diags = append(diags, ds...)
		o := g[orig]
		for _, l := range langs {
			if l == orig {
				continue
			}
			tr := g[l]
			if tr == nil && (o == nil || o.Meta.Draft) || o == nil && tr.Meta.Draft {
				continue
			}
			pairs = append(pairs, Pair{Key: k, OrigLang: orig, Lang: l, Orig: o, Tr: tr})
		}
	}
	slices.SortStableFunc(pairs, func(a, b Pair) int {
		if a.Lang != b.Lang {
			return slices.Index(langs, a.Lang) - slices.Index(langs, b.Lang)
		}
		return strings.Compare(a.Key, b.Key)
	})
	return pairs, diags
}

// Check is the diagnostics of Pairs(c, langs), found without pairing
// every page: only a name one of whose pages names its original
// (translationOf) can have any.
func Check(c *source.Content, langs []string) diag.List {
	if len(langs) == 0 {
		return nil
	}
	named := map[string]bool{}
	for _, p := range c.Pages {
		if p.Meta.TranslationOf != "" {
			named[Key(p)] = true
		}
	}
	if len(named) == 0 {
		return nil
	}
	groups, keys := group(c.Pages, len(named), func(k string) bool { return named[k] })
	var diags diag.List
	for _, k := range keys {
		_, ds := origin(groups[k], langs)
		diags = append(diags, ds...)
	}
	return diags
}

// group gathers the pages of each name (Key) that keep says to, by
// language, and lists those names, sorted; n is about how many there are.
func group(pages []*source.Page, n int, keep func(key string) bool) (map[string]map[string]*source.Page, []string) {
	groups := make(map[string]map[string]*source.Page, n)
	keys := make([]string, 0, n)
	for _, p := range pages {
		k := Key(p)
		if !keep(k) {
			continue
		}
		g := groups[k]
		if g == nil {
			g = map[string]*source.Page{}
			groups[k] = g
			keys = append(keys, k)
		}
		if _, dup := g[p.Lang]; dup {
			// cka/x.md beside cka/x/index.md: the site reports the
			// clash of their URLs; pair the first.
			continue
		}
		g[p.Lang] = p
	}
	slices.Sort(keys)
	return groups, keys
}

// origin is the language of the original of the pages g (by language):
// the first that a page's translationOf names, else the site's first.
// Every translationOf is checked.
func origin(g map[string]*source.Page, langs []string) (string, diag.List) {
	var diags diag.List
	orig, by := langs[0], (*source.Page)(nil)
	for _, l := range langs {
		p := g[l]
		if p == nil || p.Meta.TranslationOf == "" {
			continue
		}
		to := p.Meta.TranslationOf
		switch {
		case to == p.Lang:
			diags = append(diags, at(p, "translationOf %q is the page's own language: a page cannot be a translation of itself; remove the field from the original", to))
		case !slices.Contains(langs, to):
			msg := fmt.Sprintf("translationOf %q is not one of the site's languages (%s)", to, strings.Join(langs, ", "))
			if s := diag.Suggest(to, langs); s != "" {
				msg += fmt.Sprintf(": did you mean %q?", s)
			}
			diags = append(diags, at(p, "%s", msg))
		case by == nil:
			orig, by = to, p
		case to != orig:
			diags = append(diags, at(p, "translationOf %q disagrees with %s, which says its original is in %q: the pages of one name have one original", to, by.Path, orig))
		}
	}
	return orig, diags
}

func at(p *source.Page, format string, args ...any) diag.Diagnostic {
	return diag.At(p.Path, p.Src, p.Meta.Pos["translationOf"].Off, format, args...)
}
