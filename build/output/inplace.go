package output

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"
)

// A commit in place: when most of the new site is files taken unchanged
// from the destination (Reuse), the destination is updated rather than
// replaced. The files written are moved into it, each by a rename over
// the file it replaces, and the files and folders of the destination the
// new site does not hold are removed; the files reused are never touched.
// Before the first change, the staging folder is given a journal
// (journalName) listing what is to be removed: from then on the commit
// goes to its end, and when the build is killed before it gets there,
// the next Stage finishes it (rollForward), the files still to move being
// those the staging folder still holds. A failed or interrupted build
// never gets as far as the journal: the destination stays as it was.

// journalName is the file of a staging folder whose commit in place has
// begun: "kakehashi-commit v1", then a line "r PATH" for each file of the
// destination to remove and "d PATH" for each folder, deepest first.
const journalName = ".kakehashi-commit"

// journalHead is the journal's first line.
const journalHead = "kakehashi-commit v1\n"

// destOps changes the destination folder: the operating system's with
// calls relative to each folder, never following a symbolic link, or
// another filesystem's by path.
type destOps interface {
	// remove removes the file (or link) at the output path p; a missing
	// one is no error.
	remove(p string) error
	// rmdir removes the folder d when it is empty, and reports whether
	// it did.
	rmdir(d string) bool
	// move renames the file at from (a path on the filesystem) to the
	// output path p, over the file there, making its folders.
	move(from, p string) error
	close()
}

// genericOps is destOps on any afero filesystem, by path.
type genericOps struct {
	fsys afero.Fs
	dest string
}

func (g genericOps) full(p string) string { return filepath.Join(g.dest, filepath.FromSlash(p)) }

