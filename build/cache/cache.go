// Package cache is the persistent build cache: what a build leaves in a
// folder for the next process to skip what is already made. Pages whose
// template data did not change are taken from the previous output folder
// (left where they are, or linked), markdown whose inputs did not change
// is not rendered again, the search indexes are updated from the state
// their last build kept, and the feeds are kept when what they hold did
// not change.
//
// The cache is a Store in its folder (an index, and a data file mapped
// into memory that a save appends to), named by a key the builder hands
// in (covering the kakehashi executable, the theme's layouts and
// shortcodes, the UI strings and the options), holding records: the
// output files, and each page's markdown and search terms; anything else
// a result depends on is in the fingerprints that lead each record.
// Beside it are the manifest of the last build (SkipUnchanged) and the
// hint of the destination's listing. Deleting them is always safe: the
// next build is a cold one. The package also holds the Hasher those keys
// and fingerprints are made with. It knows nothing of the builder.
package cache

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// Data is what a build leaves for the next one. The cache keeps it in a
// Store, in records: the output files together, and each page's
// markdown and each page's search terms apart, so that a build reads
// only those it asks for and writes only those that changed.
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

// Cache is one build's view of the persistent cache: the one the last
// build left on disk, and the one being made. A nil *Cache is a build
// without one: it finds nothing and records nothing. Its methods are
// safe for concurrent use.
type Cache struct {
	fs    afero.Fs
	dir   string
	name  string // of the store, and of the files of this key
	file  string // the index of the store: the cache's file
	store *Store
	prev  map[string]File // the output files of the last build; nil for none
	mu    sync.Mutex
	next  map[string]File // the output files of this build
	// live are the records of the store this build keeps (key →
	// true): the markdown and search terms of pages that did not
	// change, and those made again.
	live    sync.Map
	keepAll atomic.Bool
	reused  int // output files taken from the previous output
}

// The records of a cache's store: the output files, and by page its
// markdown and its search terms, each led by the fingerprint it was made
// from (8 bytes, little-endian), so that a stale one is known unread.
const (
	outRecord    = "out"
	mdPrefix     = "m\x00"
	searchPrefix = "s\x00"
)

// Open reads the cache named by key in dir on fsys. A missing or
// unreadable cache is an empty one (a cold build follows).
func Open(fsys afero.Fs, dir string, key uint64) *Cache {
	shape, _ := diskShape()
	name := fmt.Sprintf("build-%016x-%04x", key, uint16(shape))
	c := &Cache{fs: fsys, dir: dir, name: name, store: OpenStore(fsys, dir, name), next: map[string]File{}}
	c.file = c.store.indexFile()
	if b, ok := c.store.Get(outRecord); ok {
		if out, ok := decodeFiles(b); ok {
			c.prev = out
		}
	}
	return c
}

// Warm reports whether a previous build's cache was found.
func (c *Cache) Warm() bool { return c != nil && c.prev != nil }

// record is the record of the store at key when it was made from fp:
// what follows its fingerprint.
func (c *Cache) record(key string, fp uint64) ([]byte, bool) {
	if !c.Warm() {
		return nil, false
	}
	b, ok := c.store.Get(key)
	if !ok || len(b) < 8 || binary.LittleEndian.Uint64(b) != fp {
		return nil, false
	}
	return b[8:], true
}

// keep records for the next build the record at key made from fp, as it
// is when the store already has it so, else as make writes it; after
// KeepAll, as make writes it.
func (c *Cache) keep(key string, fp uint64, make func() []byte) {
	if _, ok := c.record(key, fp); (!ok || c.keepAll.Load()) && make != nil {
		b := binary.LittleEndian.AppendUint64(nil, fp)
		c.store.Put(key, append(b, make()...))
	}
	c.live.Store(key, true)
}

// Markdown returns the cached rendering of the page at source path p,
// without HTML, when its inputs (gen) are unchanged.
func (c *Cache) Markdown(p string, gen uint64) (Markdown, bool) {
	b, ok := c.record(mdPrefix+p, gen)
	if !ok {
		return Markdown{}, false
	}
	m, ok := decodeMarkdown(b)
	if !ok && decodeRecord(b, &m) != nil {
		return Markdown{}, false
	}
	if m.Gen != gen {
		return Markdown{}, false
	}
	return m, true
}

// KeepMarkdown records a page's rendering for the next build.
func (c *Cache) KeepMarkdown(p string, m Markdown) {
	if c == nil {
		return
	}
	c.keep(mdPrefix+p, m.Gen, func() []byte { return encodeRecord(&m) })
}

