// Package output is the write stage: it holds a built site in memory and
// publishes it to a folder atomically. Files are written into a temporary
// folder beside the destination, which is swapped in only when every file
// is written: a failed or interrupted build leaves the previous output as
// it was.
package output

import (
	"context"
	"fmt"
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
// searches). It is safe for concurrent use.
type Site struct {
	mu    sync.Mutex
	files map[string][]byte
	lazy  map[string]*Lazy
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

// Put stores a file, replacing any earlier one at the same path.
func (s *Site) Put(p string, b []byte) {
	p = strings.TrimPrefix(p, "/")
	s.mu.Lock()
	s.files[p] = b
	delete(s.lazy, p)
	s.mu.Unlock()
}

// PutLazy stores a file made on first read.
func (s *Site) PutLazy(p string, l *Lazy) {
	p = strings.TrimPrefix(p, "/")
	s.mu.Lock()
	s.lazy[p] = l
	delete(s.files, p)
	s.mu.Unlock()
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
	c := &Site{files: make(map[string][]byte, len(s.files)), lazy: make(map[string]*Lazy, len(s.lazy))}
	for p, b := range s.files {
		c.files[p] = b
	}
	for p, l := range s.lazy {
		c.lazy[p] = l
	}
	return c
}

// tmpPrefix names the temporary folders beside the destination.
const tmpPrefix = ".kakehashi-tmp-"

// Publish writes s to dest on fsys atomically: into a fresh temporary folder
// beside dest, then swapped in with renames. Temporary folders left by an
// interrupted earlier build are removed first.
func Publish(ctx context.Context, fsys afero.Fs, dest string, s *Site) error {
	dest = filepath.Clean(dest)
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	if err := fsys.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	removeStale(fsys, parent, base)
	tmp := filepath.Join(parent, fmt.Sprintf("%s%s-%d", tmpPrefix, base, os.Getpid()))
	if err := fsys.RemoveAll(tmp); err != nil {
		return err
	}
	if err := writeAll(ctx, fsys, tmp, s); err != nil {
		fsys.RemoveAll(tmp)
		return err
	}
	if err := ctx.Err(); err != nil {
		fsys.RemoveAll(tmp)
		return err
	}
	return swap(fsys, tmp, dest)
}

func removeStale(fsys afero.Fs, parent, base string) {
	entries, err := afero.ReadDir(fsys, parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, tmpPrefix+base+"-") || strings.HasPrefix(n, tmpPrefix+"old-"+base+"-") {
			fsys.RemoveAll(filepath.Join(parent, n))
		}
	}
}

// writeAll writes every file under root, in parallel.
func writeAll(ctx context.Context, fsys afero.Fs, root string, s *Site) error {
	paths := s.Paths()
	dirs := map[string]bool{}
	for _, p := range paths {
		dirs[path.Dir(p)] = true
	}
	dirList := make([]string, 0, len(dirs))
	for d := range dirs {
		dirList = append(dirList, d)
	}
	sort.Strings(dirList)
	for _, d := range dirList {
		if err := fsys.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	work := make(chan string)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) * 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				b, _ := s.Get(p)
				if err := afero.WriteFile(fsys, filepath.Join(root, filepath.FromSlash(p)), b, 0o644); err != nil {
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
// the leftovers. Put is safe for concurrent use.
type Staging struct {
	fsys       afero.Fs
	dest, tmp  string
	mu         sync.Mutex
	dirs       sync.Map // folder → *folder, made once each
	files      int
	bytes      int64
	committed  bool
	aborted    bool
	firstError error
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

// Dest is the destination folder.
func (st *Staging) Dest() string { return st.dest }

// Fs is the filesystem the site is written to.
func (st *Staging) Fs() afero.Fs { return st.fsys }

// Stage starts a publication to dest.
func Stage(fsys afero.Fs, dest string) (*Staging, error) {
	dest = filepath.Clean(dest)
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	if err := fsys.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	removeStale(fsys, parent, base)
	tmp := filepath.Join(parent, fmt.Sprintf("%s%s-%d", tmpPrefix, base, os.Getpid()))
	if err := fsys.RemoveAll(tmp); err != nil {
		return nil, err
	}
	if err := fsys.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	st := &Staging{fsys: fsys, dest: dest, tmp: tmp}
	root := &folder{}
	root.once.Do(func() {})
	st.dirs.Store(".", root)
	return st, nil
}

// Put writes one file of the new site.
func (st *Staging) Put(p string, b []byte) error {
	p = strings.TrimPrefix(p, "/")
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
	return afero.WriteFile(st.fsys, filepath.Join(st.tmp, filepath.FromSlash(p)), b, 0o644)
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
		if err := st.fsys.Mkdir(filepath.Join(st.tmp, filepath.FromSlash(dir)), 0o755); err != nil && !os.IsExist(err) {
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
}

// Commit swaps the new site in place of the destination.
func (st *Staging) Commit() error {
	st.mu.Lock()
	if st.aborted {
		st.mu.Unlock()
		return fmt.Errorf("output: commit after abort")
	}
	st.committed = true
	err := st.link()
	if err != nil {
		st.fsys.RemoveAll(st.tmp)
		st.mu.Unlock()
		return fmt.Errorf("output: taking unchanged files from %s: %w", st.dest, err)
	}
	err = swap(st.fsys, st.tmp, st.dest)
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

// swap moves tmp into dest's place, keeping dest if anything fails.
func swap(fsys afero.Fs, tmp, dest string) error {
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	old := filepath.Join(parent, fmt.Sprintf("%sold-%s-%d", tmpPrefix, base, os.Getpid()))
	hadOld := false
	if _, err := fsys.Stat(dest); err == nil {
		if err := fsys.Rename(dest, old); err != nil {
			fsys.RemoveAll(tmp)
			return fmt.Errorf("cannot move the previous %s aside: %w", dest, err)
		}
		hadOld = true
	}
	if err := fsys.Rename(tmp, dest); err != nil {
		if hadOld {
			fsys.Rename(old, dest)
		}
		fsys.RemoveAll(tmp)
		return fmt.Errorf("cannot move the new site into %s: %w", dest, err)
	}
	if hadOld {
		return fsys.RemoveAll(old)
	}
	return nil
}

// Reuse puts into the new site the file p of the current destination, if
// it exists with the given size and modification time (unix nanoseconds).
// The file is linked (or, where the filesystem cannot link, copied) into
// the new site on Commit, so a build that ends up changing nothing can be
// dropped without touching the disk. It reports whether p will be reused.
func (st *Staging) Reuse(p string, size, mtime int64) bool {
	p = strings.TrimPrefix(p, "/")
	info, err := st.fsys.Stat(filepath.Join(st.dest, filepath.FromSlash(p)))
	if err != nil || info.IsDir() || info.Size() != size || info.ModTime().UnixNano() != mtime {
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
	_, osfs := st.fsys.(*afero.OsFs)
	for _, p := range paths {
		if err := st.ensureDir(path.Dir(p)); err != nil {
			return err
		}
		src := filepath.Join(st.dest, filepath.FromSlash(p))
		dst := filepath.Join(st.tmp, filepath.FromSlash(p))
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
