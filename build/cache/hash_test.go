package cache

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/afero"
)

// TestReaderIsBytes: a field read from a reader, in pieces of any size,
// is the field of its bytes.
func TestReaderIsBytes(t *testing.T) {
	text := strings.Repeat("架け橋 bridge ", 20000)
	want := NewHasher()
	want.Str("before")
	want.Bytes([]byte(text))
	for name, r := range map[string]io.Reader{
		"whole":     strings.NewReader(text),
		"one byte":  iotest.OneByteReader(strings.NewReader(text)),
		"half read": iotest.HalfReader(strings.NewReader(text)),
	} {
		h := NewHasher()
		h.Str("before")
		if err := h.Reader(r); err != nil || h.Sum() != want.Sum() {
			t.Errorf("%s: %x, %v; want %x", name, h.Sum(), err, want.Sum())
		}
	}
	h := NewHasher()
	if err := h.Reader(iotest.ErrReader(io.ErrUnexpectedEOF)); err != io.ErrUnexpectedEOF {
		t.Errorf("a failing reader: %v", err)
	}
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

// TestReaderStreams: hashing a large stream allocates one buffer, not the
// stream.
func TestReaderStreams(t *testing.T) {
	const size = 64 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h := NewHasher()
	if err := h.Reader(io.LimitReader(zeros{}, size)); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("hashing %d MiB allocated %d KiB", size>>20, alloc>>10)
	}
}

// TestHashFiles: the fingerprint changes with a file's bytes and name,
// not with the order files were written in.
func TestHashFiles(t *testing.T) {
	fp := func(files map[string]string) uint64 {
		fs := afero.NewMemMapFs()
		for p, s := range files {
			afero.WriteFile(fs, p, []byte(s), 0o644)
		}
		return HashFiles(fs, "layouts", "missing")
	}
	base := fp(map[string]string{"layouts/a.html": "a", "layouts/b/c.html": "c"})
	if base != fp(map[string]string{"layouts/b/c.html": "c", "layouts/a.html": "a"}) {
		t.Error("the same files give another fingerprint")
	}
	for name, files := range map[string]map[string]string{
		"bytes": {"layouts/a.html": "A", "layouts/b/c.html": "c"},
		"name":  {"layouts/z.html": "a", "layouts/b/c.html": "c"},
		"gone":  {"layouts/a.html": "a"},
	} {
		if fp(files) == base {
			t.Errorf("%s changed, the fingerprint did not", name)
		}
	}
}

// TestProgram: the program's fingerprint is the same on every call and
// whatever the fallback, changes when the executable is written again
// (a new build installed over it, or the same bytes copied over it), and
// is the fallback's when there is no executable to read.
func TestProgram(t *testing.T) {
	if a, b := Program("v1"), Program("v2"); b != a {
		t.Errorf("Program = %x, then %x", a, b)
	}
	exe := filepath.Join(t.TempDir(), "kakehashi")
	if err := os.WriteFile(exe, []byte("build one"), 0o755); err != nil {
		t.Fatal(err)
	}
	first := programAt(exe, "v1")
	if again := programAt(exe, "v1"); again != first {
		t.Errorf("the same file: %x, then %x", first, again)
	}
	// Written again, later: another build, even with the same bytes.
	if err := os.WriteFile(exe, []byte("build two"), 0o755); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	if programAt(exe, "v1") == first {
		t.Error("a rewritten executable kept its fingerprint")
	}
	// Replaced by another file (a new inode), same size and time.
	other := exe + ".new"
	if err := os.WriteFile(other, []byte("build two"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, later, later); err != nil {
		t.Fatal(err)
	}
	before := programAt(exe, "v1")
	if err := os.Rename(other, exe); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && programAt(exe, "v1") == before {
		t.Error("an executable replaced by another file kept its fingerprint")
	}
	missing := filepath.Join(t.TempDir(), "gone")
	if programAt(missing, "v1") == programAt(missing, "v2") {
		t.Error("without an executable, the fallback does not count")
	}
}

// TestHasherStream: the sum is XXH64 of the fields' bytes, each followed
// by its length, however many and however large the fields are (the
// buffer that gathers small ones changes nothing).
func TestHasherStream(t *testing.T) {
	h := NewHasher()
	var stream []byte
	word := func(v uint64) { stream = binary.LittleEndian.AppendUint64(stream, v) }
	for i := range 3000 {
		switch i % 4 {
		case 0:
			s := strings.Repeat("é", i%700)
			h.Str(s)
			stream = append(stream, s...)
			word(uint64(len(s)))
		case 1:
			b := bytes.Repeat([]byte{byte(i)}, (i*37)%2000)
			h.Bytes(b)
			stream = append(stream, b...)
			word(uint64(len(b)))
		case 2:
			h.Num(int64(i) * -7)
			word(uint64(int64(i) * -7))
			word(8)
		case 3:
			b := []byte(strings.Repeat("r", i%300))
			h.Reader(bytes.NewReader(b))
			stream = append(stream, b...)
			word(uint64(len(b)))
		}
		if i%500 == 0 && h.Sum() != xxhash.Sum64(stream) {
			t.Fatalf("after %d fields the sum is not XXH64 of the stream", i+1)
		}
	}
	if h.Sum() != xxhash.Sum64(stream) {
		t.Fatal("the sum is not XXH64 of the stream")
	}
}
