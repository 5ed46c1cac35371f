package i18n

import (
	"embed"
	"io/fs"
)

//go:embed *.toml
var defaults embed.FS

// Defaults returns the UI strings embedded in the binary, ja.toml and
// ko.toml at its root: what a site's own i18n/<lang>.toml files
// override key by key (LoadSite).
func Defaults() fs.FS { return defaults }
