//go:build !(linux || darwin)

package cache

import (
	"io"
	"os"
)

// mapOS reads the first size bytes of the file p: this platform's files
// are not mapped.
func mapOS(p string, size int64) ([]byte, bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false
	}
	return b, true
}
