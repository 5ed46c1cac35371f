//go:build !linux

package output

import "errors"

// exchange would swap the folders a and b in one step; this platform
// cannot, so the caller moves them one after the other.
func exchange(a, b string) error {
	return errors.New("exchanging two folders in one step is not supported here")
}
