// Package output is the write stage: it holds a built site in memory and
// publishes it to a folder. Files are written into a temporary folder
// beside the destination, which is swapped in only when every file is
// written: a failed or interrupted build leaves the previous output as
// it was. A build that takes most of its files unchanged from the
// destination (Staging.Reuse) updates it in place instead, once every
// file is written: the files written are renamed over theirs and those
// that went are removed, after a journal that the next build finishes if
// this one is killed midway (inplace.go). It writes nowhere else: every
// output path is checked (CheckPath) to stay inside the folder, no link
// in the destination is followed, every folder written holds a marker
// (IsOutput), and CheckDest refuses a destination holding anything that
// is not a previous output. Lock keeps two builds of a site from
// overlapping.
package output

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/afero"
)

// Site is a built site: output paths ("ja/cka/05-ha-cluster/index.html")
// mapped to their bytes. A file may be lazy: made only when first read
// (the authoring server builds the search index only when a reader
// searches), or read from its source whenever it is written or served,
// never held (a page folder's attachment, a file of static/: see
// NewSource). A path that CheckPath refuses is not stored: the first one
// is kept as the site's error (see Err), and Publish refuses such a site.
// It is safe for concurrent use.
type Site struct {
	mu      sync.Mutex
	files   map[string][]byte
	lazy    map[string]*Lazy
	refused error
}

// Lazy is a file made on first read, once (NewLazy), or a file read from
// its source each time it is needed (NewSource).
type Lazy struct {
	key  uint64
	once sync.Once
	made atomic.Bool
	make func() []byte
	data []byte
	// A source file: opened by open, expected to hold size bytes.
	open func() (io.ReadCloser, error)
	size int64
}

// NewLazy returns a lazy file made by fn. key identifies its content: two
// lazy files with the same key have the same bytes.
func NewLazy(key uint64, fn func() []byte) *Lazy { return &Lazy{key: key, make: fn} }

// NewSource returns a file read from open, expected to hold size bytes,
// each time it is written (Publish), served or read (Bytes), and never
// kept: a site holding a large attachment takes no more memory than one
// without it. key identifies its content, as NewLazy's does.
func NewSource(key uint64, size int64, open func() (io.ReadCloser, error)) *Lazy {
	return &Lazy{key: key, open: open, size: size}
}

// Key identifies the lazy file's content.
func (l *Lazy) Key() uint64 { return l.key }

// Source reports whether the file is read from its source (NewSource)
// rather than made once and kept.
func (l *Lazy) Source() bool { return l.open != nil }

// Size is the bytes a source file is expected to hold, or the length of
// a made file once it is made (0 before).
func (l *Lazy) Size() int64 {
	if l.open != nil {
		return l.size
	}
	if l.made.Load() {
		return int64(len(l.data))
	}
	return 0
}

// Open opens the file for reading: a source file from its source, a made
// one (made now if it was not yet) from its bytes.
func (l *Lazy) Open() (io.ReadCloser, error) {
	if l.open != nil {
		return l.open()
	}
	return io.NopCloser(bytes.NewReader(l.Bytes())), nil
}

// Bytes makes the file if it was not made yet, and returns it. A source
// file is read whole, each time, and not kept; one that cannot be opened
// reads as nil, one gone short as what could be read of it (the
// authoring server's watcher has the site built again without it).
func (l *Lazy) Bytes() []byte {
	if l.open != nil {
		rc, err := l.open()
		if err != nil {
			return nil
		}
		defer rc.Close()
		var b bytes.Buffer
		b.Grow(int(l.size) + 1) // the read that finds the end needs room
		b.ReadFrom(rc)
		return b.Bytes()
	}
	l.once.Do(func() {
		l.data = l.make()
		l.make = nil
		l.made.Store(true)
	})
	return l.data
}

// New returns an empty Site.
func New() *Site { return &Site{files: map[string][]byte{}, lazy: map[string]*Lazy{}} }

// Put stores a file, replacing any earlier one at the same path. A leading
// "/" is dropped; a path CheckPath refuses is not stored, and makes Err
// report it.
func (s *Site) Put(p string, b []byte) {
	p = strings.TrimPrefix(p, "/")
	s.mu.Lock()
	if s.refuse(p) {
		s.mu.Unlock()
		return
	}
	s.files[p] = b
	delete(s.lazy, p)
	s.mu.Unlock()
}

