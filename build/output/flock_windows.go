//go:build windows

package output

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// canLockDirs says whether tryLock works on an open folder: not here, so
// staging folders are told apart by the process that named them.
const canLockDirs = false

// tryLock takes an exclusive lock on f without waiting; it reports false
// when another open file holds one. Closing f releases the lock, and so
// does the end of the process.
func tryLock(f *os.File) (bool, error) {
	var ol windows.Overlapped
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}
