package output

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/afero"
)

// tmpPrefix names the temporary folders beside the destination:
// ".kakehashi-tmp-new-public-PID-R" is a new site being written (or, after
// a swap, an old one being deleted), ".kakehashi-tmp-old-public-PID-R" the
// previous site moved aside for a moment while the new one is moved in.
// PID is the process that named the folder, R makes the name unique.
const tmpPrefix = ".kakehashi-tmp-"

// The kinds of temporary folders.
const (
	kindNew = "new"
	kindOld = "old"
)

// tmpName names a fresh temporary folder of kind for the destination base.
func tmpName(kind, base string) string {
	var r [6]byte
	rand.Read(r[:])
	return fmt.Sprintf("%s%s-%s-%d-%s", tmpPrefix, kind, base, os.Getpid(), hex.EncodeToString(r[:]))
}

// parseTmp reports whether name is a temporary folder of kind for the
// destination base, and the process that named it. The name is read from
// the end, so that a destination named like another's folder ("old-x")
// cannot be mistaken for it.
func parseTmp(name, kind, base string) (pid int, ok bool) {
	rest, ok := strings.CutPrefix(name, tmpPrefix+kind+"-"+base+"-")
	if !ok {
		return 0, false
	}
	ps, r, ok := strings.Cut(rest, "-")
	if !ok || r == "" || strings.Contains(r, "-") || ps == "" || strings.Trim(ps, "0123456789") != "" {
		return 0, false
	}
	pid, err := strconv.Atoi(ps)
	return pid, err == nil
}

// isOS reports whether fsys is the operating system's filesystem, on which
// paths can be locked, linked and resolved.
func isOS(fsys afero.Fs) bool {
	_, ok := fsys.(*afero.OsFs)
	return ok
}

// claim is a folder owned by this process: an open descriptor of the
// folder holding an exclusive lock on it. The lock goes with the folder
// when it is renamed, and ends when the claim is released or the process
// ends, however it ends: a folder nobody can be found to hold belongs to
// a build that is gone.
type claim struct{ f *os.File }

// release gives the folder up.
func (c *claim) release() {
	if c != nil && c.f != nil {
		c.f.Close()
	}
}

