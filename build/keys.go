package build

import (
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// templateKeys are the key uses of the theme's layouts and of the site
// shortcode templates. The caller holds b.mu.
func (b *Builder) templateKeys(theme *render.Theme) []render.KeyUse {
	uses := theme.Keys()
	return append(uses, render.ShortcodeKeys(b.in, b.opts.Layout.Shortcodes()...)...)
}

// UnusedKeys lists, as warnings at their lines, the keys of the site's UI
// strings files that no code, layout or shortcode template uses, as the
// Builder last loaded them:
//
//	i18n/ja.toml:12:1: UI string "foo" is not used
//
// A key the code or a template builds at run time counts as used: the
// code's are all in i18n.CodeKeys, and every key a template's printf
// format can give is used. A key the strings embedded in the binary hold
// and the site's files do not is kakehashi's, not the site's, and is not
// listed. Nil before a Build has loaded them.
func (b *Builder) UnusedKeys() diag.List {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bundle == nil || b.theme == nil {
		return nil
	}
	return render.UnusedKeys(b.bundle, i18n.CodeKeys, b.templateKeys(b.theme))
}
