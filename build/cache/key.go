package cache

import "github.com/spf13/afero"

// Key names the persistent cache (Open) of a build by what every file the
// build makes depends on beyond its own fingerprint: the running
// executable (Program; version stands for it when it cannot be read), md
// (what markdown rendering depends on beyond the page: the UI strings and
// the shortcode templates), the theme's layouts (the layouts folder of
// theme, the theme's file system), and the build's options, each given as
// a string.
func Key(version string, md uint64, theme afero.Fs, opts ...string) uint64 {
	h := NewHasher()
	h.Num(int64(Program(version)))
	h.Num(int64(md))
	h.Num(int64(HashFiles(theme, "layouts")))
	for _, o := range opts {
		h.Str(o)
	}
	return h.Sum()
}
