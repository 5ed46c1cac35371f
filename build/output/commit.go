package output

// Commit: how a staging folder takes the destination's place, whole
// (swap) or by moving in what was written (inplace.go), and what it takes
// of the destination unchanged (link, copyFile).

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"sync"

	"github.com/spf13/afero"
)

// Commit swaps the new site in place of the destination. It fails, leaving
// the destination as it was, when Reuse was given a path it refused or
// when ctx is cancelled first (the publication is then aborted).
func (st *Staging) Commit(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		st.Abort()
		return err
	}
	if err := st.Flush(); err != nil {
		st.Abort()
		return err
	}
	st.mu.Lock()
	if st.aborted || st.committed {
		st.mu.Unlock()
		return fmt.Errorf("output: commit after the publication ended")
	}
	st.committed = true
	defer st.own.release()
	if st.keep {
		st.fsys.RemoveAll(st.tmp)
		st.mu.Unlock()
		return nil
	}
	if err := st.firstError; err != nil {
		st.fsys.RemoveAll(st.tmp)
		st.mu.Unlock()
		return err
	}
	if l, ops, ok := st.inPlace(); ok {
		err := st.commitInPlace(l, ops)
		ops.close()
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
	files, err := st.link(ctx)
	if err != nil {
		st.fsys.RemoveAll(st.tmp)
		st.mu.Unlock()
		return fmt.Errorf("output: taking unchanged files from %s: %w", st.dest, err)
	}
	err = st.swap()
	if err == nil {
		st.published = files
	}
	after, trash := st.after, st.trash
	st.mu.Unlock()
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	if trash != "" {
		wg.Go(func() { st.fsys.RemoveAll(trash) })
	}
	for _, fn := range after {
		fn()
	}
	wg.Wait()
	return nil
}

// inPlace reports whether Commit updates the destination in place rather
// than replacing it, and how: when it is a folder that could be listed,
// and the new site takes at least as many of its files unchanged as it
// writes. The caller holds st.mu.
func (st *Staging) inPlace() (listing, destOps, bool) {
	if len(st.reuse) == 0 || len(st.reuse) < st.written {
		return listing{}, nil, false
	}
	l := st.listing()
	if l.err != nil || !l.exists {
		return listing{}, nil, false
	}
	ops, ok, err := opsFor(st.fsys, st.dest, st.tmp)
	if err != nil || !ok {
		return listing{}, nil, false
	}
	return l, ops, true
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
		// killed before it is gone, the next one removes it. Commit
		// removes it while the functions given to AfterCommit run.
		st.trash = tmp
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

// link brings the reused files into the new site, stopping when ctx is
// cancelled, on a few goroutines: on a large site it is thousands of
// links and folders, each a call to the system that waits on the disk's
// metadata. It returns every file of the new site as it will be in the
// destination. The caller holds st.mu.
func (st *Staging) link(ctx context.Context) (map[string]Stamp, error) {
	paths := make([]string, 0, len(st.reuse))
	for p := range st.reuse {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	osfs := isOS(st.fsys)
	// The new site's files, as they will be in the destination: a link
	// is the file it was taken from.
	files := make(map[string]Stamp, len(st.made)+len(paths)+1)
	for p, s := range st.made {
		files[p] = s
	}
	files[MarkerName] = st.marker
	one := func(p string) (Stamp, error) {
		if err := st.ensureDir(path.Dir(p)); err != nil {
			return Stamp{}, err
		}
		src, err := within(st.dest, p)
		if err != nil {
			return Stamp{}, err
		}
		dst, err := st.path(p)
		if err != nil {
			return Stamp{}, err
		}
		if osfs {
			return st.reuse[p], os.Link(src, dst)
		}
		return st.copyFile(ctx, src, dst)
	}
	const workers = 4
	var (
		wg    sync.WaitGroup
		errMu sync.Mutex
		first error
	)
	next := make(chan string)
	for range min(workers, len(paths)) {
		wg.Go(func() {
			for p := range next {
				s, err := one(p)
				errMu.Lock()
				files[p] = s
				if err != nil && first == nil {
					first = err
				}
				errMu.Unlock()
			}
		})
	}
	for _, p := range paths {
		errMu.Lock()
		failed := first != nil
		errMu.Unlock()
		if failed || ctx.Err() != nil {
			break
		}
		next <- p
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if first != nil {
		return nil, first
	}
	return files, nil
}

// copyFile copies the file src to dst on the staging's filesystem, piece
// by piece (Copy), and returns how it left the copy.
func (st *Staging) copyFile(ctx context.Context, src, dst string) (Stamp, error) {
	in, err := st.fsys.Open(src)
	if err != nil {
		return Stamp{}, err
	}
	defer in.Close()
	return writeFile(st.fsys, dst, func(f afero.File) (int64, error) { return Copy(ctx, f, in) })
}
