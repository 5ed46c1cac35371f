package config

import (
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
