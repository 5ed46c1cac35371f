package output

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/afero"
)

// Staging is a publication in progress: files are written into a fresh
// temporary folder beside the destination as they are produced, and the
// folder replaces the destination only on Commit; or, when most of the
// site is files of the destination taken unchanged (Reuse), Commit moves
// the files written into the destination and removes the files that went
// (see inplace.go). Abort (or a process killed before Commit) leaves the
// destination as it was; the next Stage removes the leftovers, or
// finishes a commit in place that was killed midway. The temporary
// folder is owned (locked) by its Staging for as long as it lives, so
// that another build's clean-up leaves it alone. Put is safe for
// concurrent use.
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
	reuse      map[string]Stamp // files to take from the destination on Commit
	written    int
	keep       bool   // Keep: Commit leaves the destination as it is
	trash      string // the previous site, swapped out, for Commit to remove
	// foldersGone are the destination's folders a commit in place
	// removed; nil unless it committed in place.
	foldersGone map[string]bool
	// listing is what the destination held when first asked (Listing),
	// found with the help of hint (Hint).
	listing func() listing
	hint    *Hint
	// made are the files written, as they were left; marker is the
	// staging folder's marker, as it was left.
	made   map[string]Stamp
	marker Stamp
	// published are the new site's files as Commit left them.
	published map[string]Stamp
	// queue holds the files Put was given until they are written.
	queue writeQueue
}

