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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
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
	st, err := Stage(fsys, dest)
	if err != nil {
		return err
	}
	if err := writeAll(ctx, st, s); err != nil {
		st.Abort()
		return err
	}
	if err := ctx.Err(); err != nil {
		st.Abort()
		return err
	}
	return st.Commit()
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

// Staging is a publication in progress: files are written into a fresh
// temporary folder beside the destination as they are produced, and the
// folder replaces the destination only on Commit. Abort (or a process
// killed midway) leaves the destination as it was; the next Stage removes
// the leftovers. The temporary folder is owned (locked) by its Staging for
// as long as it lives, so that another build's clean-up leaves it alone.
// Put is safe for concurrent use.
type Staging struct {
	fsys       afero.Fs
	dest, tmp  string
	own        *claim
	exchange   func(a, b string) error // swaps two folders in one step
	mu         sync.Mutex
	dirs       sync.Map // folder → *folder, made once each
	files      int
	bytes      int64
	committed  bool
	aborted    bool
	firstError error // the first path refused by Reuse
	after      []func()
	reuse      map[string]int64 // files to take from the destination on Commit
	written    int
}

// AfterCommit runs fn once the new site is in place (not after an abort).
func (st *Staging) AfterCommit(fn func()) {
	st.mu.Lock()
	st.after = append(st.after, fn)
	st.mu.Unlock()
}

// Dest is the destination folder: where a symbolic link given as the
// destination leads.
func (st *Staging) Dest() string { return st.dest }

// Fs is the filesystem the site is written to.
func (st *Staging) Fs() afero.Fs { return st.fsys }

// Stage starts a publication to dest. When dest is a symbolic link (on the
// OS's filesystem), the site is staged beside the folder it leads to and
// replaces that folder, so the link stays. dest must be a folder or
// missing. The temporary folders of builds that are gone are removed
// first, and when such a build was killed halfway through a swap, the
// previous site it left beside dest is put back.
func Stage(fsys afero.Fs, dest string) (*Staging, error) {
	dest, err := resolveDest(fsys, dest)
	if err != nil {
		return nil, err
	}
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	if err := fsys.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	if info, err := lstat(fsys, dest); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("%s is a file, not a folder", dest)
	}
	if err := restore(fsys, parent, base, dest); err != nil {
		return nil, err
	}
	removeStale(fsys, parent, base)
	tmp, own, err := mkTmp(fsys, parent, base)
	if err != nil {
		return nil, err
	}
	if err := afero.WriteFile(fsys, filepath.Join(tmp, MarkerName), []byte(markerText), 0o644); err != nil {
		fsys.RemoveAll(tmp)
		own.release()
		return nil, err
	}
	st := &Staging{fsys: fsys, dest: dest, tmp: tmp, own: own, exchange: exchange}
	root := &folder{}
	root.once.Do(func() {})
	st.dirs.Store(".", root)
	return st, nil
}

// resolveDest cleans dest and, on the OS's filesystem, follows it when it
// is a symbolic link (even one to a folder not made yet), so that the
// link itself is never replaced.
func resolveDest(fsys afero.Fs, dest string) (string, error) {
	dest = filepath.Clean(dest)
	if !isOS(fsys) {
		return dest, nil
	}
	for range 40 {
		info, err := os.Lstat(dest)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return dest, nil
		}
		to, err := os.Readlink(dest)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(dest), to)
		}
		dest = filepath.Clean(to)
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", dest)
}

// Put writes one file of the new site. A path CheckPath refuses, or that
// names the marker, is refused with an error naming it.
func (st *Staging) Put(p string, b []byte) error {
	p = strings.TrimPrefix(p, "/")
	full, err := st.path(p)
	if err != nil {
		return err
	}
	dir := path.Dir(p)
	st.mu.Lock()
	if st.committed || st.aborted {
		st.mu.Unlock()
		return fmt.Errorf("output: %s written after the publication ended", p)
	}
	st.mu.Unlock()
	// Folders are made outside the lock: another worker goes on while
	// this one waits for the disk.
	if err := st.ensureDir(dir); err != nil {
		return err
	}
	st.mu.Lock()
	if size, reused := st.reuse[p]; reused {
		// Written after all: the new bytes win.
		delete(st.reuse, p)
		st.files--
		st.bytes -= size
	}
	st.files++
	st.bytes += int64(len(b))
	st.written++
	st.mu.Unlock()
	return afero.WriteFile(st.fsys, full, b, 0o644)
}

// path is where the output path p goes in the new site.
func (st *Staging) path(p string) (string, error) {
	if p == MarkerName {
		return "", fmt.Errorf("output path %q is the name of the marker kakehashi keeps in its output folders", p)
	}
	return within(st.tmp, p)
}

// ensureDir makes the folder dir (slash-separated, relative) of the new
// site with one system call per new folder: the folders made so far are
// remembered, so only the missing ones are created, parents first. It is
// safe for concurrent use and needs no lock held.
func (st *Staging) ensureDir(dir string) error {
	v, _ := st.dirs.LoadOrStore(dir, &folder{})
	f := v.(*folder)
	f.once.Do(func() {
		if parent := path.Dir(dir); parent != dir {
			if f.err = st.ensureDir(parent); f.err != nil {
				return
			}
		}
		full, err := within(st.tmp, dir)
		if err != nil {
			f.err = err
			return
		}
		if err := st.fsys.Mkdir(full, 0o755); err != nil && !os.IsExist(err) {
			f.err = err
		}
	})
	return f.err
}

