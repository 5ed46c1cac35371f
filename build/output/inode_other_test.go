//go:build !unix

package output

import "testing"

// inodeOf is 0 where inodes are not known.
func inodeOf(t *testing.T, p string) uint64 { return 0 }
