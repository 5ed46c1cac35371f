package serve

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
)

// ErrOutside is returned for a path whose symbolic links lead outside the
// site folder.
var ErrOutside = errors.New("symbolic link points outside the site folder")

// SiteFs returns the site folder root as a read-only filesystem for the
// builder that refuses to open or stat any file whose real location, after
// following symbolic links, is outside root. Links that stay inside the
// site are followed as usual.
func SiteFs(root string) (afero.Fs, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: root, Err: errors.New("not a folder")}
	}
	return &confinedFs{
		Fs:   afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), real)),
		root: real,
	}, nil
}

// confinedFs is a read-only view of a folder that does not follow
// symbolic links out of it.
type confinedFs struct {
	afero.Fs
	root string
}

var _ afero.Fs = (*confinedFs)(nil)
var _ afero.Lstater = (*confinedFs)(nil)

// resolve returns the real path of name, or ErrOutside. A path that does
// not exist resolves to "" with no error: the inner filesystem reports it.
func (c *confinedFs) resolve(op, name string) (string, error) {
	full := filepath.Join(c.root, filepath.FromSlash(name))
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", nil
	}
	if !within(c.root, real) {
		return "", &fs.PathError{Op: op, Path: name, Err: ErrOutside}
	}
	return real, nil
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

// OpenFile opens name if it resolves inside the site. The opened file is
// checked to be the one resolved, so a link swapped in between is refused.
func (c *confinedFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	real, err := c.resolve("open", name)
	if err != nil {
		return nil, err
	}
	f, err := c.Fs.OpenFile(name, flag, perm)
	if err != nil || real == "" {
		return f, err
	}
	got, err1 := f.Stat()
	want, err2 := os.Stat(real)
	if err1 != nil || err2 != nil || !os.SameFile(got, want) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrOutside}
	}
	return f, nil
}

// Stat describes name if it resolves inside the site.
func (c *confinedFs) Stat(name string) (os.FileInfo, error) {
	if _, err := c.resolve("stat", name); err != nil {
		return nil, err
	}
	return c.Fs.Stat(name)
}

// LstatIfPossible describes name without following a final symbolic link,
// so a walk sees links as links.
func (c *confinedFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if l, ok := c.Fs.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := c.Stat(name)
	return fi, false, err
}

// Name names the filesystem.
func (c *confinedFs) Name() string { return "confinedFs" }
