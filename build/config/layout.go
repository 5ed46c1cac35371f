package config

import (
	"path"
	"strings"
)

// Layout is the single source of a site's folder names, for the builder,
// the authoring server's watcher and the command line. Paths are
// slash-separated and relative to the site root.
type Layout struct {
	Content string // the pages and the series files; default "content"
	Theme   string // the theme in use; default "themes/default"
	I18n    string // the UI strings; default "i18n"
	Output  string // where build writes; default "public"
	Cache   string // kakehashi's own cache and lock; default ".kakehashi-cache"
	Config  string // the site's configuration file; default "kakehashi.toml" (File)
}

// DefaultLayout is the layout of a site that names no other.
func DefaultLayout() Layout {
	return Layout{Content: "content", Theme: "themes/default", I18n: "i18n", Output: "public", Cache: ".kakehashi-cache", Config: File}
}

// WithDefaults is l with the folders it leaves empty DefaultLayout's.
func (l Layout) WithDefaults() Layout {
	d := DefaultLayout()
	for _, f := range []struct {
		v   *string
		def string
	}{
		{&l.Content, d.Content}, {&l.Theme, d.Theme}, {&l.I18n, d.I18n}, {&l.Output, d.Output}, {&l.Cache, d.Cache}, {&l.Config, d.Config},
	} {
		if *f.v == "" {
			*f.v = f.def
		}
	}
	return l
}

// Themes is the folder holding the site's themes ("themes").
func (l Layout) Themes() string { return path.Dir(l.WithDefaults().Theme) }

// Watched lists the folders (and the configuration file) whose edits
// change the site: what the authoring server watches.
func (l Layout) Watched() []string {
	l = l.WithDefaults()
	return []string{l.Content, l.Themes(), l.I18n, l.Config, "layouts", "static"}
}

// Inputs lists every folder a build reads or keeps its own files in, and
// the folders later features read (static/, layouts/): no output may be
// written into any of them.
func (l Layout) Inputs() []string {
	l = l.WithDefaults()
	return []string{l.Content, l.Themes(), l.I18n, "static", "layouts", l.Cache}
}

// Shortcodes lists the folders of the site's shortcode templates, each
// template NAME.html (or DIR/NAME.html, named DIR/NAME), from the lowest
// precedence to the highest, as a build reads them: the theme's
// shortcodes/ (kakehashi's place), the theme's layouts/shortcodes/ and
// layouts/_shortcodes/ (a Hugo theme's), then the site's
// layouts/shortcodes/ and layouts/_shortcodes/ (Hugo's: the older name
// and the newer). A template in a later folder replaces one of the same
// name in an earlier, as Hugo's layouts replace its theme's; each is in
// the look of the site (PartOf), which the authoring server watches.
func (l Layout) Shortcodes() []string {
	l = l.WithDefaults()
	return []string{
		path.Join(l.Theme, "shortcodes"),
		path.Join(l.Theme, "layouts", "shortcodes"),
		path.Join(l.Theme, "layouts", "_shortcodes"),
		path.Join("layouts", "shortcodes"),
		path.Join("layouts", "_shortcodes"),
	}
}

// Lock is the file that makes two builds of the site take turns.
func (l Layout) Lock() string { return path.Join(l.WithDefaults().Cache, "lock") }

// BuildCache is the folder of the persistent build cache.
func (l Layout) BuildCache() string { return path.Join(l.WithDefaults().Cache, "build") }

// WasmCache is the folder of the compiled calculators.
func (l Layout) WasmCache() string { return path.Join(l.WithDefaults().Cache, "wasm") }

// Part is the part of a site a path is in (Layout.PartOf).
type Part int

// The parts of a site, as a build tells them apart.
const (
	Elsewhere Part = iota // none of the site's inputs
	Static                // the site's static files or the theme's
	Look                  // the rest of the theme, the site's layouts, the UI strings or the configuration file
	Content               // the content: the pages, their folders' files and the series files
)

// PartOf is the part of the site laid out as l (with its defaults) that
// path p is in; p is slash-separated, relative to the site root and
// clean.
func (l Layout) PartOf(p string) Part {
	l = l.WithDefaults()
	switch {
	case within(p, path.Join(l.Theme, "static")), within(p, "static"):
		return Static
	case within(p, l.Theme), within(p, "layouts"), within(p, l.I18n), p == l.Config:
		return Look
	case within(p, l.Content):
		return Content
	}
	return Elsewhere
}

// within reports whether path p is folder dir or inside it.
func within(p, dir string) bool {
	dir = strings.Trim(path.Clean(dir), "/")
	return p == dir || strings.HasPrefix(p, dir+"/")
}
