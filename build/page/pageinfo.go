package page

import (
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
)

// pageInfo is what a site shortcode template shows of sp and its site
// (markdown.PageInfo, Hugo's .Page and .Site): its front matter's title
// and params, its URL, the site's title in its language, params and base
// URL, and the theme's rel and abs. What it holds beyond sp's own file is
// in the rendering's fingerprint (pageInfoFP) or makes the build start
// afresh (the configuration).
func (r *Renderer) pageInfo(sp *site.Page) *markdown.PageInfo {
	data := r.Assembler.Site()
	base := data.BaseURL
	if base == "" {
		base = "/"
	}
	info := &markdown.PageInfo{URL: sp.URL, SiteTitle: data.Title[sp.Lang], SiteParams: data.Params, BaseURL: base,
		Rel: func(p string) string { return render.Link(sp.URL, p, data.ExplicitIndex) },
		Abs: func(p string) string { return render.Abs(strings.TrimSuffix(base, "/")+"/", p) }}
	info.Permalink = info.Abs(sp.URL)
	if sp.Source != nil {
		info.Title, info.Params = sp.Source.Meta.Title, sp.Source.Meta.Params
	}
	return info
}

// pageInfoFP is what pageInfo takes from other files than sp's: the
// site's title in sp's language, which may be its home page's.
func (r *Renderer) pageInfoFP(sp *site.Page) string { return r.Assembler.Site().Title[sp.Lang] }
