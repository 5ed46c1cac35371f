//go:build linux

package output

import "golang.org/x/sys/unix"

// exchange swaps the folders a and b in one step, so that no moment sees
// either name missing. It fails where the kernel or the filesystem cannot
// (the caller then moves them one after the other).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
