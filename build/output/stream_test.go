package output

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/spf13/afero"
)

// pattern is an endless reader of bytes that vary, so that a copy that
// drops or repeats a piece shows.
type pattern struct{ off int64 }

func (p *pattern) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(p.off*7 + p.off>>9)
		p.off++
	}
	return len(b), nil
}

func patternBytes(n int64) []byte {
	b, _ := io.ReadAll(io.LimitReader(&pattern{}, n))
	return b
}

// TestWriteFrom: both sinks store a file read from a reader byte for byte
// and count it.
func TestWriteFrom(t *testing.T) {
	ctx := context.Background()
	const size = 3*copyBuf + 123
	want := patternBytes(size)

	s := New()
	if n, err := s.WriteFrom(ctx, "/a/b.bin", io.LimitReader(&pattern{}, size), size); err != nil || n != size {
		t.Fatalf("Site.WriteFrom: %d, %v", n, err)
	}
	if got, _ := s.Get("a/b.bin"); !bytes.Equal(got, want) {
		t.Error("Site.WriteFrom stored other bytes")
	}

	fs := afero.NewOsFs()
	dest := t.TempDir() + "/public"
	st, err := Stage(ctx, fs, dest)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := st.WriteFrom(ctx, "/a/b.bin", io.LimitReader(&pattern{}, size), size); err != nil || n != size {
		t.Fatalf("Staging.WriteFrom: %d, %v", n, err)
	}
	if files, bytes := st.Size(); files != 1 || bytes != size {
		t.Errorf("Size() = %d files, %d bytes; want 1, %d", files, bytes, size)
	}
	if _, err := st.WriteFrom(ctx, "../x", bytes.NewReader(nil), 0); err == nil {
		t.Error("a path out of the folder was written")
	}
	if err := st.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ := afero.ReadFile(fs, dest+"/a/b.bin")
	if !bytes.Equal(got, want) {
		t.Errorf("published %d bytes, not the %d read", len(got), size)
	}
}

// TestWriteFromStreams: copying a file many times the size of what a
// staging folder may hold in memory allocates only its pieces.
func TestWriteFromStreams(t *testing.T) {
	ctx := context.Background()
	st, err := Stage(ctx, afero.NewOsFs(), t.TempDir()+"/public")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Abort()
	const size = 64 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := st.WriteFrom(ctx, "big.bin", io.LimitReader(&pattern{}, size), size); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("copying %d MiB allocated %d KiB: the file was held in memory", size>>20, alloc>>10)
	}
}

// cancelAfter is a reader that cancels a context after n reads.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAfter) Read(b []byte) (int, error) {
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return c.r.Read(b)
}

// TestCopyStops: a copy ends with the context's error soon after it is
// cancelled, however much is left to read.
func TestCopyStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var w bytes.Buffer
	n, err := Copy(ctx, &w, &cancelAfter{r: &pattern{}, n: 3, cancel: cancel})
	if !errors.Is(err, context.Canceled) || n != 3*copyBuf {
		t.Errorf("Copy of an endless reader: %d bytes, %v; want 3 pieces and context.Canceled", n, err)
	}
}

// TestSiteWriteFromReserves: a site in memory told the size of a file
// holds it in one buffer of that size, not in a buffer grown by doubling.
func TestSiteWriteFromReserves(t *testing.T) {
	const size = 64 << 20
	s := New()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := s.WriteFrom(context.Background(), "big.bin", io.LimitReader(&pattern{}, size), size); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size+4<<20 {
		t.Errorf("storing %d MiB allocated %d MiB", size>>20, alloc>>20)
	}
}

// TestKeep: a kept publication commits without touching the destination,
// whatever was put into it, leaves no staging folder behind and runs no
// AfterCommit function.
func TestKeep(t *testing.T) {
	ctx := context.Background()
	fs := afero.NewOsFs()
	dest := t.TempDir() + "/public"
	first, err := Stage(ctx, fs, dest)
	if err != nil {
		t.Fatal(err)
	}
	first.Put("/index.html", []byte("site one"))
	if err := first.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := Stage(ctx, fs, dest)
	if err != nil {
		t.Fatal(err)
	}
	st.Put("/other.html", []byte("not to be published"))
	ran := false
	st.AfterCommit(func() { ran = true })
	st.Keep()
	if err := st.Commit(ctx); err != nil {
		t.Fatalf("Commit of a kept publication: %v", err)
	}
	if got, err := afero.ReadFile(fs, dest+"/index.html"); err != nil || string(got) != "site one" {
		t.Errorf("the destination's index.html is %q, %v; want it untouched", got, err)
	}
	if ok, _ := afero.Exists(fs, dest+"/other.html"); ok {
		t.Error("a file put into a kept publication was published")
	}
	if ran {
		t.Error("an AfterCommit function ran for a kept publication")
	}
	entries, _ := afero.ReadDir(fs, dest+"/..")
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("beside the destination: %v; want only public", names)
	}
}
