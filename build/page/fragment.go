package page

import (
	"context"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Fragment renders pg, a markdown document that is none of st's pages
// (kakehashi render), in lang through md, with the UI strings t: its "#N"
// links name the parts of the series its front matter names (with a
// part), and a part shortcode those of any series of st, site-absolute,
// since the fragment has no page of its own; its other links stay as
// written.
func Fragment(ctx context.Context, md *markdown.Renderer, st *site.Site, pg *source.Page, lang string, t func(lang, key string) string) markdown.Result {
	env := markdown.Env{Lang: lang, T: func(k string) string { return t(lang, k) }, Param: Param(pg.Meta.Params, nil)}
	sp := &site.Page{Lang: lang}
	for _, sr := range st.Series {
		if pg.Meta.Part > 0 && sr.ID == pg.Meta.Series {
			sp.Series = sr
		}
	}
	Links(&env, st, sp, false)
	return md.Render(ctx, markdown.Doc{Path: pg.Path, Src: pg.Src, BodyStart: pg.BodyStart}, env)
}