// Keep says the destination already holds this publication, whatever was
// put: Commit then leaves it untouched and removes the staging folder
// (the functions given to AfterCommit do not run), as Abort does, but
// reports success.
func (st *Staging) Keep() {
	st.mu.Lock()
	st.keep = true
	st.mu.Unlock()
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
// previous site it left beside dest is put back. A cancelled ctx leaves
// the remaining leftovers for the next Stage; the Staging is made anyway
// (the caller aborts it).
func Stage(ctx context.Context, fsys afero.Fs, dest string) (*Staging, error) {
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
	removeStale(ctx, fsys, parent, base)
	tmp, own, err := mkTmp(fsys, parent, base)
	if err != nil {
		return nil, err
	}
	marker, err := writeFile(fsys, filepath.Join(tmp, MarkerName), func(f afero.File) (int64, error) {
		n, err := f.Write([]byte(markerText))
		return int64(n), err
	})
	if err != nil {
		fsys.RemoveAll(tmp)
		own.release()
		return nil, err
	}
	st := &Staging{fsys: fsys, dest: dest, tmp: tmp, own: own, exchange: exchange, marker: marker, made: map[string]Stamp{}}
	st.listing = sync.OnceValue(func() listing {
		st.mu.Lock()
		h := st.hint
		st.mu.Unlock()
		return list(fsys, dest, h)
	})
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

// Put writes one file of the new site: it is queued, and written by the
// staging's one writer (queue.go); b is the staging's from then on, never
// modified. A path CheckPath refuses, or that names the marker, is
// refused with an error naming it; an error writing the file is Flush's,
// and Commit's.
func (st *Staging) Put(p string, b []byte) error {
	p, full, err := st.begin(p, int64(len(b)), false)
	if err != nil {
		return err
	}
	st.putLater(p, full, b)
	return nil
}

// write writes the file of output path p at full, as fill writes it,
// and records how it was left.
func (st *Staging) write(p, full string, fill func(afero.File) (int64, error)) (int64, error) {
	var n int64
	s, err := writeFile(st.fsys, full, func(f afero.File) (int64, error) {
		var err error
		n, err = fill(f)
		return n, err
	})
	if err != nil {
		return n, err
	}
	st.mu.Lock()
	st.made[p] = s
	st.mu.Unlock()
	return n, nil
}

// writeFile makes the file full on fsys, as fill writes it, and returns
// how it was left.
func writeFile(fsys afero.Fs, full string, fill func(afero.File) (int64, error)) (Stamp, error) {
	f, err := fsys.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return Stamp{}, err
	}
	_, err = fill(f)
	var info fs.FileInfo
	if err == nil {
		info, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Stamp{}, err
	}
	return stampOf(info), nil
}

// WriteFrom writes one file of the new site from r, as Put does, copying
// it piece by piece (Copy): a file of any size takes little memory; size
// is not needed. It stops with ctx's error when ctx is done; Commit is
// then refused by its own check of ctx, or the caller aborts.
func (st *Staging) WriteFrom(ctx context.Context, p string, r io.Reader, _ int64) (int64, error) {
	st.settle(strings.TrimPrefix(p, "/")) // a file Put queued at p is written first
	p, full, err := st.begin(p, 0, true)
	if err != nil {
		return 0, err
	}
	n, err := st.write(p, full, func(f afero.File) (int64, error) { return Copy(ctx, f, r) })
	st.mu.Lock()
	st.bytes += n
	st.mu.Unlock()
	return n, err
}

// begin counts a file of size bytes about to be written at p, making its
// folder when mkdir (else the writer makes it), and returns p without a
// leading "/" and where it goes; a path CheckPath refuses, or that names
// the marker, is refused with an error naming it.
func (st *Staging) begin(p string, size int64, mkdir bool) (string, string, error) {
	p = strings.TrimPrefix(p, "/")
	full, err := st.path(p)
	if err != nil {
		return "", "", err
	}
	dir := path.Dir(p)
	st.mu.Lock()
	if st.committed || st.aborted {
		st.mu.Unlock()
		return "", "", fmt.Errorf("output: %s written after the publication ended", p)
	}
	st.mu.Unlock()
	// Folders are made outside the lock: another worker goes on while
	// this one waits for the disk.
	if mkdir {
		if err := st.ensureDir(dir); err != nil {
			return "", "", err
		}
	}
	st.mu.Lock()
	if prev, reused := st.reuse[p]; reused {
		// Written after all: the new bytes win.
		delete(st.reuse, p)
		st.files--
		st.bytes -= prev.Size
	}
	st.files++
	st.bytes += size
	st.written++
	st.mu.Unlock()
	return p, full, nil
}

// path is where the output path p goes in the new site.
func (st *Staging) path(p string) (string, error) {
	if err := st.check(p); err != nil {
		return "", err
	}
	return within(st.tmp, p)
}

// check refuses an output path CheckPath refuses, or that names a file
// kakehashi keeps in its output folders.
func (st *Staging) check(p string) error {
	if p == MarkerName || p == journalName || p == journalName+".part" {
		return fmt.Errorf("output path %q is the name of a file kakehashi keeps in its output folders", p)
	}
	return CheckPath(p)
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
	st.Flush()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.committed || st.aborted {
		return
	}
	st.aborted = true
	st.fsys.RemoveAll(st.tmp)
	st.own.release()
}

// Hint tells the listing of the destination (Listing) what it held when
// an earlier listing found it, as the last build left it (Files,
// Folders): the folders whose stamps did not change since are not read
// again. It counts only when given before Listing is first called.
func (st *Staging) Hint(h *Hint) {
	st.mu.Lock()
	st.hint = h
	st.mu.Unlock()
}

// Folders is every folder of the destination with its stamp as the
// listing found it ("" for the destination itself), but those a commit
// in place removed, and when that listing began: with Files, the Hint
// of the next build's listing. It is nil when the destination was not
// listed on the operating system's disk, or was replaced whole.
func (st *Staging) Folders() (map[string]Stamp, int64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.published == nil || st.foldersGone == nil {
		return nil, 0
	}
	l := st.listing()
	if l.err != nil || l.dirStamps == nil {
		return nil, 0
	}
	out := make(map[string]Stamp, len(l.dirStamps))
	for d, s := range l.dirStamps {
		if !st.foldersGone[d] {
			out[d] = s
		}
	}
	return out, l.taken
}

// Listing is every file the destination held when Listing was first
// called, by slash path relative to it, with its stamp (NotRegular for
// an entry that is neither a folder nor a regular file, such as a
// symbolic link, which is not followed); an empty map when there is no
// destination yet. Reuse compares with it; a build calls it early, for
// the listing to be made while it does other work.
func (st *Staging) Listing() (map[string]Stamp, error) {
	l := st.listing()
	return l.files, l.err
}

// Files is every file of the new site as Commit left it in the
// destination, by slash path, the marker included: what Listing would
// find there now. It is nil before a successful Commit, and after one
// that kept the destination as it was (Keep).
func (st *Staging) Files() map[string]Stamp {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.published
}

// Reuse puts into the new site the file p of the current destination, if
// it exists with the given size and modification time (unix nanoseconds).
// The file is linked (or, where the filesystem cannot link, copied) into
// the new site on Commit, so a build that ends up changing nothing can be
// dropped without touching the disk. It reports whether p will be reused.
// A path CheckPath refuses is not reused, and makes Commit fail.
func (st *Staging) Reuse(p string, size, mtime int64) bool {
	p = strings.TrimPrefix(p, "/")
	if err := st.check(p); err != nil {
		st.mu.Lock()
		if st.firstError == nil {
			st.firstError = err
		}
		st.mu.Unlock()
		return false
	}
	if l := st.listing(); l.err == nil {
		// The listing holds the destination's files by the paths they
		// are at: p names one of them, or none.
		if l.files[p] != (Stamp{Size: size, MTime: mtime}) {
			return false
		}
	} else if src, err := within(st.dest, p); err != nil {
		return false
	} else if info, err := lstat(st.fsys, src); err != nil || stampOf(info) != (Stamp{Size: size, MTime: mtime}) {
		return false
	}
	st.settle(p) // a file Put queued at p is written before it is dropped
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.committed || st.aborted {
		return false
	}
	if st.reuse == nil {
		st.reuse = map[string]Stamp{}
	}
	if _, dup := st.reuse[p]; !dup {
		st.files++
		st.bytes += size
	}
	st.reuse[p] = Stamp{Size: size, MTime: mtime}
	delete(st.made, p) // reused after all: the file written is not the site's
	return true
}

// Written is the number of files written by Put (not reused).
func (st *Staging) Written() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.written
}
