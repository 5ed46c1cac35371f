package cache

import (
	"encoding/binary"
	"io"
	"io/fs"
	"os"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/afero"
)

// Hasher is XXH64 (github.com/cespare/xxhash) over fields, each followed
// by its length in eight bytes, so that ("ab","c") and ("a","bc") differ.
// It hashes strings and byte slices in place, without copying them. The
// cache's key and every fingerprint of the build are made with it: a
// rebuild of a large site fingerprints every page's template data, and
// FNV-1a, a byte at a time, took a tenth of its time.
type Hasher struct{ d xxhash.Digest }

// NewHasher returns a Hasher holding no field yet.
func NewHasher() *Hasher {
	h := &Hasher{}
	h.d.Reset()
	return h
}

// end closes a field of n bytes.
func (h *Hasher) end(n int) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	h.d.Write(b[:])
}

// Str adds a string field.
func (h *Hasher) Str(s string) {
	h.d.WriteString(s)
	h.end(len(s))
}

// Bytes adds a byte field.
func (h *Hasher) Bytes(b []byte) {
	h.d.Write(b)
	h.end(len(b))
}

// Reader adds a byte field read from r to its end, the same field as
// Bytes of everything r holds, a piece at a time: a large file is hashed
// in little memory. It returns the first error of a read; the field is
// then incomplete.
func (h *Hasher) Reader(r io.Reader) error {
	n, err := io.CopyBuffer(&h.d, r, make([]byte, 64<<10))
	if err != nil {
		return err
	}
	h.end(int(n))
	return nil
}

// Num adds a number field.
func (h *Hasher) Num(n int64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	h.d.Write(b[:])
	h.end(8)
}

// Sum is the hash of the fields so far.
func (h *Hasher) Sum() uint64 { return h.d.Sum64() }

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