func (g genericOps) remove(p string) error {
	if err := g.fsys.Remove(g.full(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (g genericOps) rmdir(d string) bool {
	if entries, err := afero.ReadDir(g.fsys, g.full(d)); err == nil && len(entries) == 0 {
		return g.fsys.Remove(g.full(d)) == nil
	}
	return false
}

func (g genericOps) move(from, p string) error {
	to := g.full(p)
	if err := g.fsys.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if info, err := lstat(g.fsys, to); err == nil && !info.IsDir() {
		g.fsys.Remove(to)
	}
	return g.fsys.Rename(from, to)
}

func (genericOps) close() {}

// opsFor is how the destination dest on fsys is changed in place with
// the files of the staging folder tmp; false where it cannot be (the
// commit then swaps the folders).
func opsFor(fsys afero.Fs, dest, tmp string) (destOps, bool, error) {
	if !isOS(fsys) {
		return genericOps{fsys, dest}, true, nil
	}
	return osOps(dest, tmp)
}

// inPlacePlan is what a commit in place does: the files to remove from
// the destination, its folders to remove (deepest first) and the files
// of the staging folder to move into it.
type inPlacePlan struct {
	removes, dirs, moves []string
}

// planInPlace plans the commit in place of the new site, whose files are
// keep (written or reused), over the destination as l lists it; moves
// are the files written. The marker is moved only when the destination
// has none.
func planInPlace(l listing, keep map[string]bool, written []string, markerKept bool) inPlacePlan {
	var pl inPlacePlan
	for p := range l.files {
		if !keep[p] {
			pl.removes = append(pl.removes, p)
		}
	}
	slices.Sort(pl.removes)
	needed := map[string]bool{}
	for p := range keep {
		parents(p, func(d string) bool {
			if needed[d] {
				return false
			}
			needed[d] = true
			return true
		})
	}
	for _, d := range l.dirs {
		if !needed[d] {
			pl.dirs = append(pl.dirs, d)
		}
	}
	slices.SortFunc(pl.dirs, func(a, b string) int {
		if da, db := depth(a), depth(b); da != db {
			return db - da
		}
		return strings.Compare(a, b)
	})
	pl.moves = slices.Clone(written)
	if !markerKept {
		pl.moves = append(pl.moves, MarkerName)
	}
	slices.Sort(pl.moves)
	return pl
}

// journal is the plan's journal: what to remove.
func (pl inPlacePlan) journal() []byte {
	var b bytes.Buffer
	b.WriteString(journalHead)
	for _, p := range pl.removes {
		b.WriteString("r " + p + "\n")
	}
	for _, d := range pl.dirs {
		b.WriteString("d " + d + "\n")
	}
	return b.Bytes()
}

// readJournal reads the journal of the staging folder tmp: what to
// remove from the destination; false when it has none (or one cut short,
// which was never complete: its commit had not begun).
func readJournal(fsys afero.Fs, tmp string) (inPlacePlan, bool) {
	data, err := afero.ReadFile(fsys, filepath.Join(tmp, journalName))
	if err != nil || !bytes.HasPrefix(data, []byte(journalHead)) {
		return inPlacePlan{}, false
	}
	var pl inPlacePlan
	for line := range strings.SplitSeq(strings.TrimPrefix(string(data), journalHead), "\n") {
		kind, p, ok := strings.Cut(line, " ")
		if !ok || CheckPath(p) != nil {
			continue
		}
		switch kind {
		case "r":
			pl.removes = append(pl.removes, p)
		case "d":
			pl.dirs = append(pl.dirs, p)
		}
	}
	return pl, true
}

// writeJournal leaves the plan's journal in tmp, complete or not at all
// (through a temporary file renamed).
func writeJournal(fsys afero.Fs, tmp string, pl inPlacePlan) error {
	part := filepath.Join(tmp, journalName+".part")
	if err := afero.WriteFile(fsys, part, pl.journal(), 0o644); err != nil {
		return err
	}
	return fsys.Rename(part, filepath.Join(tmp, journalName))
}

// apply carries out the plan: the files to remove first, then the
// folders, then the moves (from the staging folder tmp). It goes on
// after an error, and returns the first; gone are the folders it
// removed.
func (pl inPlacePlan) apply(ops destOps, tmp string) (gone []string, err error) {
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	for _, p := range pl.removes {
		keep(ops.remove(p))
	}
	for _, d := range pl.dirs {
		if ops.rmdir(d) {
			gone = append(gone, d)
		}
	}
	for _, p := range pl.moves {
		keep(ops.move(filepath.Join(tmp, filepath.FromSlash(p)), p))
	}
	return gone, first
}

// rollForward finishes the commit in place the build that made the
// staging folder tmp began, when it was killed before its end: what its
// journal says to remove, and every file tmp still holds moved into
// dest. It reports whether tmp had begun a commit; tmp is then to be
// removed.
func rollForward(fsys afero.Fs, tmp, dest string) (bool, error) {
	pl, ok := readJournal(fsys, tmp)
	if !ok {
		return false, nil
	}
	err := afero.Walk(fsys, tmp, func(p string, info fs.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, rerr := filepath.Rel(tmp, p)
		rel = filepath.ToSlash(rel)
		if rerr == nil && rel != journalName && rel != journalName+".part" && CheckPath(rel) == nil {
			pl.moves = append(pl.moves, rel)
		}
		return nil
	})
	if err != nil {
		return true, err
	}
	ops, ok, err := opsFor(fsys, dest, tmp)
	if err != nil || !ok {
		return true, fmt.Errorf("cannot finish the update of %s begun by a build that was stopped: %v", dest, err)
	}
	defer ops.close()
	_, err = pl.apply(ops, tmp)
	return true, err
}

// commitInPlace updates the destination with the new site (see the
// comment at the top of this file). The caller holds st.mu and has
// checked that the destination, as l lists it, can be.
func (st *Staging) commitInPlace(l listing, ops destOps) error {
	keep := map[string]bool{MarkerName: true}
	written := make([]string, 0, len(st.made))
	for p := range st.made {
		keep[p] = true
		written = append(written, p)
	}
	for p := range st.reuse {
		keep[p] = true
	}
	markerKept := st.markerStamp(l) != NotRegular
	pl := planInPlace(l, keep, written, markerKept)
	if err := writeJournal(st.fsys, st.tmp, pl); err != nil {
		return err
	}
	// From here on the commit goes to its end: a build killed now is
	// finished by the next (rollForward).
	gone, err := pl.apply(ops, st.tmp)
	// The new site's files, as it left them.
	files := make(map[string]Stamp, len(keep))
	for p, s := range st.made {
		files[p] = s
	}
	for p := range st.reuse {
		files[p] = l.files[p]
	}
	if markerKept {
		files[MarkerName] = l.files[MarkerName]
	} else {
		files[MarkerName] = st.marker
	}
	if err != nil {
		return fmt.Errorf("updating %s in place: %w (the next build finishes it)", st.dest, err)
	}
	st.fsys.RemoveAll(st.tmp)
	st.published = files
	st.foldersGone = map[string]bool{}
	for _, d := range gone {
		st.foldersGone[d] = true
	}
	return nil
}

// markerStamp is the stamp the destination's marker has when it can be
// kept as it is: a regular file of the marker's size, as l lists it.
func (st *Staging) markerStamp(l listing) Stamp {
	s, ok := l.files[MarkerName]
	if !ok || s == NotRegular || s.Size != int64(len(markerText)) {
		return NotRegular
	}
	return s
}

// pathError is an error of the system call on an output path.
type pathError struct {
	p   string
	err error
}

func (e *pathError) Error() string { return e.p + ": " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }
