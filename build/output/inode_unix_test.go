//go:build unix

package output

import (
	"os"
	"syscall"
	"testing"
)

// inodeOf is the inode of the file at p.
func inodeOf(t *testing.T, p string) uint64 {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(info.Sys().(*syscall.Stat_t).Ino)
}