// own claims the folder dir, which this process just made or moved. On a
// filesystem other than the OS's there is nothing to hold (see take).
func own(fsys afero.Fs, dir string) (*claim, error) {
	if !isOS(fsys) || !canLockDirs {
		return &claim{}, nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	ok, err := tryLock(f)
	if err == nil && !ok {
		err = fmt.Errorf("%s is held by another build", dir)
	}
	if err == nil {
		// The folder must still be the one made: another build may have
		// taken and removed it between its making and the lock.
		var a, b fs.FileInfo
		if a, err = f.Stat(); err == nil {
			if b, err = os.Lstat(dir); err == nil && !os.SameFile(a, b) {
				err = fmt.Errorf("%s was replaced while it was being claimed", dir)
			}
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &claim{f: f}, nil
}

// take claims the temporary folder dir, named by the process pid, when
// its owner is gone; it reports false while a live owner holds it. Where
// folders cannot be locked (a filesystem other than the OS's, or an OS
// without flock) a folder named by another process counts as ownerless,
// and one named by this process as owned.
func take(fsys afero.Fs, dir string, pid int) (*claim, bool) {
	if !isOS(fsys) || !canLockDirs {
		return &claim{}, pid != os.Getpid()
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, false
	}
	if ok, err := tryLock(f); err != nil || !ok {
		f.Close()
		return nil, false
	}
	return &claim{f: f}, true
}

// mkTmp makes a fresh temporary folder of kind for dest, owned by this
// process.
func mkTmp(fsys afero.Fs, parent, base string) (string, *claim, error) {
	var last error
	for range 10 {
		dir := filepath.Join(parent, tmpName(kindNew, base))
		if err := fsys.Mkdir(dir, 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				last = err
				continue
			}
			return "", nil, err
		}
		c, err := own(fsys, dir)
		if err != nil {
			// Taken by another build's clean-up in the moment between
			// the making and the lock: try another name.
			last = err
			continue
		}
		return dir, c, nil
	}
	return "", nil, fmt.Errorf("cannot make a staging folder beside %s: %w", filepath.Join(parent, base), last)
}

// tmpEntry is a temporary folder found beside a destination.
type tmpEntry struct {
	path, kind string
	pid        int
	info       fs.FileInfo
}

// tmpFolders lists the temporary folders of the destination base in
// parent.
func tmpFolders(fsys afero.Fs, parent, base string) []tmpEntry {
	entries, err := afero.ReadDir(fsys, parent)
	if err != nil {
		return nil
	}
	var out []tmpEntry
	for _, e := range entries {
		for _, kind := range []string{kindNew, kindOld} {
			if pid, ok := parseTmp(e.Name(), kind, base); ok && e.IsDir() {
				out = append(out, tmpEntry{path: filepath.Join(parent, e.Name()), kind: kind, pid: pid, info: e})
			}
		}
	}
	return out
}

// removeStale removes the temporary folders of the destination base left
// by builds that are gone: killed, or failed without cleaning up. A folder
// still owned by a live build is left alone. A build killed in the middle
// of a commit in place has its commit finished first (rollForward); one
// that cannot be is left for the next build to try again.
func removeStale(ctx context.Context, fsys afero.Fs, parent, base string) {
	for _, e := range tmpFolders(fsys, parent, base) {
		if ctx.Err() != nil {
			return
		}
		if c, ok := take(fsys, e.path, e.pid); ok {
			if e.kind == kindNew {
				if begun, err := rollForward(fsys, e.path, filepath.Join(parent, base)); begun && err != nil {
					c.release()
					continue
				}
			}
			fsys.RemoveAll(e.path)
			c.release()
		}
	}
}

// restore puts back the previous site when a build was killed in the
// middle of a swap that had to be made in two steps: dest is missing and
// the previous site waits, whole and ownerless, in an "old" folder beside
// it. When there are several (there should not be), the newest wins.
func restore(fsys afero.Fs, parent, base, dest string) error {
	if _, err := lstat(fsys, dest); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var olds []tmpEntry
	for _, e := range tmpFolders(fsys, parent, base) {
		if e.kind == kindOld {
			olds = append(olds, e)
		}
	}
	sort.Slice(olds, func(i, j int) bool {
		if ti, tj := olds[i].info.ModTime(), olds[j].info.ModTime(); !ti.Equal(tj) {
			return ti.After(tj)
		}
		return olds[i].path > olds[j].path
	})
	for _, e := range olds {
		c, ok := take(fsys, e.path, e.pid)
		if !ok {
			continue
		}
		err := fsys.Rename(e.path, dest)
		c.release()
		if err != nil {
			return fmt.Errorf("cannot put back the previous %s from %s: %w", dest, e.path, err)
		}
		return nil
	}
	return nil
}

// lstat is Lstat where fsys has it, Stat elsewhere.
func lstat(fsys afero.Fs, name string) (fs.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		info, _, err := l.LstatIfPossible(name)
		return info, err
	}
	return fsys.Stat(name)
}

// KindName is the file in which an output folder says which kind of
// output it holds, for commands that write more than one kind into
// folders of the author's choosing (kakehashi export writes an offline
// copy or a single-file course): one must not take the other's place
// unasked. A folder with the marker and without this file holds a build's
// site, or an output written before kinds were recorded.
const KindName = ".kakehashi-kind"

// maxKind is the longest kind OutputKind reads.
const maxKind = 64

// WithKind returns a copy of s that also holds KindName saying kind, to
// publish: OutputKind then reads kind back from the folder. s itself, and
// so what is zipped or counted from it, is left as it was.
func WithKind(s *Site, kind string) *Site {
	c := s.Clone()
	c.Put(KindName, []byte(kind+"\n"))
	return c
}

// OutputKind returns the kind of output the folder dir holds, as
// WithKind recorded it: "" for an output that recorded none, and for a
// folder that is not an output (see IsOutput). Only a small regular file
// is read.
func OutputKind(fsys afero.Fs, dir string) string {
	if !IsOutput(fsys, dir) {
		return ""
	}
	p := filepath.Join(dir, KindName)
	info, err := fsys.Stat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxKind {
		return ""
	}
	b, err := afero.ReadFile(fsys, p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
