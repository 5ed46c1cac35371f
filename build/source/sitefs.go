package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/afero"
)

// ErrOutside is the error (under errors.Is) for a path whose symbolic links
// lead outside the site folder.
var ErrOutside = errors.New("symlink points outside the site")

// ErrLoop is the error (under errors.Is) for a symbolic link that leads
// back to itself, or to a folder that contains it.
var ErrLoop = errors.New("symlink loop")

// LinkError is a symbolic link the site may not follow. Its message names
// the link's target but not the path, which the diagnostic that reports it
// carries ("content/ja/cka/x.md: symlink points outside the site
// (/etc/passwd)").
type LinkError struct {
	Path   string // the path as the site names it, slash-separated
	Target string // where the link leads, as far as it could be resolved
	Err    error  // ErrOutside or ErrLoop
}

func (e *LinkError) Error() string {
	switch {
	case e.Err == ErrLoop && e.Target != "":
		return fmt.Sprintf("%v: it leads back to %s, a folder that holds it", e.Err, e.Target)
	case e.Err == ErrLoop:
		return fmt.Sprintf("%v: the link leads back to itself", e.Err)
	}
	return fmt.Sprintf("%v (%s)", e.Err, e.Target)
}

func (e *LinkError) Unwrap() error { return e.Err }

// SiteFS returns the site folder root as the read-only filesystem every
// command reads the site through: build, export, render, serve and check.
// It is confined to the folder: a file or folder whose real location,
// after following symbolic links, is outside root cannot be opened,
// statted or listed (a *LinkError wrapping ErrOutside), and a link that
// leads back to a folder holding it is a *LinkError wrapping ErrLoop, so a
// walk never loops. Links that stay inside the site are followed as usual,
// and walks (afero.Walk) descend into linked folders: LstatIfPossible and
// Readdir describe a link inside the site by what it points to.
func SiteFS(root string) (afero.Fs, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("site folder %s: %w", root, unwrapPath(err))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("site folder %s: %w", root, unwrapPath(err))
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("site folder %s is not a folder", root)
	}
	return &confinedFs{
		Fs:   afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), real)),
		root: real,
	}, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// confinedFs is a read-only view of a folder that does not follow
// symbolic links out of it.
type confinedFs struct {
	afero.Fs
	root string
	// plain holds the folders (relative paths) found to be no link,
	// reached from the root through folders that are none either: what
	// they hold is described as it is, without resolving its path
	// again (LstatIfPossible). Refresh forgets them.
	plain sync.Map
}

// Refresh makes the filesystem fsys, when it is a site's (SiteFS),
// check again every folder of a path it describes, as it did the first
// time: a folder found to be no symbolic link is trusted to stay one
// until then. A build calls it as it begins.
func Refresh(fsys afero.Fs) {
	if c, ok := fsys.(*confinedFs); ok {
		c.plain.Clear()
	}
}

// isPlain reports whether the folder dir (relative, cleaned) is no
// link, reached through folders that are none: found so before, or now,
// each folder of the path found once.
func (c *confinedFs) isPlain(dir string) bool {
	if dir == "." || dir == "" {
		return true
	}
	if _, ok := c.plain.Load(dir); ok {
		return true
	}
	if !c.isPlain(filepath.Dir(dir)) {
		return false
	}
	li, err := os.Lstat(filepath.Join(c.root, dir))
	if err != nil || !li.IsDir() {
		return false // a link, or no folder: the slow path says which
	}
	c.plain.Store(dir, struct{}{})
	return true
}

var _ afero.Fs = (*confinedFs)(nil)
var _ afero.Lstater = (*confinedFs)(nil)

// clean turns a name as callers give it (slash or OS separated, relative to
// the site, possibly with a leading "/") into a path relative to the root;
// a name that climbs above the root lexically ("../x") stops at the root,
// as the inner filesystem reads it.
func (c *confinedFs) clean(name string) string {
	n := filepath.Clean(string(filepath.Separator) + filepath.FromSlash(name))
	return strings.TrimPrefix(n, string(filepath.Separator))
}

// resolve returns the real path of name, or a *LinkError. A path that
// does not exist resolves to "" with no error: the inner filesystem
// reports it.
func (c *confinedFs) resolve(name string) (string, error) {
	rel := c.clean(name)
	full := filepath.Join(c.root, rel)
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		if isLoop(err) {
			return "", &LinkError{Path: filepath.ToSlash(rel), Err: ErrLoop}
		}
		return c.resolveMissing(rel)
	}
	if !within(c.root, real) {
		return "", &LinkError{Path: filepath.ToSlash(rel), Target: real, Err: ErrOutside}
	}
	return real, nil
}

// resolveMissing handles a path that does not resolve: a dangling link
// whose target would lie outside the site is refused like any other, so
// that no message reveals whether the outside file exists.
func (c *confinedFs) resolveMissing(rel string) (string, error) {
	full := filepath.Join(c.root, rel)
	target, err := os.Readlink(full)
	if err != nil {
		return "", nil
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(full), target)
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(target)); err == nil {
		target = filepath.Join(dir, filepath.Base(target))
	}
	if !within(c.root, filepath.Clean(target)) {
		return "", &LinkError{Path: filepath.ToSlash(rel), Target: filepath.Clean(target), Err: ErrOutside}
	}
	return "", nil
}

