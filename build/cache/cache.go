// Package cache is the persistent build cache: what a build leaves in a
// folder for the next process to skip what is already made. Pages whose
// template data did not change are taken from the previous output folder
// (hard-linked, not rewritten), markdown whose inputs did not change is
// not rendered again, and the search indexes and feeds are kept when what
// they hold did not change.
//
// The cache is one file in its folder, named by a key the builder hands in
// (covering the kakehashi executable, the theme's layouts and shortcodes,
// the UI strings and the options); anything else a result depends on is in
// the fingerprints inside. Deleting it is always safe: the next build is a
// cold one. The package also holds the Hasher those keys and fingerprints
// are made with. It knows nothing of the builder.
package cache

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// Data is what a build leaves for the next one.
type Data struct {
	MD  map[string]Markdown // by source path
	Out map[string]File     // by output path
	// Search holds the search terms of each indexed page, sorted by URL
	// (made.go).
	Search []SearchTerms
}

// Markdown is a page's markdown rendering without its HTML and its plain
// text: what the page's template data and the whole-site checks
// (build/check: its ids, links and outline) need. The search index keeps
// each page's terms apart (Data.Search) and its fragment in the output;
// a page whose fragment must be made again renders its markdown again.
type Markdown struct {
	Gen     uint64 // what the rendering was made of
	TOC     []markdown.Heading
	Diags   diag.List
	Minutes int
	Styles  []string
	Scripts []string
	IDs     []string
	Links   []markdown.Link
	Outline []markdown.Block
}

// File is an output file: what made it (FP) and how it was left in the
// output folder (Size, MTime), so that it is reused only if untouched.
type File struct {
	FP    uint64
	Size  int64
	MTime int64
}

// Reuser takes a file of the previous output unchanged into the output
// being written, when it is still there with that size and time
// (output.Sink is one).
type Reuser interface {
	Reuse(p string, size, mtime int64) bool
}

// Cache is one build's view of the persistent cache: the one loaded from
// disk and the one being made. A nil *Cache is a build without one: it
// finds nothing and records nothing. Its methods are safe for concurrent
// use.
type Cache struct {
	fs        afero.Fs
	dir, file string
	prev      *Data
	mu        sync.Mutex
	next      *Data
	reused    int // output files taken from the previous output
}

// Open reads the cache named by key in dir on fsys. A missing or
// unreadable cache is an empty one (a cold build follows).
func Open(fsys afero.Fs, dir string, key uint64) *Cache {
	c := &Cache{fs: fsys, dir: dir, file: filepath.Join(dir, fmt.Sprintf("build-%016x.bin", key)),
		next: &Data{MD: map[string]Markdown{}, Out: map[string]File{}}}
	if data, err := afero.ReadFile(fsys, c.file); err == nil {
		c.prev, _ = Decode(data)
	}
	return c
}

// Warm reports whether a previous build's cache was found.
func (c *Cache) Warm() bool { return c != nil && c.prev != nil }

// Markdown returns the cached rendering of the page at source path p,
// without HTML, when its inputs (gen) are unchanged.
func (c *Cache) Markdown(p string, gen uint64) (Markdown, bool) {
	if !c.Warm() {
		return Markdown{}, false
	}
	d, ok := c.prev.MD[p]
	return d, ok && d.Gen == gen
}

// KeepMarkdown records a page's rendering for the next build.
func (c *Cache) KeepMarkdown(p string, m Markdown) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.next.MD[p] = m
	c.mu.Unlock()
}

// Reuse takes output file p from the previous output folder into out when
// it was made from the same fingerprint and is untouched.
func (c *Cache) Reuse(out Reuser, p string, fp uint64) bool {
	if !c.Warm() {
		return false
	}
	p = strings.TrimPrefix(p, "/")
	o, ok := c.prev.Out[p]
	if !ok || o.FP != fp || !out.Reuse(p, o.Size, o.MTime) {
		return false
	}
	c.mu.Lock()
	c.next.Out[p] = File{FP: fp, Size: o.Size}
	c.reused++
	c.mu.Unlock()
	return true
}

// Made records an output file written by this build.
func (c *Cache) Made(p string, fp uint64, size int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.next.Out[strings.TrimPrefix(p, "/")] = File{FP: fp, Size: int64(size)}
	c.mu.Unlock()
}

// Reused is the number of output files Reuse took.
func (c *Cache) Reused() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reused
}

// PrevSize is the size of output file p in the previous build.
func (c *Cache) PrevSize(p string) int64 {
	if !c.Warm() {
		return 0
	}
	return c.prev.Out[strings.TrimPrefix(p, "/")].Size
}

// SameFiles reports whether this build's output files are exactly the
// previous build's.
func (c *Cache) SameFiles() bool {
	if c == nil {
		return false
	}
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

// Save writes the cache of a build whose output is now in the output
// folder as files stamps it (output.Staging.Files): it records each
// file's size and time as the folder has them, and removes the caches of
// other keys. Failing to write is no error: the next build is a cold one.
func (c *Cache) Save(files map[string]Stamp) {
	n := c.next
	for p, o := range n.Out {
		s, ok := files[p]
		if !ok || s.Size != o.Size {
			delete(n.Out, p)
			continue
		}
		o.MTime = s.MTime
		n.Out[p] = o
	}
	writeReplacing(c.fs, c.dir, c.file, ".bin", func(w io.Writer) error { return Encode(w, n) })
}

// writeReplacing writes file, in dir on fsys, through a temporary file
// renamed into place, as encode writes it, then removes the other files
// of dir named "build-*"+suffix (the caches or manifests of other keys)
// and their temporaries. Failing to write is no error: the next build is
// a cold one.
func writeReplacing(fsys afero.Fs, dir, file, suffix string, encode func(io.Writer) error) {
	if fsys.MkdirAll(dir, 0o755) != nil {
		return
	}
	tmp := file + ".tmp"
	f, err := fsys.Create(tmp)
	if err != nil {
		return
	}
	err = encode(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || fsys.Rename(tmp, file) != nil {
		fsys.Remove(tmp)
		return
	}
	if entries, err := afero.ReadDir(fsys, dir); err == nil {
		for _, e := range entries {
			name := e.Name()
			if p := filepath.Join(dir, name); p != file && strings.HasPrefix(name, "build-") &&
				(strings.HasSuffix(name, suffix) || strings.HasSuffix(name, suffix+".tmp")) {
				fsys.Remove(p)
			}
		}
	}
}
