// Package sitedir is a site folder on disk as the commands use it: the
// files a build reads (confined to the folder), the options that keep its
// caches in it, the destinations that may not take its place, its lock,
// and the memory a build of it is given.
package sitedir

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// FS is the site folder src as every command reads it: confined to the
// folder, so that no symbolic link publishes a file from elsewhere.
func FS(src string) (afero.Fs, error) { return source.SiteFS(src) }

// DefaultDest is the destination of a build of src that names none.
func DefaultDest(src string) string {
	return filepath.Join(src, filepath.FromSlash(build.DefaultLayout().Output))
}

// WithWasm has the build compile the calculators in the site folder src,
// caching them in its .kakehashi-cache.
func WithWasm(o build.Options, src string) build.Options {
	abs, err := filepath.Abs(src)
	if err != nil {
		return o
	}
	o.WasmRoot = abs
	o.WasmCache = filepath.Join(abs, filepath.FromSlash(build.DefaultLayout().WasmCache()))
	return o
}

// WithCache keeps a persistent build cache in the site's .kakehashi-cache,
// unless off.
func WithCache(o build.Options, src string, off bool) build.Options {
	if abs, err := filepath.Abs(src); err == nil && !off {
		o.CacheDir = filepath.Join(abs, filepath.FromSlash(build.DefaultLayout().BuildCache()))
	}
	return o
}

// Dirs are the site folder and the folders in it that no output may land
// in: what the build reads, and its cache.
func Dirs(src string) output.Dirs {
	return output.Dirs{Root: src, Inputs: build.DefaultLayout().Inputs()}
}

// CheckDest refuses a destination folder that would take the place of the
// site's own files, unless force allows replacing one kakehashi did not
// write (output.CheckDest).
func CheckDest(src, dest string, force bool) error {
	return output.CheckDest(afero.NewOsFs(), dest, Dirs(src), force)
}

// LockPath is the file of the site's lock.
func LockPath(src string) string {
	return filepath.Join(src, filepath.FromSlash(build.DefaultLayout().Lock()))
}

// Lock waits for any other build of the site to finish, calling waiting
// with its process's ID (0 when unknown) when there is one, and holds the
// site's lock (LockPath) until unlock. It returns ctx's error when ctx
// ends first, and output.Lock's when the lock cannot be made (a read-only
// folder), which a command may build without.
func Lock(ctx context.Context, src string, waiting func(pid int)) (unlock func(), err error) {
	return output.Lock(ctx, LockPath(src), waiting)
}

// LimitMemory sets a soft memory limit for a build of src, unless
// GOMEMLIMIT says otherwise: a build holds about five and a half times
// its content at its peak, and without a limit the garbage collector lets
// the heap grow to twice that. The limit, eight times the content, makes
// it collect sooner instead; it is soft, so a larger site is never refused
// memory, it only collects more often. Closer to the peak (seven times) it
// collects so often near the end of a large build that 1,000 parts per
// language take about 0.15 s longer, for 12 MB less.
//
// Below the limit, the collector lets the heap grow to three times what
// it held after the last collection (GOGC=200, unless GOGC says
// otherwise), not twice: a build's heap grows as it goes, and collecting
// it at twice its size makes a cold build of 1,000 parts per language
// collect 60 times instead of 50, one of 100 parts 15 instead of 8, for
// no lower peak (the limit bounds that of a large site; a small site
// stays far below it, at about 120 MB instead of 100).
func LimitMemory(src string) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(MemoryLimit(ContentSize(src)))
}

// MemoryLimit is LimitMemory's limit for content bytes of content files.
func MemoryLimit(content int64) int64 { return max(192<<20, 8*content) }

// ContentSize is the size of the files under the site's content folder.
func ContentSize(src string) int64 {
	var content int64
	filepath.WalkDir(filepath.Join(src, filepath.FromSlash(build.DefaultLayout().Content)), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				content += info.Size()
			}
		}
		return nil
	})
	return content
}
