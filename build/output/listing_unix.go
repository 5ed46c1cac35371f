//go:build linux || darwin

package output

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// listFolder lists the folder full, calling fn with each entry's name,
// whether it is a folder, and its stamp: each entry described relative
// to the folder's descriptor (fstatat), not by its whole path, and a
// link never followed.
func listFolder(full string, fn func(name string, dir bool, s Stamp)) error {
	f, err := os.Open(full)
	if err != nil {
		return err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	fd := int(f.Fd())
	for _, e := range entries {
		var st unix.Stat_t
		err := unix.Fstatat(fd, e.Name(), &st, unix.AT_SYMLINK_NOFOLLOW)
		if errors.Is(err, unix.ENOENT) {
			continue // gone since the folder was read
		}
		if err != nil {
			return &pathError{e.Name(), err}
		}
		s := NotRegular
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
			s = Stamp{Size: st.Size, MTime: st.Mtim.Nano()}
		case unix.S_IFDIR:
			fn(e.Name(), true, Stamp{Size: st.Size, MTime: st.Mtim.Nano()})
			continue
		}
		fn(e.Name(), false, s)
	}
	return nil
}