// folder is one folder of the new site, made once.
type folder struct {
	once sync.Once
	err  error
}

// Size is the number of files and bytes written so far.
func (st *Staging) Size() (files int, bytes int64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.files, st.bytes
}

// Abort discards what was written; the destination stays as it was.
func (st *Staging) Abort() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.committed || st.aborted {
		return
	}
	st.aborted = true
	st.fsys.RemoveAll(st.tmp)
	st.own.release()
}

// Commit swaps the new site in place of the destination. It fails, leaving
// the destination as it was, when Reuse was given a path it refused.
func (st *Staging) Commit() error {
	st.mu.Lock()
	if st.aborted || st.committed {
		st.mu.Unlock()
		return fmt.Errorf("output: commit after the publication ended")
	}
	st.committed = true
	defer st.own.release()
	if err := st.firstError; err != nil {
		st.fsys.RemoveAll(st.tmp)
		st.mu.Unlock()
		return err
	}
	err := st.link()
	if err != nil {
		st.fsys.RemoveAll(st.tmp)
		st.mu.Unlock()
		return fmt.Errorf("output: taking unchanged files from %s: %w", st.dest, err)
	}
	err = st.swap()
	after := st.after
	st.mu.Unlock()
	if err != nil {
		return err
	}
	for _, fn := range after {
		fn()
	}
	return nil
}

// swap moves the new site into the destination's place, keeping the
// destination if anything fails. On the OS's filesystem, where it can,
// it exchanges the two folders in one step: at every moment the
// destination is either the whole previous site or the whole new one.
// Elsewhere the previous site is moved aside into an "old" folder, owned
// by this build until the new site is in, and the next Stage puts it back
// if the build was killed in between.
func (st *Staging) swap() error {
	fsys, tmp, dest := st.fsys, st.tmp, st.dest
	if _, err := lstat(fsys, dest); errors.Is(err, fs.ErrNotExist) {
		if err := fsys.Rename(tmp, dest); err != nil {
			fsys.RemoveAll(tmp)
			return fmt.Errorf("cannot move the new site into %s: %w", dest, err)
		}
		return nil
	}
	if isOS(fsys) && st.exchange != nil && st.exchange(tmp, dest) == nil {
		// tmp now holds the previous site, ownerless: if this build is
		// killed before it is gone, the next one removes it.
		fsys.RemoveAll(tmp)
		return nil
	}
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	old := filepath.Join(parent, tmpName(kindOld, base))
	prev, err := own(fsys, dest)
	if err != nil {
		fsys.RemoveAll(tmp)
		return fmt.Errorf("cannot take hold of the previous %s: %w", dest, err)
	}
	defer prev.release()
	if err := fsys.Rename(dest, old); err != nil {
		fsys.RemoveAll(tmp)
		return fmt.Errorf("cannot move the previous %s aside: %w", dest, err)
	}
	if err := fsys.Rename(tmp, dest); err != nil {
		fsys.Rename(old, dest)
		fsys.RemoveAll(tmp)
		return fmt.Errorf("cannot move the new site into %s: %w", dest, err)
	}
	// The previous site is deleted under a name no build puts back, so
	// that a deletion cut short is never mistaken for a whole site.
	trash := filepath.Join(parent, tmpName(kindNew, base))
	if fsys.Rename(old, trash) == nil {
		old = trash
	}
	return fsys.RemoveAll(old)
}

// Reuse puts into the new site the file p of the current destination, if
// it exists with the given size and modification time (unix nanoseconds).
// The file is linked (or, where the filesystem cannot link, copied) into
// the new site on Commit, so a build that ends up changing nothing can be
// dropped without touching the disk. It reports whether p will be reused.
// A path CheckPath refuses is not reused, and makes Commit fail.
func (st *Staging) Reuse(p string, size, mtime int64) bool {
	p = strings.TrimPrefix(p, "/")
	if _, err := st.path(p); err != nil {
		st.mu.Lock()
		if st.firstError == nil {
			st.firstError = err
		}
		st.mu.Unlock()
		return false
	}
	src, err := within(st.dest, p)
	if err != nil {
		return false
	}
	info, err := lstat(st.fsys, src)
	if err != nil || !info.Mode().IsRegular() || info.Size() != size || info.ModTime().UnixNano() != mtime {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.committed || st.aborted {
		return false
	}
	if st.reuse == nil {
		st.reuse = map[string]int64{}
	}
	if _, dup := st.reuse[p]; !dup {
		st.files++
		st.bytes += size
	}
	st.reuse[p] = size
	return true
}

// Written is the number of files written by Put (not reused).
func (st *Staging) Written() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.written
}

// link brings the reused files into the new site. The caller holds st.mu.
func (st *Staging) link() error {
	paths := make([]string, 0, len(st.reuse))
	for p := range st.reuse {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	osfs := isOS(st.fsys)
	for _, p := range paths {
		if err := st.ensureDir(path.Dir(p)); err != nil {
			return err
		}
		src, err := within(st.dest, p)
		if err != nil {
			return err
		}
		dst, err := st.path(p)
		if err != nil {
			return err
		}
		if osfs {
			if err := os.Link(src, dst); err != nil {
				return err
			}
			continue
		}
		b, err := afero.ReadFile(st.fsys, src)
		if err != nil {
			return err
		}
		if err := afero.WriteFile(st.fsys, dst, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
