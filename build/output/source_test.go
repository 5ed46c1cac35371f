package output

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"runtime"
	"testing"

	"github.com/spf13/afero"
)

// patternSource is a source file of n bytes of pattern, counting how
// many times it is opened.
type patternSource struct {
	n     int64
	opens int
}

func (p *patternSource) open() (io.ReadCloser, error) {
	p.opens++
	return io.NopCloser(io.LimitReader(&pattern{}, p.n)), nil
}

// TestSourceFile: a file read from its source is read each time it is
// needed, with the bytes the source holds, and never kept; the site
// counts its size.
func TestSourceFile(t *testing.T) {
	const size = 2*copyBuf + 5
	src := &patternSource{n: size}
	s := New()
	s.Put("index.html", []byte("<p>x</p>"))
	s.PutLazy("/a/movie.mp4", NewSource(7, size, src.open))
	if src.opens != 0 {
		t.Fatalf("storing a source file opened it %d times", src.opens)
	}
	l, ok := s.Lazy("a/movie.mp4")
	if !ok || !l.Source() || l.Key() != 7 || l.Size() != size {
		t.Fatalf("Lazy: %v, source %v, key %d, size %d", ok, l != nil && l.Source(), l.Key(), l.Size())
	}
	if files, n := s.Size(); files != 2 || n != size+8 {
		t.Errorf("Size() = %d files, %d bytes; want 2, %d", files, n, size+8)
	}
	want := patternBytes(size)
	for i := range 2 {
		if b, _ := s.Get("a/movie.mp4"); !bytes.Equal(b, want) {
			t.Fatalf("Get #%d: %d bytes, not the source's %d", i+1, len(b), size)
		}
	}
	if src.opens != 2 {
		t.Errorf("two reads opened the source %d times: its bytes were kept", src.opens)
	}
	rc, n, err := s.Open("a/movie.mp4")
	if err != nil || n != size {
		t.Fatalf("Open: %d, %v", n, err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, want) {
		t.Error("Open read other bytes")
	}
	rc, n, err = s.Open("/index.html")
	if err != nil || n != 8 {
		t.Fatalf("Open of a file in memory: %d, %v", n, err)
	}
	if got, _ := io.ReadAll(rc); string(got) != "<p>x</p>" {
		t.Errorf("Open of a file in memory read %q", got)
	}
	if _, _, err := s.Open("nothing.html"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestPublishStreamsSources: publishing a site copies its source files
// a piece at a time: two files many times the pieces' size allocate
// little more than their pieces, and arrive byte for byte.
func TestPublishStreamsSources(t *testing.T) {
	ctx := context.Background()
	const size = 64 << 20
	s := New()
	s.Put("index.html", []byte("<p>x</p>"))
	for _, p := range []string{"a/one.bin", "b/two.bin"} {
		src := &patternSource{n: size}
		s.PutLazy(p, NewSource(1, size, src.open))
	}
	fsys := afero.NewOsFs()
	dest := t.TempDir() + "/public"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := Publish(ctx, fsys, dest, s); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("publishing two files of %d MiB allocated %d MiB: they were held in memory", size>>20, alloc>>20)
	}
	want := patternBytes(size)
	for _, p := range []string{"a/one.bin", "b/two.bin"} {
		if got, _ := afero.ReadFile(fsys, dest+"/"+p); !bytes.Equal(got, want) {
			t.Errorf("%s: published %d bytes, not the source's", p, len(got))
		}
	}
}

// TestPublishSourceGone: a source file that cannot be opened any more
// fails the publication, naming the file, and leaves the destination
// as it was.
func TestPublishSourceGone(t *testing.T) {
	s := New()
	s.Put("index.html", []byte("<p>x</p>"))
	s.PutLazy("a/gone.bin", NewSource(1, 10, func() (io.ReadCloser, error) { return nil, fs.ErrNotExist }))
	fsys := afero.NewOsFs()
	dest := t.TempDir() + "/public"
	err := Publish(context.Background(), fsys, dest, s)
	if !errors.Is(err, fs.ErrNotExist) || !bytes.Contains([]byte(err.Error()), []byte("a/gone.bin")) {
		t.Fatalf("Publish: %v, want the missing file named", err)
	}
	if ok, _ := afero.Exists(fsys, dest); ok {
		t.Error("a failed publication left a destination")
	}
}
