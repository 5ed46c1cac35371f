// Package themes carries kakehashi's default theme, themes/default, inside
// the binary: the layouts and static files a site falls back to for every
// file it does not have itself (see build/source.Layers).
package themes

import (
	"embed"
	"io/fs"
)

// DefaultName is the name of the theme embedded in the binary.
const DefaultName = "default"

//go:embed default
var files embed.FS

// Default returns the embedded default theme: layouts/ and static/ at its
// root, as in themes/default.
func Default() fs.FS {
	sub, err := fs.Sub(files, DefaultName)
	if err != nil {
		panic(err) // cannot happen: the folder is embedded
	}
	return sub
}
