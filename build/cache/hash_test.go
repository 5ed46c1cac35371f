package cache

import (
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

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

// TestProgram: the program's fingerprint is the hash of the running
// executable's bytes, whatever fallback is given, and the same on every
// call.
func TestProgram(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	want := NewHasher()
	want.Bytes(data)
	if a, b := Program("v1"), Program("v2"); a != want.Sum() || b != a {
		t.Errorf("Program = %x, %x; want %x, the executable's", a, b, want.Sum())
	}
}
