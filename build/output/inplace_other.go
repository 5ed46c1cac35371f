//go:build !(linux || darwin)

package output

// osOps reports false: on this platform the destination is replaced
// whole (the folders swapped), never updated in place.
func osOps(dest, tmp string) (destOps, bool, error) { return nil, false, nil }
