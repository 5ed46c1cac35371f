//go:build unix

package source

import "syscall"

// openNonblock is added to the flags every file of the site is opened
// with: a named pipe opens at once instead of waiting for a writer. A
// regular file reads the same with it.
const openNonblock = syscall.O_NONBLOCK
