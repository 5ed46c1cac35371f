//go:build linux || darwin

package cache

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapOS maps the first size bytes of the file p into memory, read-only,
// for the life of the process: its pages are read only when touched, and
// a build that asks for a few values reads little. The file is never
// written over in place (a Store only appends to it, or writes another),
// so what is mapped stays as it was.
func mapOS(p string, size int64) ([]byte, bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() < size {
		return nil, false
	}
	if size == 0 {
		return []byte{}, true
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	return b, true
}
