// Package look loads what a site looks like and speaks: its UI strings
// (i18n), its theme's layouts (render) and its shortcode templates
// (shortcodes), and makes the markdown renderer that uses them (page).
package look

import (
	"context"
	"slices"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// Look is a site's UI strings, theme and shortcode templates as loaded
// together, with the markdown renderer made with them.
type Look struct {
	Bundle *i18n.Bundle
	Theme  *render.Theme
	// Overrides are the built-in shortcodes the theme's templates replace.
	Overrides []string
	// Diags are the errors and warnings of the UI strings, the theme and
	// the shortcode templates: a build goes on with them, and loads the
	// look again next time while they hold an error.
	Diags diag.List
	MD    *markdown.Renderer
	// MDKey is what a page's markdown rendering depends on beyond the
	// page: the UI strings' and shortcode templates' files.
	MDKey uint64
}

// Load reads the look of the site on in, laid out as l, for the site's
// languages langs under cfg. It returns nil when a language has no UI
// strings or there is no theme to render with: the diagnostics then say
// why, and no build can go on. hl highlights the code blocks;
// explicitIndex makes links name index.html (page.NewMarkdown).
func Load(ctx context.Context, in afero.Fs, l config.Layout, cfg *config.Config, langs []string, hl *highlight.Highlighter, explicitIndex bool) (*Look, diag.List) {
	bundle, diags := i18n.LoadSite(ctx, in, l.I18n, langs)
	if bundle == nil {
		return nil, diags
	}
	// Which languages have UI strings is known now: every later stage
	// needs each language's.
	cdiags := cfg.CheckLangs(langs, bundle.Available(), l.Content)
	if diags = append(diags, cdiags...); cdiags.Err() != nil {
		return nil, diags
	}
	theme, tdiags := render.Load(ctx, render.ThemeFs(in, l.Theme), ".", bundle)
	if diags = append(diags, tdiags...); theme == nil {
		return nil, diags
	}
	reg := shortcodes.NewRegistry()
	overrides, sdiags := reg.LoadTemplates(ctx, in, l.Shortcodes()...)
	// Every UI string key the code, the layouts and the site shortcode
	// templates use must be in every language that has strings: a
	// missing key is an error, never a "[lang:key]" on a published page.
	uses := append(theme.Keys(), render.ShortcodeKeys(in, l.Shortcodes()...)...)
	diags = slices.Concat(diags, sdiags, render.CheckKeys(bundle, bundle.Langs(), i18n.CodeKeys, uses), render.UnusedKeys(bundle, i18n.CodeKeys, uses))
	return &Look{
		Bundle: bundle, Theme: theme, Overrides: overrides, Diags: diags,
		MD:    page.NewMarkdown(hl, reg, explicitIndex),
		MDKey: cache.HashFiles(in, append([]string{l.I18n}, l.Shortcodes()...)...),
	}, diags
}
