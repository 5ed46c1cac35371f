//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || windows)

package output

import "os"

// canLockDirs says whether tryLock works on an open folder: not here, so
// staging folders are told apart by the process that named them.
const canLockDirs = false

// tryLock would take an exclusive lock on f; this platform has none that
// the package knows of, so it always succeeds and builds of one site must
// not overlap.
func tryLock(f *os.File) (bool, error) { return true, nil }
