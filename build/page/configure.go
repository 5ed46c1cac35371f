package page

import (
	"slices"

	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// Configure puts what the configuration says of the whole site into the
// data every page sees: the titles and descriptions per language (a
// title overrides the home page's), the copyright line, the params,
// whether there is search, and so the files the build generates
// (render.Outputs).
func Configure(data *render.Site, cfg *config.Config) {
	data.ShortTitle = map[string]string{}
	for _, l := range data.Langs {
		if t := cfg.Title[l]; t != "" {
			data.Title[l] = t
		}
		data.ShortTitle[l] = data.Title[l]
		if t := cfg.ShortTitle[l]; t != "" {
			data.ShortTitle[l] = t
		}
	}
	data.Description, data.Copyright, data.Params, data.NoSearch = cfg.Description, cfg.Copyright, cfg.Params, !cfg.Search
	data.Outputs = render.NewOutputs(data.Langs, data.NoSearch, cfg.Calculators)
}

// ConfigurePage adds to a page's data what the configuration says of it:
// the home page's description, an article's "edit this page" link, and
// none of the calculators' assets (shortcodes.CalcAssets) when the
// calculators are off (the widgets keep their build-time answers).
func ConfigurePage(sp *site.Page, p *render.Page, cfg *config.Config) *render.Page {
	switch {
	case sp.Kind == site.KindHome && cfg.Description[sp.Lang] != "":
		p.Description = cfg.Description[sp.Lang]
	case sp.Kind == site.KindArticle && sp.Source != nil:
		p.EditURL = cfg.EditLink(sp.Source.Path, sp.Lang)
	}
	if !cfg.Calculators {
		calc := shortcodes.CalcAssets()
		p.Styles = without(p.Styles, calc.Styles)
		p.Scripts = without(p.Scripts, calc.Scripts)
	}
	return p
}

// without is list without the paths of drop, a copy (list may be shared
// with a cached rendering).
func without(list, drop []string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(p string) bool { return slices.Contains(drop, p) })
}
