package build

import "github.com/kakehashi-dev/kakehashi/build/config"

// Layout names a site's folders (config.Layout): the builder's, the
// authoring server's watcher's and the command line's one source of them.
type Layout = config.Layout

// DefaultLayout is the layout of a site that names no other.
func DefaultLayout() Layout { return config.DefaultLayout() }
