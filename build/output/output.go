// Package output is the write stage: it holds a built site in memory and
// publishes it to a folder atomically. Files are written into a temporary
// folder beside the destination, which is swapped in only when every file
// is written: a failed or interrupted build leaves the previous output as
// it was. It writes nowhere else: every output path is checked (CheckPath)
// to stay inside the folder, every folder written holds a marker
// (IsOutput), and CheckDest refuses a destination holding anything that
// is not a previous output. Lock keeps two builds of a site from
// overlapping.
package output

import (
	"context"
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
// searches). A path that CheckPath refuses is not stored: the first one is
// kept as the site's error (see Err), and Publish refuses such a site. It
// is safe for concurrent use.
type Site struct {
	mu      sync.Mutex
	files   map[string][]byte
	lazy    map[string]*Lazy
	refused error
}

// Lazy is a file made on first read, once.
type Lazy struct {
	key  uint64
	once sync.Once
	made atomic.Bool
	make func() []byte
	data []byte
}

// NewLazy returns a lazy file made by fn. key identifies its content: two
// lazy files with the same key have the same bytes.
func NewLazy(key uint64, fn func() []byte) *Lazy { return &Lazy{key: key, make: fn} }

// Key identifies the lazy file's content.
func (l *Lazy) Key() uint64 { return l.key }

// Bytes makes the file if it was not made yet, and returns it.
func (l *Lazy) Bytes() []byte {
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

// Get returns a file's bytes, making a lazy file.
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

// Size is the number of files and their total bytes; a lazy file not made
// yet counts as a file of zero bytes.
func (s *Site) Size() (files int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.files {
		bytes += int64(len(b))
	}
	for _, l := range s.lazy {
		if l.made.Load() {
			bytes += int64(len(l.data))
		}
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

// writeAll writes every file of s into st, in parallel.
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
				b, _ := s.Get(p)
				if err := st.Put(p, b); err != nil {
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
