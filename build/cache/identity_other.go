//go:build !unix

package cache

import "io/fs"

// fileIdentity is "" where the system gives no device and inode.
func fileIdentity(fs.FileInfo) string { return "" }
