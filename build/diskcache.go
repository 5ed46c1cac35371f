package build

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// The persistent cache lets a build in a new process skip what the last
// build already made: pages whose template data did not change are taken
// from the previous output folder (hard-linked, not rewritten), markdown
// whose inputs did not change is not rendered again, and the search
// indexes and feeds are kept when what they hold did not change.
//
// It lives in Options.CacheDir, one file named by a key covering the
// kakehashi executable, the theme's layouts and shortcodes, the UI strings
// and the options; anything else a result depends on is in the fingerprints
// inside. Deleting it is always safe: the next build is a cold one.

// diskCache is what a build leaves for the next one.
type diskCache struct {
	MD  map[string]diskMD  // by source path
	Out map[string]diskOut // by output path
}

// diskMD is a page's markdown rendering without its HTML: what the page's
// template data and the search index need.
type diskMD struct {
	Gen      uint64
	Text     string
	CodeText string
	TOC      []markdown.Heading
	Diags    diag.List
	Minutes  int
	Scripts  []string
}

// diskOut is an output file: what made it (FP) and how it was left in the
// output folder (Size, MTime), so that it is reused only if untouched.
type diskOut struct {
	FP    uint64
	Size  int64
	MTime int64
}

// cacheState is a build's view of the persistent cache: the one loaded and
// the one being made.
type cacheState struct {
	prev   *diskCache
	mu     sync.Mutex
	next   *diskCache
	reused int // output files taken from the previous output
}

func newCacheState(prev *diskCache) *cacheState {
	return &cacheState{prev: prev, next: &diskCache{MD: map[string]diskMD{}, Out: map[string]diskOut{}}}
}

// executableKey fingerprints the running program, so a cache made by
// another build of kakehashi is never used.
var executableKey = sync.OnceValue(func() uint64 {
	h := newHasher()
	exe, err := os.Executable()
	if err == nil {
		if b, err := os.ReadFile(exe); err == nil {
			h.bytes(b)
			return h.sum()
		}
	}
	h.str(Version)
	return h.sum()
})

// cacheFile names the cache for the current theme, strings and options.
func (b *Builder) cacheFile() string {
	o := b.opts
	h := newHasher()
	h.num(int64(executableKey()))
	h.num(int64(b.mdKey)) // the UI strings and the shortcode templates
	h.num(int64(hashFiles(b.in, path.Join(o.ThemeDir, "layouts"))))
	h.str(o.BaseURL)
	h.str(strconv.FormatBool(o.Drafts))
	h.str(strconv.FormatBool(o.ExplicitIndex))
	return filepath.Join(o.CacheDir, fmt.Sprintf("build-%016x.bin", h.sum()))
}

// loadDisk reads the persistent cache, or returns nil when there is none
// or it cannot be read (a cold build follows).
func (b *Builder) loadDisk() *diskCache {
	if b.opts.CacheDir == "" {
		return nil
	}
	data, err := afero.ReadFile(b.cacheFs(), b.cacheFile())
	if err != nil {
		return nil
	}
	c, err := decodeDisk(data)
	if err != nil {
		return nil
	}
	return c
}

func (b *Builder) cacheFs() afero.Fs {
	if b.opts.CacheFs != nil {
		return b.opts.CacheFs
	}
	return afero.NewOsFs()
}

// saveDisk writes the cache of a build whose output is now in dest: it
// records each file's size and time as the output folder has them.
func (b *Builder) saveDisk(c *diskCache, outFs afero.Fs, dest string) {
	for p, o := range c.Out {
		info, err := outFs.Stat(filepath.Join(dest, filepath.FromSlash(p)))
		if err != nil || info.Size() != o.Size {
			delete(c.Out, p)
			continue
		}
		o.MTime = info.ModTime().UnixNano()
		c.Out[p] = o
	}
	fs, dir, file := b.cacheFs(), b.opts.CacheDir, b.cacheFile()
	if fs.MkdirAll(dir, 0o755) != nil {
		return
	}
	tmp := file + ".tmp"
	f, err := fs.Create(tmp)
	if err != nil {
		return
	}
	err = encodeDisk(f, c)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || fs.Rename(tmp, file) != nil {
		fs.Remove(tmp)
		return
	}
	// Keep only the current cache.
	if entries, err := afero.ReadDir(fs, dir); err == nil {
		for _, e := range entries {
			n := e.Name()
			if strings.HasPrefix(n, "build-") && filepath.Join(dir, n) != file {
				fs.Remove(filepath.Join(dir, n))
			}
		}
	}
}

// diskMarkdown returns the cached rendering of a page's markdown, without
// HTML, when its inputs (gen) are unchanged.
func (c *cacheState) diskMarkdown(p string, gen uint64) (diskMD, bool) {
	if c == nil || c.prev == nil {
		return diskMD{}, false
	}
	d, ok := c.prev.MD[p]
	return d, ok && d.Gen == gen
}

// keepMarkdown records a page's rendering for the next build.
func (c *cacheState) keepMarkdown(p string, e *mdEntry) {
	if c == nil || e == nil {
		return
	}
	c.mu.Lock()
	c.next.MD[p] = diskMD{Gen: e.gen, Text: e.res.Text, CodeText: e.res.CodeText, TOC: e.res.TOC,
		Diags: e.res.Diags, Minutes: e.minutes, Scripts: e.scripts}
	c.mu.Unlock()
}

// reuse links output file p from the previous output folder into stage
// when it was made from the same fingerprint and is untouched.
func (c *cacheState) reuse(stage *output.Staging, p string, fp uint64) bool {
	if c == nil || c.prev == nil || stage == nil {
		return false
	}
	p = strings.TrimPrefix(p, "/")
	o, ok := c.prev.Out[p]
	if !ok || o.FP != fp || !stage.Reuse(p, o.Size, o.MTime) {
		return false
	}
	c.mu.Lock()
	c.next.Out[p] = diskOut{FP: fp, Size: o.Size}
	c.reused++
	c.mu.Unlock()
	return true
}

// made records an output file written by this build.
func (c *cacheState) made(p string, fp uint64, size int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.next.Out[strings.TrimPrefix(p, "/")] = diskOut{FP: fp, Size: int64(size)}
	c.mu.Unlock()
}

// sameFiles reports whether this build's output files are exactly the
// previous build's.
func (c *cacheState) sameFiles() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.prev == nil || len(c.prev.Out) != len(c.next.Out) {
		return false
	}
	for p := range c.next.Out {
		if _, ok := c.prev.Out[p]; !ok {
			return false
		}
	}
	return true
}
