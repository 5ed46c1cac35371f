package translation

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/spf13/afero"
)

// Marked is what marking one translation did.
type Marked struct {
	Pair Pair
	// Status is how the pair stood before: its Hash is what the
	// translation's translated: field now records.
	Status PairStatus
	// Date is the day recorded ("2026-12-01").
	Date string
	// Unchanged: the translation was current already, and its file was
	// left as it was.
	Unchanged bool
	// CopyErr is why the copy of the original could not be kept in the
	// site's Store, nil when it was: the cache is not the repository's
	// and may be missing or read-only, so the translation is marked all
	// the same.
	CopyErr error
}

// Mark records that the translation of p, a pair of the site with both
// pages, is up to date with its original on the day of now, in now's
// location (the author's time zone): it writes "translated: DAY HASH"
// into the translation's front matter (the package's Mark), changing no
// other byte of the file, and keeps a copy of the original's file in the
// site's Store under Layout.Cache. A translation current already is left
// as it is. fsys is the filesystem the site folder Dir is on, written
// to: the file is replaced whole, by a temporary file beside it renamed
// over it with its permissions, so that a failure leaves it as it was.
// The error names the translation's file (as Show spells it).
func (s *Site) Mark(ctx context.Context, fsys afero.Fs, p Pair, now time.Time) (Marked, error) {
	if p.Missing() {
		return Marked{}, fmt.Errorf("%s: a pair without both pages cannot be marked", p.Key)
	}
	file := s.Show(p.Tr.Path)
	if err := ctx.Err(); err != nil {
		return Marked{}, fmt.Errorf("%s: %w", file, err)
	}
	st := Status(p.Orig, p.Tr)
	m := Marked{Pair: p, Status: st, Date: now.Format(time.DateOnly)}
	// A copy of the original as marked, for the side-by-side view.
	m.CopyErr = s.store(fsys).Save(st.Hash, p.Orig.Src)
	if st.State == Current {
		m.Unchanged = true
		return m, nil
	}
	if err := markFile(fsys, file, m.Date, st.Hash); err != nil {
		return m, fmt.Errorf("%s: %w", file, err)
	}
	return m, nil
}

// store is the site's copies of its originals as marked, on fsys.
func (s *Site) store(fsys afero.Fs) Store {
	return Store{Fs: fsys, Dir: filepath.ToSlash(filepath.Join(s.Dir, filepath.FromSlash(s.Layout.Cache), StoreDir))}
}

// markFile rewrites the translation's file at name on fsys with its
// translated: field saying date and hash.
func markFile(fsys afero.Fs, name, date, hash string) error {
	src, err := afero.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	out, err := Mark(src, date, hash)
	if err != nil {
		return err
	}
	return writeAtomic(fsys, name, out)
}

// writeAtomic replaces the file at name on fsys with data: a temporary
// file in the same folder, synced, with name's permissions, renamed over
// it. A failure leaves name as it was, and no temporary file.
func writeAtomic(fsys afero.Fs, name string, data []byte) error {
	info, err := fsys.Stat(name)
	if err != nil {
		return err
	}
	dir := filepath.Dir(name)
	tmp, err := afero.TempFile(fsys, dir, ".kakehashi-mark-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			fsys.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := fsys.Chmod(tmp.Name(), info.Mode().Perm()); err != nil && !errors.Is(err, fs.ErrPermission) {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := fsys.Rename(tmp.Name(), name); err != nil {
		return err
	}
	done = true
	if d, err := fsys.Open(dir); err == nil {
		d.Sync() // the rename itself, where the system allows it
		d.Close()
	}
	return nil
}
