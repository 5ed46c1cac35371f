package output

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/afero"
)

// MarkerName is the file every folder Publish and Stage write holds, and
// that tells a previous output from a folder of someone else's. It is
// written only on disk, never into a Site.
const MarkerName = ".kakehashi-output"

// markerText is the marker's content.
const markerText = "This folder was written by kakehashi, which replaces all of it on each build:\n" +
	"files added here are lost at the next build.\n"

// IsOutput reports whether dir is a folder written by Publish or Stage:
// one that holds the marker.
func IsOutput(fsys afero.Fs, dir string) bool {
	info, err := fsys.Stat(filepath.Join(dir, MarkerName))
	if err == nil && info.Mode().IsRegular() {
		return true
	}
	return isLegacyOutput(fsys, dir)
}

// isLegacyOutput recognises a site written by a kakehashi from before the
// marker: its index.html says so in its generator tag. Without this, the
// first build after an upgrade would refuse the site's own public/.
func isLegacyOutput(fsys afero.Fs, dir string) bool {
	info, err := fsys.Stat(filepath.Join(dir, "index.html"))
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	f, err := fsys.Open(filepath.Join(dir, "index.html"))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(`<meta name="generator" content="kakehashi `))
}

// Dirs are the folders of a site that an output must stay clear of.
type Dirs struct {
	// Root is the site folder.
	Root string
	// Inputs are the folders the build reads, relative to Root or
	// absolute: content, themes, i18n and so on.
	Inputs []string
}

// DestError says why a destination was refused.
type DestError struct {
	// Path is the destination as it was given.
	Path string
	// Reason says what is wrong with it.
	Reason string
	// Forcible is set when --force would accept it: a folder with
	// someone else's files.
	Forcible bool
}

func (e *DestError) Error() string { return e.Path + ": " + e.Reason }

// CheckDest reports why the folder dest cannot receive a site built from
// site, as a *DestError, or nil when it can. Refused: the site folder
// itself or a folder holding it, a folder inside one of the site's
// inputs, an existing file, and a folder with files that was not written
// by kakehashi (see IsOutput) unless force. Paths are compared as the OS
// resolves them, symbolic links followed, so a link cannot lead around
// the checks.
func CheckDest(fsys afero.Fs, dest string, site Dirs, force bool) error {
	if err := checkInside(fsys, dest, site, "building there would replace the site's sources"); err != nil {
		return err
	}
	real, err := realPath(fsys, dest)
	if err != nil {
		return &DestError{Path: dest, Reason: err.Error()}
	}
	info, err := fsys.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &DestError{Path: dest, Reason: err.Error()}
	case !info.IsDir():
		return &DestError{Path: dest, Reason: "it is a file, not a folder; building there would replace it"}
	case IsOutput(fsys, real) || force:
		return nil
	}
	entries, err := afero.ReadDir(fsys, real)
	if err != nil {
		return &DestError{Path: dest, Reason: err.Error()}
	}
	if len(entries) > 0 {
		return &DestError{Path: dest, Reason: "it is not empty and was not written by kakehashi; pass --force to replace it", Forcible: true}
	}
	return nil
}

// CheckFile reports why file, a file the command writes (a zip), cannot
// be written, as a *DestError, or nil: a path inside one of the site's
// inputs, or an existing folder.
func CheckFile(fsys afero.Fs, file string, site Dirs) error {
	if err := checkInside(fsys, file, site, "writing it would replace the site's sources"); err != nil {
		return err
	}
	real, err := realPath(fsys, file)
	if err != nil {
		return &DestError{Path: file, Reason: err.Error()}
	}
	if info, err := fsys.Stat(real); err == nil && info.IsDir() {
		return &DestError{Path: file, Reason: "it is a folder, not a file"}
	}
	return nil
}

// checkInside refuses p when it is the site folder, holds it, or lies in
// one of the site's inputs.
func checkInside(fsys afero.Fs, p string, site Dirs, why string) *DestError {
	real, err := realPath(fsys, p)
	if err != nil {
		return &DestError{Path: p, Reason: err.Error()}
	}
	root, err := realPath(fsys, site.Root)
	if err != nil {
		return &DestError{Path: p, Reason: fmt.Sprintf("the site folder %s: %v", site.Root, err)}
	}
	switch {
	case real == root:
		return &DestError{Path: p, Reason: "it is the site folder itself; " + why}
	case strictlyInside(real, root):
		return &DestError{Path: p, Reason: fmt.Sprintf("it holds the site folder %s; %s", site.Root, why)}
	}
	for _, in := range site.Inputs {
		name := in
		if !filepath.IsAbs(in) {
			in = filepath.Join(site.Root, in)
		}
		dir, err := realPath(fsys, in)
		if err != nil {
			continue
		}
		switch {
		case real == dir:
			return &DestError{Path: p, Reason: fmt.Sprintf("it is the site's %s folder; %s", filepath.ToSlash(name), why)}
		case strictlyInside(dir, real):
			return &DestError{Path: p, Reason: fmt.Sprintf("it is inside the site's %s folder; %s", filepath.ToSlash(name), why)}
		case strictlyInside(real, dir):
			return &DestError{Path: p, Reason: fmt.Sprintf("it holds the site's %s folder; %s", filepath.ToSlash(name), why)}
		}
	}
	return nil
}

// realPath is p made absolute and clean, and on the OS's filesystem with
// the symbolic links of its existing part resolved: the path the OS
// writes to. Stage resolves a destination the same way.
func realPath(fsys afero.Fs, p string) (string, error) {
	if p == "" {
		p = "."
	}
	if !isOS(fsys) {
		return filepath.Clean(p), nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for range 4096 {
		r, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		// A link to a missing folder: follow it by hand.
		if info, lerr := os.Lstat(abs); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			to, err := os.Readlink(abs)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(to) {
				to = filepath.Join(filepath.Dir(abs), to)
			}
			abs = filepath.Clean(to)
			continue
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return filepath.Join(append([]string{abs}, rest...)...), nil
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", p)
}
