package cache

import (
	"encoding/binary"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/afero"
)

// Hasher is XXH64 (github.com/cespare/xxhash) over fields, each followed
// by its length in eight bytes, so that ("ab","c") and ("a","bc") differ.
// It hashes strings and byte slices in place, without copying them. The
// cache's key and every fingerprint of the build are made with it: a
// rebuild of a large site fingerprints every page's template data, and
// FNV-1a, a byte at a time, took a tenth of its time.
//
// Small fields are gathered in a buffer and hashed a buffer at a time:
// the sum is XXH64 of the same bytes, however they were cut.
type Hasher struct {
	d   xxhash.Digest
	n   int // bytes in buf
	buf [256]byte
}

// NewHasher returns a Hasher holding no field yet.
func NewHasher() *Hasher {
	h := &Hasher{}
	h.d.Reset()
	return h
}

// flush hashes what buf holds.
func (h *Hasher) flush() {
	if h.n > 0 {
		h.d.Write(h.buf[:h.n])
		h.n = 0
	}
}

// write adds b to the bytes hashed.
func (h *Hasher) write(b []byte) {
	if h.n+len(b) > len(h.buf) {
		h.flush()
		if len(b) > len(h.buf)/2 {
			h.d.Write(b)
			return
		}
	}
	h.n += copy(h.buf[h.n:], b)
}

// writeString adds s to the bytes hashed.
func (h *Hasher) writeString(s string) {
	if h.n+len(s) > len(h.buf) {
		h.flush()
		if len(s) > len(h.buf)/2 {
			h.d.WriteString(s)
			return
		}
	}
	h.n += copy(h.buf[h.n:], s)
}

// word adds v as eight bytes, little-endian.
func (h *Hasher) word(v uint64) {
	if h.n+8 > len(h.buf) {
		h.flush()
	}
	binary.LittleEndian.PutUint64(h.buf[h.n:], v)
	h.n += 8
}

// end closes a field of n bytes.
func (h *Hasher) end(n int) { h.word(uint64(n)) }

// Str adds a string field.
func (h *Hasher) Str(s string) {
	h.writeString(s)
	h.end(len(s))
}

// Bytes adds a byte field.
func (h *Hasher) Bytes(b []byte) {
	h.write(b)
	h.end(len(b))
}

// Reader adds a byte field read from r to its end, the same field as
// Bytes of everything r holds, a piece at a time: a large file is hashed
// in little memory. It returns the first error of a read; the field is
// then incomplete.
func (h *Hasher) Reader(r io.Reader) error {
	h.flush()
	buf := readBufs.Get().(*[]byte)
	n, err := io.CopyBuffer(&h.d, r, *buf)
	readBufs.Put(buf)
	if err != nil {
		return err
	}
	h.end(int(n))
	return nil
}

// readBufs are the pieces Reader reads into, one per reader at a time.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// Num adds a number field.
func (h *Hasher) Num(n int64) {
	h.word(uint64(n))
	h.end(8)
}

// Sum is the hash of the fields so far.
func (h *Hasher) Sum() uint64 {
	h.flush()
	return h.d.Sum64()
}

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
