package render

import (
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/themes"
)

// Site-root folders that override the theme's, file by file.
const (
	SiteLayouts = "layouts"
	SiteStatic  = "static"
)

// ThemeFs is the theme a build renders with, one read-only filesystem
// with layouts/ and static/ at its root (source.Layers), each file taken
// from the first of:
//
//  1. the site's own layouts/ and static/, at its root;
//  2. the site's theme folder, themeDir (themes/<theme>, the theme the
//     configuration names, themes/default when it names none);
//  3. the default theme embedded in the binary (package themes).
//
// The site's files are read through in, the site's confined reader, so a
// link out of the site stays an error. A diagnostic in an embedded file
// names it "(embedded) themes/default/layouts/article.html".
func ThemeFs(in afero.Fs, themeDir string) afero.Fs {
	return source.Layers(
		source.Layer{Fs: in},
		source.Layer{Fs: in, Dir: themeDir},
		source.Layer{Fs: afero.FromIOFS{FS: themes.Default()}, Dir: ".", Label: source.EmbeddedLabel("themes/" + themes.DefaultName)},
	)
}