// PutLazy stores a file made on first read, refusing a path as Put does.
func (s *Site) PutLazy(p string, l *Lazy) {
	p = strings.TrimPrefix(p, "/")
	s.mu.Lock()
	if s.refuse(p) {
		s.mu.Unlock()
		return
	}
	s.lazy[p] = l
	delete(s.files, p)
	s.mu.Unlock()
}

// refuse reports whether p is refused, keeping the first refusal. The
// caller holds s.mu.
func (s *Site) refuse(p string) bool {
	err := CheckPath(p)
	if err != nil && s.refused == nil {
		s.refused = err
	}
	return err != nil
}

// Err reports the first path Put or PutLazy refused, or nil.
func (s *Site) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Get returns a file's bytes, making a lazy file and reading a source
// file whole (see Open for one that may be large).
func (s *Site) Get(p string) ([]byte, bool) {
	p = strings.TrimPrefix(p, "/")
	s.mu.Lock()
	b, ok := s.files[p]
	l := s.lazy[p]
	s.mu.Unlock()
	if l != nil {
		return l.Bytes(), true
	}
	return b, ok
}

// Open opens the file at p for reading, and tells the bytes it is
// expected to hold: a source file is read from its source, a piece at a
// time, never held whole.
func (s *Site) Open(p string) (io.ReadCloser, int64, error) {
	p = strings.TrimPrefix(p, "/")
	s.mu.Lock()
	b, ok := s.files[p]
	l := s.lazy[p]
	s.mu.Unlock()
	switch {
	case l != nil && l.Source():
		rc, err := l.Open()
		return rc, l.size, err
	case l != nil:
		b = l.Bytes()
	case !ok:
		return nil, 0, fmt.Errorf("output: %s: %w", p, fs.ErrNotExist)
	}
	return io.NopCloser(bytes.NewReader(b)), int64(len(b)), nil
}

// Lazy returns the lazy file at p, if p is one.
func (s *Site) Lazy(p string) (*Lazy, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.lazy[strings.TrimPrefix(p, "/")]
	return l, ok
}

// Delete removes a file.
func (s *Site) Delete(p string) {
	p = strings.TrimPrefix(p, "/")
	s.mu.Lock()
	delete(s.files, p)
	delete(s.lazy, p)
	s.mu.Unlock()
}

// Paths lists every file, lazy ones included, sorted.
func (s *Site) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.files)+len(s.lazy))
	for p := range s.files {
		out = append(out, p)
	}
	for p := range s.lazy {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Size is the number of files and their total bytes; a source file
// counts the bytes it is expected to hold, a lazy file not made yet
// zero.
func (s *Site) Size() (files int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.files {
		bytes += int64(len(b))
	}
	for _, l := range s.lazy {
		bytes += l.Size()
	}
	return len(s.files) + len(s.lazy), bytes
}

// Clone returns a copy sharing the (immutable) file contents.
func (s *Site) Clone() *Site {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &Site{files: make(map[string][]byte, len(s.files)), lazy: make(map[string]*Lazy, len(s.lazy)), refused: s.refused}
	for p, b := range s.files {
		c.files[p] = b
	}
	for p, l := range s.lazy {
		c.lazy[p] = l
	}
	return c
}

// Publish writes s to dest on fsys atomically: into a fresh temporary folder
// beside dest, then swapped in (see Stage and Staging.Commit). A site
// holding a path that Put refused is not written at all.
func Publish(ctx context.Context, fsys afero.Fs, dest string, s *Site) error {
	if err := s.Err(); err != nil {
		return err
	}
	st, err := Stage(ctx, fsys, dest)
	if err != nil {
		return err
	}
	if err := writeAll(ctx, st, s); err != nil {
		st.Abort()
		return err
	}
	return st.Commit(ctx)
}

// writeAll writes every file of s into st, in parallel; a source file is
// copied from its source a piece at a time (writeSource).
func writeAll(ctx context.Context, st *Staging, s *Site) error {
	paths := s.Paths()
	work := make(chan string)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) * 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				var err error
				if l, ok := s.Lazy(p); ok && l.Source() {
					err = writeSource(ctx, st, p, l)
				} else {
					b, _ := s.Get(p)
					err = st.Put(p, b)
				}
				if err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	var err error
feed:
	for _, p := range paths {
		select {
		case work <- p:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err != nil {
		return err
	}
	select {
	case err = <-errs:
		return err
	default:
	}
	return ctx.Err()
}

// writeSource copies the source file l into st at p, a piece at a time.
func writeSource(ctx context.Context, st *Staging, p string, l *Lazy) error {
	rc, err := l.Open()
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	defer rc.Close()
	if _, err := st.WriteFrom(ctx, p, rc, l.size); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}