func isLoop(err error) bool {
	if errors.Is(err, syscall.ELOOP) {
		return true
	}
	return err != nil && strings.Contains(err.Error(), "too many links")
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Open opens name for reading if it resolves inside the site.
func (c *confinedFs) Open(name string) (afero.File, error) {
	return c.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile opens name if it resolves inside the site and is a regular
// file or a folder: a named pipe, a socket or a device, as it is or
// through a link, is a *NotRegularError, found by its mode before it is
// opened, so that no open waits for a writer and no read goes on for
// ever. The opened file is checked to be the one resolved, so a link
// swapped in between is refused; where the OS has it, the file is opened
// non-blocking, so that a named pipe swapped in between does not block
// the open either, and is refused by the same check.
func (c *confinedFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	real, err := c.resolve(name)
	if err != nil {
		return nil, err
	}
	rel := filepath.ToSlash(c.clean(name))
	if real != "" {
		if fi, err := os.Stat(real); err == nil {
			if err := CheckRegular(rel, fi); err != nil {
				return nil, err
			}
		}
	}
	f, err := c.Fs.OpenFile(name, flag|openNonblock, perm)
	if err != nil {
		return nil, err
	}
	got, err := f.Stat()
	if err == nil {
		err = CheckRegular(rel, got)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	if real != "" {
		want, err := os.Stat(real)
		if err != nil || !os.SameFile(got, want) {
			f.Close()
			return nil, &LinkError{Path: rel, Target: real, Err: ErrOutside}
		}
	}
	if got.IsDir() {
		return &confinedDir{File: f, c: c, name: name}, nil
	}
	return f, nil
}

// Stat describes name if it resolves inside the site.
func (c *confinedFs) Stat(name string) (os.FileInfo, error) {
	if _, err := c.resolve(name); err != nil {
		return nil, err
	}
	return c.Fs.Stat(name)
}

// LstatIfPossible describes name as a walk should see it: a link inside
// the site by what it points to (so walks follow it), a link outside it
// or a loop as an error. It reports false: the information is never the
// link's own.
func (c *confinedFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	rel := c.clean(name)
	full := filepath.Join(c.root, rel)
	li, err := os.Lstat(full)
	if err == nil && li.Mode()&os.ModeSymlink == 0 && c.isPlain(filepath.Dir(rel)) {
		// No link on the way: the file is what it is, inside the site.
		if li.IsDir() {
			c.plain.Store(rel, struct{}{})
		}
		return li, false, nil
	}
	if err != nil || li.Mode()&os.ModeSymlink == 0 {
		// Not a link itself; a link further up the path was followed
		// by the walk that found it, and Stat checks the whole path.
		fi, err := c.Stat(name)
		return fi, false, err
	}
	real, err := c.resolve(name)
	if err != nil {
		return nil, false, err
	}
	if real == "" {
		// A dangling link inside the site: describe the link, so that
		// reading it reports the missing target.
		return li, false, nil
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, false, err
	}
	if fi.IsDir() {
		if err := c.checkLoop(rel, real); err != nil {
			return nil, false, err
		}
	}
	return renamed{fi, li.Name()}, false, nil
}

// checkLoop refuses a linked folder that is, really, one of the folders
// the path reached it through: a walk would go round forever.
func (c *confinedFs) checkLoop(rel, real string) error {
	dir := filepath.Dir(rel)
	for {
		anc, err := filepath.EvalSymlinks(filepath.Join(c.root, dir))
		if err == nil && (anc == real || within(real, anc)) {
			shown, _ := filepath.Rel(c.root, real)
			return &LinkError{Path: filepath.ToSlash(rel), Target: filepath.ToSlash(shown), Err: ErrLoop}
		}
		if dir == "." || dir == string(filepath.Separator) || dir == "" {
			return nil
		}
		dir = filepath.Dir(dir)
	}
}

// Name names the filesystem.
func (c *confinedFs) Name() string { return "SiteFS" }

// confinedDir is an open folder of the site whose listing describes links
// inside the site by what they point to, like LstatIfPossible, and leaves
// out editors' leftovers (Leftover). A link that may not be followed is
// listed as the link itself; opening it gives the error.
type confinedDir struct {
	afero.File
	c    *confinedFs
	name string
}

// Readdir lists the folder.
func (d *confinedDir) Readdir(n int) ([]os.FileInfo, error) {
	for {
		infos, err := d.File.Readdir(n)
		kept := infos[:0]
		for _, fi := range infos {
			if Leftover(fi.Name()) {
				continue
			}
			if fi.Mode()&os.ModeSymlink != 0 {
				if ri, _, lerr := d.c.LstatIfPossible(filepath.Join(d.name, fi.Name())); lerr == nil {
					fi = ri
				}
			}
			kept = append(kept, fi)
		}
		// A batch of leftovers only: read on, rather than return an
		// empty batch that is not the end.
		if len(kept) > 0 || err != nil || n <= 0 || len(infos) == 0 {
			return kept, err
		}
	}
}

// Readdirnames lists the folder's names, as Readdir does.
func (d *confinedDir) Readdirnames(n int) ([]string, error) {
	for {
		names, err := d.File.Readdirnames(n)
		kept := names[:0]
		for _, name := range names {
			if !Leftover(name) {
				kept = append(kept, name)
			}
		}
		if len(kept) > 0 || err != nil || n <= 0 || len(names) == 0 {
			return kept, err
		}
	}
}

// renamed is a followed link's target described under the link's name.
type renamed struct {
	os.FileInfo
	name string
}

func (r renamed) Name() string { return r.name }
