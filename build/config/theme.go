package config

import (
	"context"
	"fmt"
	"path"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// ThemeDir is the folder of the theme the configuration names, beside
// defaultDir (the site's default theme folder, "themes/default"), or
// defaultDir itself when it names none. A named theme other than the
// default must be a folder of the site (the default may come from the
// binary); otherwise the error is at the "theme" key, with did-you-mean
// among the site's themes.
func (c *Config) ThemeDir(fsys afero.Fs, defaultDir string) (string, diag.List) {
	if c.Theme == "" {
		return defaultDir, nil
	}
	themes := path.Dir(defaultDir)
	dir := path.Join(themes, c.Theme)
	if c.Theme == path.Base(defaultDir) {
		return dir, nil
	}
	if fi, err := fsys.Stat(dir); err == nil && fi.IsDir() {
		return dir, nil
	}
	var names []string
	if es, err := afero.ReadDir(fsys, themes); err == nil {
		for _, e := range es {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
	}
	msg := fmt.Sprintf("theme %q not found: no folder %s", c.Theme, dir)
	if s := diag.Suggest(c.Theme, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return "", diag.List{c.At("=theme", "%s", msg)}
}

// Site is a site's configuration as a build reads it afresh: the file,
// the site's languages and the theme folder.
type Site struct {
	Config *Config
	// Diags are the errors and warnings of the file, its languages and
	// its theme: a field in error keeps its default.
	Diags diag.List
	// Langs are the site's languages, in order (Config.Langs).
	Langs []string
	// Theme is the theme folder the file names, else (none, or one not
	// found) the default.
	Theme string
}

// LoadSite reads the configuration of the site on fsys laid out as l,
// its languages and its theme folder (defaultTheme when it names none or
// one not found). ok is false when the site has no languages: no build
// can go on, and Diags say why.
func LoadSite(ctx context.Context, fsys afero.Fs, l Layout, defaultTheme string) (s Site, ok bool) {
	cfg, diags := Load(ctx, fsys, l.Config)
	if ctx.Err() != nil {
		return Site{Config: cfg, Diags: diags}, false
	}
	langs, ldiags := cfg.Langs(ctx, fsys, l.Content)
	if diags = append(diags, ldiags...); len(langs) == 0 {
		return Site{Config: cfg, Diags: diags}, false
	}
	theme, tdiags := cfg.ThemeDir(fsys, defaultTheme)
	if theme == "" {
		theme = defaultTheme
	}
	return Site{Config: cfg, Diags: append(diags, tdiags...), Langs: langs, Theme: theme}, true
}
