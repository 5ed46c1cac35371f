package cache

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// Writer writes a build's files into its sink, taking from the previous
// output, through the persistent cache c, every file made from the same
// fingerprint (a nil c reuses nothing). It keeps the first error. It is
// safe for concurrent use.
type Writer struct {
	sink  output.Sink
	cache *Cache
	mu    sync.Mutex
	err   error
}

// NewWriter returns a Writer into sink, reusing through c.
func NewWriter(sink output.Sink, c *Cache) *Writer { return &Writer{sink: sink, cache: c} }

// Put writes one file.
func (w *Writer) Put(p string, data []byte) {
	if err := w.sink.WriteFile(p, data); err != nil {
		w.mu.Lock()
		if w.err == nil {
			w.err = fmt.Errorf("writing %s: %w", p, err)
		}
		w.mu.Unlock()
	}
}

// PutFile writes a file whose fingerprint is its own bytes, reusing the
// previous output's copy when they are the same.
func (w *Writer) PutFile(p string, data []byte) {
	if w.cache == nil {
		w.Put(p, data)
		return
	}
	h := NewHasher()
	h.Bytes(data)
	w.PutMade(p, h.Sum(), data)
}

// PutMade writes a file made from fingerprint fp, unless the previous
// output's copy, made from the same, can be reused.
func (w *Writer) PutMade(p string, fp uint64, data []byte) {
	if !w.cache.Reuse(w.sink, p, fp) {
		w.Put(p, data)
		w.cache.Made(p, fp, len(data))
	}
}

// Err is the first error a write met.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// PutMadeSet writes the set of files mk returns (by output path), all
// made from fingerprint fp, the set named key: when the previous build
// made the set of that name from the same, its files are taken from the
// previous output, and mk is not called; else they are made and
// written, and the set recorded for the next build (Record).
func (w *Writer) PutMadeSet(key string, fp uint64, mk func() map[string][]byte) {
	key = "set\x00" + key
	if prev, list, ok := w.cache.Record(key); ok && prev == fp && w.reuseAll(strings.Split(string(list), "\n"), fp) {
		w.cache.KeepRecord(key, fp, nil)
		return
	}
	files := mk()
	paths := make([]string, 0, len(files))
	for p, data := range files {
		w.PutMade(p, fp, data)
		paths = append(paths, p)
	}
	slices.Sort(paths)
	w.cache.KeepRecord(key, fp, func() []byte { return []byte(strings.Join(paths, "\n")) })
}

// reuseAll takes every file at paths, made from fp, from the previous
// output, and reports whether it could.
func (w *Writer) reuseAll(paths []string, fp uint64) bool {
	c := w.cache
	for _, p := range paths {
		if o, ok := c.prev[strings.TrimPrefix(p, "/")]; !ok || o.FP != fp {
			return false
		}
	}
	for _, p := range paths {
		if !c.Reuse(w.sink, p, fp) {
			return false
		}
	}
	return true
}
