package cache

import (
	"io"
	"io/fs"
	"os"
	"strconv"

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

// Reader adds a byte field read from r to its end, the same field as
// Bytes of everything r holds, a piece at a time: a large file is hashed
// in little memory. It returns the first error of a read; the field is
// then incomplete.
func (h *Hasher) Reader(r io.Reader) error {
	buf := make([]byte, 64<<10)
	x := h.h
	for {
		n, err := r.Read(buf)
		for _, c := range buf[:n] {
			x ^= uint64(c)
			x *= fnvPrime
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			h.h = x
			return err
		}
	}
	h.h = (x ^ 0xff) * fnvPrime
	return nil
}

// Num adds a number field.
func (h *Hasher) Num(n int64) { h.Str(strconv.FormatInt(n, 10)) }

// Sum is the hash of the fields so far.
func (h *Hasher) Sum() uint64 { return h.h }

// HashFiles fingerprints every regular file under the given folders of
// fsys, by path and bytes, read a piece at a time (missing folders count
// as empty; a file that is not a regular one, or cannot be read, is left
// out: the build that reads it reports it).
func HashFiles(fsys afero.Fs, dirs ...string) uint64 {
	h := NewHasher()
	for _, dir := range dirs {
		afero.Walk(fsys, dir, func(p string, info fs.FileInfo, err error) error {
			if err != nil || !info.Mode().IsRegular() {
				return nil
			}
			f, err := fsys.Open(p)
			if err != nil {
				return nil
			}
			defer f.Close()
			h.Str(p)
			h.Reader(f)
			return nil
		})
	}
	return h.Sum()
}

// Program fingerprints the running executable, so that a cache made by
// another build of kakehashi is never used; when the executable cannot be
// found, fallback (its version) stands for it. It fingerprints the file as
// make and go do, by its path, size, modification time and (where the
// system has them) device and inode, not by its bytes: reading a 30 MB
// executable cost a warm build of a large site a tenth of its time.
// Installing or building kakehashi writes a new file, which changes them.
func Program(fallback string) uint64 {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return programAt(exe, fallback)
}

// programAt is Program for the executable at exe ("" for none).
func programAt(exe, fallback string) uint64 {
	h := NewHasher()
	if exe != "" {
		if fi, err := os.Stat(exe); err == nil {
			h.Str(exe)
			h.Num(fi.Size())
			h.Num(fi.ModTime().UnixNano())
			h.Num(int64(fi.Mode()))
			h.Str(fileIdentity(fi))
			return h.Sum()
		}
	}
	h.Str(fallback)
	return h.Sum()
}
