package export

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// ZipComment is the comment of every zip Zip writes: the mark by which
// IsZip tells a zip of kakehashi's, which a later export may replace,
// from a file of the author's.
const ZipComment = "kakehashi export"

// eocdLen is the length of a zip's end-of-central-directory record
// without its comment, the record that ends every zip.
const eocdLen = 22

// IsZip reports whether the file at path is a zip Zip wrote: a regular
// file ending in an end-of-central-directory record whose comment is
// ZipComment. Only those last bytes are read, however large the file.
func IsZip(fsys afero.Fs, path string) bool {
	if info, err := fsys.Stat(path); err != nil || !info.Mode().IsRegular() {
		return false // never opened: a FIFO would block, a device has no end
	}
	f, err := fsys.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	n := int64(eocdLen + len(ZipComment))
	if err != nil || !info.Mode().IsRegular() || info.Size() < n {
		return false
	}
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, info.Size()-n); err != nil {
		return false
	}
	return string(tail[:4]) == "PK\x05\x06" &&
		binary.LittleEndian.Uint16(tail[20:22]) == uint16(len(ZipComment)) &&
		string(tail[eocdLen:]) == ZipComment
}

// ZipPlace is what CheckZip weighs a zip's path against.
type ZipPlace struct {
	// Site is the site folder and the folders the build reads.
	Site output.Dirs
	// Config is the site's configuration file, relative to Site.Root.
	Config string
	// Out is the export's own folder, and Build the site's build output
	// (relative to Site.Root, or absolute): each is replaced whole by the
	// next export or build, so a zip inside either would be lost.
	Out, Build string
	// Force accepts an existing regular file that is not a zip of
	// kakehashi's.
	Force bool
}

// CheckZip reports why the zip cannot be written at file, as an
// *output.DestError, or returns the path to write it to (where a symbolic
// link given as file leads). Refused: a path in the site's sources (see
// output.CheckFile), the site's configuration file, and inside the site
// folder any name not ending in .zip; a path inside the export's folder
// or the build's; a folder that does not exist; an existing file that is
// not a regular file; and, unless p.Force, an existing file that is not
// a zip kakehashi wrote (IsZip).
func CheckZip(fsys afero.Fs, file string, p ZipPlace) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &output.DestError{Path: file, Reason: fmt.Sprintf(format, args...)}
	}
	if err := output.CheckFile(fsys, file, p.Site); err != nil {
		return "", err
	}
	dir := filepath.Dir(file)
	target := filepath.Join(resolved(fsys, dir), filepath.Base(file))
	if info, err := lstat(fsys, file); err == nil && info.Mode()&fs.ModeSymlink != 0 && isOS(fsys) {
		to, err := filepath.EvalSymlinks(file)
		if err != nil {
			return refuse("it is a symbolic link that leads nowhere: %v", err)
		}
		if target, err = filepath.Abs(to); err != nil {
			return refuse("%v", err)
		}
	}
	root := resolved(fsys, p.Site.Root)
	if inside(root, target) {
		if p.Config != "" && target == filepath.Join(root, filepath.FromSlash(p.Config)) {
			return refuse("it is the site's configuration file %s; writing it would replace the site's sources", p.Config)
		}
		if !strings.EqualFold(filepath.Ext(target), ".zip") {
			return refuse("it is inside the site folder and its name does not end in .zip; there only a .zip file may be written, so that none of the site's files is replaced")
		}
	}
	build := p.Build
	if build != "" && !filepath.IsAbs(build) {
		build = filepath.Join(p.Site.Root, filepath.FromSlash(build))
	}
	for _, o := range []struct{ dir, what string }{
		{p.Out, "the export's folder %s, which each export replaces whole"},
		{build, "the site's build output %s, which each build replaces whole"},
	} {
		if o.dir == "" {
			continue
		}
		what := fmt.Sprintf(o.what, o.dir)
		switch d := resolved(fsys, o.dir); {
		case target == d:
			return refuse("it is %s", what)
		case inside(d, target):
			return refuse("it is inside %s; write the zip beside it", what)
		case inside(target, d):
			return refuse("it holds %s", what)
		}
	}
	switch info, err := fsys.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return refuse("its folder %s does not exist", dir)
	case err != nil:
		return refuse("%v", err)
	case !info.IsDir():
		return refuse("%s is not a folder", dir)
	}
	info, err := fsys.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return target, nil
	case err != nil:
		return refuse("%v", err)
	case info.IsDir():
		return refuse("it is a folder, not a file")
	case !info.Mode().IsRegular():
		return refuse("it is not a regular file; only a regular file is replaced")
	case p.Force || IsZip(fsys, target):
		return target, nil
	}
	return "", &output.DestError{Path: file, Reason: "it exists and is not a zip kakehashi wrote; pass --force to replace it", Forcible: true}
}

// WriteZip writes the zip of s under the folder name root (see Zip) to
// path, through a temporary file beside it renamed into place: a failure
// leaves whatever was at path as it was. The file is readable by all
// (0644), as the export's other files are.
func WriteZip(ctx context.Context, fsys afero.Fs, path, root string, s *output.Site) (err error) {
	tmp, err := afero.TempFile(fsys, filepath.Dir(path), ".kakehashi-zip-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			fsys.Remove(name)
		}
	}()
	w := bufio.NewWriterSize(tmp, 1<<16)
	err = Zip(ctx, w, root, s)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err = fsys.Chmod(name, 0o644); err != nil {
		return err
	}
	return fsys.Rename(name, path)
}

// resolved is p made absolute and clean, with the symbolic links of its
// longest existing part resolved, on the OS's filesystem; elsewhere p
// cleaned.
func resolved(fsys afero.Fs, p string) string {
	if !isOS(fsys) {
		return filepath.Clean(p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return filepath.Join(append([]string{abs}, rest...)...)
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}

// isOS reports whether fsys is the operating system's filesystem, on
// which links can be resolved.
func isOS(fsys afero.Fs) bool {
	_, ok := fsys.(*afero.OsFs)
	return ok
}

// inside reports whether the clean path p lies below the clean path dir.
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// lstat is Lstat where fsys has it, Stat elsewhere.
func lstat(fsys afero.Fs, name string) (os.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		info, _, err := l.LstatIfPossible(name)
		return info, err
	}
	return fsys.Stat(name)
}
