package cache

import (
	"io/fs"
	"os"
	"strconv"
	"sync"

	"github.com/spf13/afero"
)

// Hasher is FNV-1a over fields, each followed by a separator so that
// ("ab","c") and ("a","bc") differ. It hashes strings and byte slices in
// place, without copying them. The cache's key and every fingerprint of
// the build are made with it.
type Hasher struct{ h uint64 }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// NewHasher returns a Hasher holding no field yet.
func NewHasher() *Hasher { return &Hasher{h: fnvOffset} }

// Str adds a string field.
func (h *Hasher) Str(s string) {
	x := h.h
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= fnvPrime
	}
	h.h = (x ^ 0xff) * fnvPrime
}

// Bytes adds a byte field.
func (h *Hasher) Bytes(b []byte) {
	x := h.h
	for _, c := range b {
		x ^= uint64(c)
		x *= fnvPrime
	}
	h.h = (x ^ 0xff) * fnvPrime
}

// Num adds a number field.
func (h *Hasher) Num(n int64) { h.Str(strconv.FormatInt(n, 10)) }

// Sum is the hash of the fields so far.
func (h *Hasher) Sum() uint64 { return h.h }

// HashFiles fingerprints every file under the given folders of fsys, by
// path and bytes (missing folders count as empty).
func HashFiles(fsys afero.Fs, dirs ...string) uint64 {
	h := NewHasher()
	for _, dir := range dirs {
		afero.Walk(fsys, dir, func(p string, info fs.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			b, err := afero.ReadFile(fsys, p)
			if err == nil {
				h.Str(p)
				h.Bytes(b)
			}
			return nil
		})
	}
	return h.Sum()
}

// Program fingerprints the running executable, read once per process, so
// that a cache made by another build of kakehashi is never used; when the
// executable cannot be read, fallback (its version) stands for it.
func Program(fallback string) uint64 {
	if h, ok := program(); ok {
		return h
	}
	h := NewHasher()
	h.Str(fallback)
	return h.Sum()
}

var program = sync.OnceValues(func() (uint64, bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		return 0, false
	}
	h := NewHasher()
	h.Bytes(b)
	return h.Sum(), true
})
