package site

import (
	"sort"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Stats counts what a site publishes.
type Stats struct {
	Pages          map[string]int // pages per language ("" = root and 404)
	Articles       map[string]int // articles per language
	PartsPublished int            // series parts with a page, over all series
	PartsPlanned   int
}

// Stats counts the site's pages and series parts.
func (s *Site) Stats() Stats {
	st := Stats{Pages: map[string]int{}, Articles: map[string]int{}}
	for _, p := range s.Pages {
		st.Pages[p.Lang]++
		if p.Kind == KindArticle {
			st.Articles[p.Lang]++
		}
	}
	for _, sr := range s.Series {
		for _, p := range sr.Parts {
			if p.State == source.Published {
				st.PartsPublished++
			} else {
				st.PartsPlanned++
			}
		}
	}
	return st
}

// TranslationGroups lists the indexes of s.Pages in TranslationOrder, a
// page and its translations in one group.
func (s *Site) TranslationGroups() [][]int {
	var out [][]int
	for _, i := range s.TranslationOrder() {
		if n := len(out); n > 0 && s.Pages[out[n-1][0]].Key == s.Pages[i].Key && s.Pages[i].Lang != "" {
			out[n-1] = append(out[n-1], i)
			continue
		}
		out = append(out, []int{i})
	}
	return out
}

// TranslationOrder lists the indexes of s.Pages with each page followed by
// its translations (by Key, then language): an order in which pages that
// share their code blocks are made one after the other.
func (s *Site) TranslationOrder() []int {
	order := make([]int, len(s.Pages))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := s.Pages[order[a]], s.Pages[order[b]]
		if x.Key != y.Key {
			return x.Key < y.Key
		}
		return x.Lang < y.Lang
	})
	return order
}
