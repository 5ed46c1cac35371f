//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package output

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// canLockDirs says whether tryLock works on an open folder, so that a
// staging folder can be owned.
const canLockDirs = true

// tryLock takes an exclusive flock on f without waiting; it reports false
// when another open file holds one. Closing f releases the lock, and so
// does the end of the process, however it ends.
func tryLock(f *os.File) (bool, error) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return false, nil
		}
		return false, err
	}
}
