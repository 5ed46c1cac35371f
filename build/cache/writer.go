package cache

import (
	"fmt"
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
