package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
)

// fileSet writes a set of files all or none: when a write fails, undo
// removes the files and folders it created and puts back the files it
// replaced, so the command can be run again once the cause is mended.
type fileSet struct {
	fs       afero.Fs
	created  []string   // files, in the order written
	dirs     []string   // folders made, parents first
	replaced []original // files replaced, in the order replaced
}

// original is a file's content and permissions before fileSet replaced
// it.
type original struct {
	path string
	data []byte
	mode fs.FileMode
}

// mkdirs makes the folder dir and its missing parents, remembering the
// ones it made.
func (w *fileSet) mkdirs(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := w.fs.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := w.fs.Mkdir(missing[i], 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // made by someone else meanwhile: not ours to remove
			}
			return err
		}
		w.dirs = append(w.dirs, missing[i])
	}
	return nil
}

// create writes a new file, making its folders; it never replaces one
// that exists.
func (w *fileSet) create(path string, data []byte) error {
	if err := w.mkdirs(filepath.Dir(path)); err != nil {
		return err
	}
	f, err := w.fs.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s %w", path, ErrExists)
	}
	if err != nil {
		return err
	}
	w.created = append(w.created, path)
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replace gives the existing file path the content data through a
// temporary file beside it and a rename, keeping its permissions. was is
// the content it was planned from: a file changed since is left alone.
func (w *fileSet) replace(path string, was, data []byte) error {
	info, err := w.fs.Stat(path)
	if err != nil {
		return err
	}
	cur, err := afero.ReadFile(w.fs, path)
	if err != nil {
		return err
	}
	if !bytes.Equal(cur, was) {
		return fmt.Errorf("%s changed while it was being edited; run the command again", path)
	}
	if err := writeKeepMode(w.fs, path, data, info.Mode().Perm()); err != nil {
		return err
	}
	w.replaced = append(w.replaced, original{path, cur, info.Mode().Perm()})
	return nil
}

// undo takes back everything written so far, after err stopped the
// writing, and returns err saying so, or what could not be taken back.
func (w *fileSet) undo(err error) error {
	var left []string
	for i := len(w.replaced) - 1; i >= 0; i-- {
		o := w.replaced[i]
		if rerr := writeKeepMode(w.fs, o.path, o.data, o.mode); rerr != nil {
			left = append(left, fmt.Sprintf("%s could not be put back as it was (%v)", o.path, rerr))
		}
	}
	for i := len(w.created) - 1; i >= 0; i-- {
		if rerr := w.fs.Remove(w.created[i]); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			left = append(left, fmt.Sprintf("%s could not be removed (%v)", w.created[i], rerr))
		}
	}
	for i := len(w.dirs) - 1; i >= 0; i-- {
		w.fs.Remove(w.dirs[i]) // only when empty: a file put there meanwhile stays
	}
	if len(left) > 0 {
		return fmt.Errorf("%w; undoing what was written: %s", err, strings.Join(left, "; "))
	}
	if errors.Is(err, ErrExists) {
		return fmt.Errorf("%w; nothing was written", err)
	}
	return fmt.Errorf("%w; what was written so far was removed, nothing changed", err)
}

// writeKeepMode replaces path's content through a temporary file beside
// it, given the permissions mode, and renamed into place: a failure
// leaves the file as it was.
func writeKeepMode(fsys afero.Fs, path string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := afero.TempFile(fsys, filepath.Dir(path), ".kakehashi-new-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			fsys.Remove(name)
		}
	}()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Chmod(name, mode)
	}
	if err == nil {
		err = fsys.Rename(name, path)
	}
	return err
}
