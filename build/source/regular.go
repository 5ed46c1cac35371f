package source

import (
	"errors"
	"fmt"
	"io/fs"
)

// ErrNotRegular is the error (under errors.Is) for a path of the site
// that is neither a regular file nor a folder: a named pipe, a socket or
// a device. Such a file is never opened: opening a named pipe waits for a
// writer for ever, and a device can be read for ever.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is a path of the site that is not a regular file or a
// folder, whether found as it is or through a symbolic link. Its message
// names the kind of file but not the path, which the diagnostic that
// reports it carries ("content/ja/cka/pipe.md: not a regular file (a
// named pipe): remove it").
type NotRegularError struct {
	Path string      // the path as the site names it, slash-separated
	Mode fs.FileMode // the file's type bits, after following links
}

// Kind names the kind of file: "a named pipe", "a socket", "a character
// device", "a block device" or "a special file".
func (e *NotRegularError) Kind() string {
	switch m := e.Mode; {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%v (%s): remove it", ErrNotRegular, e.Kind())
}

func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// CheckRegular returns a *NotRegularError when info, which describes the
// file at p as a walk or Stat found it, is neither a regular file nor a
// folder, and nil otherwise. A symbolic link passes: SiteFS describes a
// link by what it points to, and a dangling one is reported by the open
// that follows. Walkers call it before they open what they list.
func CheckRegular(p string, info fs.FileInfo) error {
	m := info.Mode()
	if m.IsRegular() || m.IsDir() || m&fs.ModeSymlink != 0 {
		return nil
	}
	return &NotRegularError{Path: p, Mode: m.Type()}
}
