package output

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/spf13/afero"
)

// failingReader fails after giving some bytes.
type failingReader struct{ n int }

var errDisk = errors.New("input/output error")

func (f *failingReader) Read(b []byte) (int, error) {
	if f.n <= 0 {
		return 0, errDisk
	}
	k := min(f.n, len(b))
	f.n -= k
	return k, nil
}

func (f *failingReader) Close() error { return nil }

// refusingSink is a streaming sink that cannot store anything.
type refusingSink struct{}

var errFull = errors.New("no space left on device")

func (refusingSink) WriteFile(p string, b []byte) error { return errFull }

func (refusingSink) WriteFrom(ctx context.Context, p string, r io.Reader, size int64) (int64, error) {
	return 0, errFull
}

func (refusingSink) Reuse(p string, size, mtime int64) bool { return false }

func (refusingSink) Size() (int, int64) { return 0, 0 }

func opener(data []byte, opens *int) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		*opens++
		return io.NopCloser(bytes.NewReader(data)), nil
	}
}

// TestCopyFileSinks: a staging folder has the file streamed in at once; a
// site in memory takes it as a source file, read only when asked for, and
// read again each time.
func TestCopyFileSinks(t *testing.T) {
	ctx := context.Background()
	data := patternBytes(3*copyBuf + 7)

	st, err := Stage(ctx, afero.NewOsFs(), t.TempDir()+"/public")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Abort()
	opens := 0
	n, err := CopyFile(ctx, st, "/img/a.bin", 1, int64(len(data)), opener(data, &opens))
	if err != nil || n != int64(len(data)) || opens != 1 {
		t.Fatalf("staging: %d bytes, %v, %d opens; want %d, nil, 1", n, err, opens, len(data))
	}
	if got, _ := afero.ReadFile(st.Fs(), st.tmp+"/img/a.bin"); !bytes.Equal(got, data) {
		t.Errorf("staging holds %d bytes, not the %d copied", len(got), len(data))
	}

	s := New()
	opens = 0
	n, err = CopyFile(ctx, s, "/img/a.bin", 2, int64(len(data)), opener(data, &opens))
	if err != nil || n != int64(len(data)) || opens != 1 {
		t.Fatalf("site: %d bytes, %v, %d opens; want %d, nil, 1", n, err, opens, len(data))
	}
	l, ok := s.Lazy("img/a.bin")
	if !ok || !l.Source() || l.Key() != 2 {
		t.Fatalf("site: not a source file of key 2: %v %+v", ok, l)
	}
	for i := range 2 {
		if got, _ := s.Get("img/a.bin"); !bytes.Equal(got, data) {
			t.Errorf("read %d: %d bytes, not the %d copied", i, len(got), len(data))
		}
	}
	if opens != 3 {
		t.Errorf("the site opened the file %d times for two reads, want 2 after the copy's", opens-1)
	}
}

// TestCopyFileErrors: a file that cannot be opened, or read, is the
// file's fault (SourceError), in either sink; a sink that cannot store
// it gives its own error; an interrupt gives the context's.
func TestCopyFileErrors(t *testing.T) {
	ctx := context.Background()
	cantOpen := func() (io.ReadCloser, error) { return nil, errDisk }
	cantRead := func() (io.ReadCloser, error) { return &failingReader{n: 10}, nil }
	ok := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(make([]byte, 10))), nil }
	stage := func() Sink {
		st, err := Stage(ctx, afero.NewOsFs(), t.TempDir()+"/public")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Abort)
		return st
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		name   string
		ctx    context.Context
		sink   Sink
		open   func() (io.ReadCloser, error)
		source bool  // a SourceError wrapping errDisk
		want   error // else this error
	}{
		{"site, cannot open", ctx, New(), cantOpen, true, nil},
		{"staging, cannot open", ctx, stage(), cantOpen, true, nil},
		{"staging, cannot read", ctx, stage(), cantRead, true, nil},
		{"sink full", ctx, refusingSink{}, ok, false, errFull},
		{"interrupted", cancelled, stage(), ok, false, context.Canceled},
		{"interrupted, cannot read", cancelled, stage(), cantRead, false, context.Canceled},
	} {
		_, err := CopyFile(c.ctx, c.sink, "/a.bin", 1, 10, c.open)
		var se *SourceError
		switch {
		case c.source:
			if !errors.As(err, &se) || !errors.Is(err, errDisk) || err.Error() != errDisk.Error() {
				t.Errorf("%s: %v (%T), want a SourceError of %v", c.name, err, err, errDisk)
			}
		case errors.As(err, &se) || !errors.Is(err, c.want):
			t.Errorf("%s: %v (%T), want %v", c.name, err, err, c.want)
		}
	}
}
