//go:build linux || darwin

package output

import (
	"errors"
	"path"

	"golang.org/x/sys/unix"
)

// dirOps changes the destination on the operating system's disk through
// descriptors of its folders, each opened from its parent's without
// following a symbolic link: a link put in place of a folder is never
// written through, whenever it appears.
type dirOps struct {
	root string
	fds  map[string]int // by slash path; "." is the root
}

// osOps opens the destination folder dest, for files of the staging
// folder tmp to be moved into; false when they are on other devices
// (another filesystem mounted at dest), where a rename cannot move them.
func osOps(dest, tmp string) (destOps, bool, error) {
	fd, err := unix.Open(dest, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false, err
	}
	var a, b unix.Stat_t
	if unix.Fstat(fd, &a) != nil || unix.Stat(tmp, &b) != nil || a.Dev != b.Dev {
		unix.Close(fd)
		return nil, false, nil
	}
	return &dirOps{root: dest, fds: map[string]int{".": fd}}, true, nil
}

// dir is the descriptor of the folder d, made (with its parents) when
// missing and create.
func (o *dirOps) dir(d string, create bool) (int, error) {
	if fd, ok := o.fds[d]; ok {
		return fd, nil
	}
	parent, err := o.dir(path.Dir(d), create)
	if err != nil {
		return -1, err
	}
	base := path.Base(d)
	open := func() (int, error) {
		return unix.Openat(parent, base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	}
	fd, err := open()
	if errors.Is(err, unix.ENOENT) && create {
		if err = unix.Mkdirat(parent, base, 0o755); err == nil || errors.Is(err, unix.EEXIST) {
			fd, err = open()
		}
	}
	if err != nil {
		return -1, &pathError{d, err}
	}
	o.fds[d] = fd
	return fd, nil
}

func (o *dirOps) remove(p string) error {
	fd, err := o.dir(path.Dir(p), false)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := unix.Unlinkat(fd, path.Base(p), 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return &pathError{p, err}
	}
	return nil
}

func (o *dirOps) rmdir(d string) bool {
	if fd, ok := o.fds[d]; ok {
		unix.Close(fd)
		delete(o.fds, d)
	}
	fd, err := o.dir(path.Dir(d), false)
	return err == nil && unix.Unlinkat(fd, path.Base(d), unix.AT_REMOVEDIR) == nil
}

func (o *dirOps) move(from, p string) error {
	fd, err := o.dir(path.Dir(p), true)
	if err != nil {
		return err
	}
	if err := unix.Renameat(unix.AT_FDCWD, from, fd, path.Base(p)); err != nil {
		return &pathError{p, err}
	}
	return nil
}

func (o *dirOps) close() {
	for _, fd := range o.fds {
		unix.Close(fd)
	}
	clear(o.fds)
}
