package i18n

import (
	"embed"
	"io/fs"
)

//go:embed *.toml
var defaults embed.FS

// Defaults returns the UI strings embedded in the binary, one <lang>.toml
// per language at its root (ja.toml, ko.toml, en.toml): what a site's own
// i18n/<lang>.toml files override key by key (LoadSite).
func Defaults() fs.FS { return defaults }
