package cache

import "github.com/kakehashi-dev/kakehashi/build/output"

// Memo is what a Builder keeps in memory between builds, each entry valid
// while what it was made of has the same fingerprint; M is a page's
// rendered markdown.
type Memo[M any] struct {
	Markdown   Tier[M]                 // renderings by source path; by what their links and files reach (page.Renderer.Markdown)
	Pages      Tier[[]byte]            // finished HTML by page URL; by page.Fingerprint
	Search     Tier[[]byte]            // the indexes' manifests, shards and fragments, by output path; by the fingerprint they were made from
	LazySearch Tier[*output.Lazy]      // each language's index as one script made when first read (LazySearch), by language
	Feeds      Tier[map[string][]byte] // the sitemap, robots.txt and feeds; by page.FeedFingerprint

	// SearchTerms are the pages' search terms (search.Terms) by URL; by
	// page.SearchEntry.FP.
	SearchTerms Tier[string]
}

// Clear forgets everything: the theme or the UI strings changed.
func (m *Memo[M]) Clear() {
	m.Markdown.Clear()
	m.Pages.Clear()
	m.Search.Clear()
	m.LazySearch.Clear()
	m.Feeds.Clear()
	m.SearchTerms.Clear()
}

// Forget drops the renderings of source files and the pages of URLs that
// no longer exist.
func (m *Memo[M]) Forget(source, url func(string) bool) {
	m.Markdown.Keep(source)
	m.Pages.Keep(url)
}