// KeepAll keeps, in the cache Save writes, every record of the last
// build's that this build did not replace: for a tool that changes a few
// records of a cache and leaves the rest. What the cache is given from
// then on replaces its record, whatever the fingerprints say.
func (c *Cache) KeepAll() {
	c.mu.Lock()
	c.keepAll.Store(true)
	if c.prev != nil {
		for p, o := range c.prev {
			if _, ok := c.next[p]; !ok {
				c.next[p] = o
			}
		}
	}
	c.mu.Unlock()
}

// Reuse takes output file p from the previous output folder into out when
// it was made from the same fingerprint and is untouched.
func (c *Cache) Reuse(out Reuser, p string, fp uint64) bool {
	if !c.Warm() {
		return false
	}
	p = strings.TrimPrefix(p, "/")
	o, ok := c.prev[p]
	if !ok || o.FP != fp || !out.Reuse(p, o.Size, o.MTime) {
		return false
	}
	c.mu.Lock()
	c.next[p] = File{FP: fp, Size: o.Size}
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
	c.next[strings.TrimPrefix(p, "/")] = File{FP: fp, Size: int64(size)}
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
	return c.prev[strings.TrimPrefix(p, "/")].Size
}

// SameFiles reports whether this build's output files are exactly the
// previous build's.
func (c *Cache) SameFiles() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.prev == nil || len(c.prev) != len(c.next) {
		return false
	}
	for p := range c.next {
		if _, ok := c.prev[p]; !ok {
			return false
		}
	}
	return true
}

// Save writes the cache of a build whose output is now in the output
// folder as files stamps it (output.Staging.Files): it records each
// file's size and time as the folder has them, keeps the records this
// build made or kept, and removes the caches of other keys. Failing to
// write is no error: the next build is a cold one.
func (c *Cache) Save(files map[string]Stamp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]File, len(c.next))
	for p, o := range c.next {
		if s, ok := files[p]; ok && s.Size == o.Size {
			o.MTime = s.MTime
			out[p] = o
		}
	}
	c.store.Put(outRecord, encodeFiles(out))
	all := c.keepAll.Load()
	c.store.Save(func(k string) bool {
		if k == outRecord || all {
			return true
		}
		_, ok := c.live.Load(k)
		return ok
	})
	// The caches of other keys, and of the formats before this one.
	if entries, err := afero.ReadDir(c.fs, c.dir); err == nil {
		for _, e := range entries {
			n := e.Name()
			if strings.HasPrefix(n, "build-") && !strings.HasPrefix(n, c.name+".") && !strings.HasSuffix(n, ".manifest") {
				c.fs.Remove(filepath.Join(c.dir, n))
			}
		}
	}
}

// encodeFiles writes the output files' record: a count, then each path
// with its fingerprint, size and time, in no order (decodeFiles makes the
// same map of them).
func encodeFiles(files map[string]File) []byte {
	b := make([]byte, 0, 64*len(files))
	b = binary.AppendUvarint(b, uint64(len(files)))
	for p, f := range files {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		b = binary.LittleEndian.AppendUint64(b, f.FP)
		b = binary.AppendVarint(b, f.Size)
		b = binary.AppendVarint(b, f.MTime)
	}
	return b
}

// decodeFiles reads what encodeFiles wrote; its paths are b's bytes (a
// Store's).
func decodeFiles(b []byte) (map[string]File, bool) {
	d := &diskReader{b: b, alias: true}
	n := d.count()
	files := make(map[string]File, n)
	for range n {
		p := d.str()
		if len(d.b) < 8 {
			return nil, false
		}
		fp := binary.LittleEndian.Uint64(d.b)
		d.b = d.b[8:]
		files[p] = File{FP: fp, Size: d.int(), MTime: d.int()}
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, false
	}
	return files, true
}

// encodeRecord is *v (v a pointer to a type shapeOf accepts) in the
// cache's encoding, without a magic line or shape: the cache's name
// covers the shape of Data.
func encodeRecord(v any) []byte {
	var b bytes.Buffer
	e := &diskWriter{w: bufio.NewWriter(&b)}
	e.value(reflect.ValueOf(v).Elem())
	e.w.Flush()
	return b.Bytes()
}

// decodeRecord reads into *v what encodeRecord wrote of a value of the
// same type. Its strings are b's bytes (b is a Store's: never written
// to, kept for the life of the process).
func decodeRecord(b []byte, v any) error {
	d := &diskReader{b: b, alias: true}
	d.value(reflect.ValueOf(v).Elem(), 0)
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	return d.err
}

// writeReplacing writes file, in dir on fsys, through a temporary file
// renamed into place, as encode writes it, then removes the other files
// of dir named "build-*"+suffix (the manifests of other keys) and their
// temporaries. Failing to write is no error: the next build does its
// work.
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
