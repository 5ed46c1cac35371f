package build

import (
	"github.com/kakehashi-dev/kakehashi/build/render"
)

// templateKeys are the key uses of the theme's layouts and of the site
// shortcode templates. The caller holds b.mu.
func (b *Builder) templateKeys(theme *render.Theme) []render.KeyUse {
	uses := theme.Keys()
	return append(uses, render.ShortcodeKeys(b.in, b.opts.Layout.Shortcodes()...)...)
}
