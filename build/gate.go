package build

import (
	"context"

	"github.com/kakehashi-dev/kakehashi/build/check"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/glossary"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
)

// Check is the content gate (kakehashi check): it runs the whole pipeline
// in memory, writing nothing, and lists what the build found, the checks
// of the site as a reader meets it included (links and their sections in
// every language; translations missing, stale, unmarked, or twins that
// differ; the UI strings no one uses): every error and warning, sorted,
// each with its kind (check.Found). The error is for what is no fault of
// the content (an interrupted build).
func (b *Builder) Check(ctx context.Context) (diag.List, error) {
	res, err := b.Build(ctx)
	if err != nil {
		return check.Found(nil, err)
	}
	return check.Found(res.Summary.Warnings, nil)
}

// siteChecks runs the checks of the whole site (check.Site, again only
// for what changed since the last build: check.Memo) over the
// pages of this build: their markdown renderings (mds, in the site's page
// order) and the ids of their HTML, so that the theme's ids count; and
// the glossary's terms (glossary.Glossary.Check).
func (r *run) siteChecks(mds []*page.Rendering) diag.List {
	ds := r.b.between.checks.Site(r.st, check.Pages(r.st, r.htmlIDs, func(i int) *markdown.Result {
		if mds[i] == nil {
			return nil
		}
		return &mds[i].Result
	}))
	if r.gl != nil {
		ds = append(ds, r.gl.Check(glossary.SitePages(r.st))...)
	}
	return ds
}

// between is what a Builder keeps from one build to the next for the
// work that looks at the whole site, so that a rebuild redoes only what
// an edit can change: the resolved site, taken again when only pages'
// bodies changed (site.Resolver), what the checks found of each
// translation (check.Memo), each page's sum in the feeds' fingerprint
// (page.FeedSums), for a build in memory each page's headings for the
// search index (page.Headings), and the theme's assets, named by their
// hashes (render.PreparedAssets).
type between struct {
	sites    site.Resolver
	checks   check.Memo
	feeds    page.FeedSums
	headings page.Headings
	assets   render.PreparedAssets
}

// headings is what the search index takes of each page's headings from
// the last build: for a build in memory, which keeps its pages; nil for
// a build to disk, which keeps none.
func (r *run) headings() *page.Headings {
	if !r.retain {
		return nil
	}
	return &r.b.between.headings
}
