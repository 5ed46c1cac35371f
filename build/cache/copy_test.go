package cache

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// TestCopy: a copied file is written, and recorded so that the next
// build with the same path, size and time takes it from the previous
// output without opening it; a changed time copies it again.
func TestCopy(t *testing.T) {
	ctx := context.Background()
	mod := time.Unix(1700000000, 0)
	opens := 0
	open := func() (io.ReadCloser, error) {
		opens++
		return io.NopCloser(bytes.NewReader([]byte("png!"))), nil
	}
	fs := afero.NewMemMapFs()
	c := Open(fs, "cache", 1)
	sink := newReusingSink()
	if err := NewWriter(sink, c).Copy(ctx, "/img/a.png", "content/ja/a/a.png", 4, mod, open); err != nil {
		t.Fatal(err)
	}
	if string(sink.files["/img/a.png"]) != "png!" || opens != 1 {
		t.Fatalf("copied %q with %d opens", sink.files["/img/a.png"], opens)
	}
	if err := afero.WriteFile(fs, "public/img/a.png", []byte("png!"), 0o644); err != nil {
		t.Fatal(err)
	}
	saveStamped(t, c, fs, "public")

	sink = newReusingSink()
	if err := NewWriter(sink, Open(fs, "cache", 1)).Copy(ctx, "/img/a.png", "content/ja/a/a.png", 4, mod, open); err != nil {
		t.Fatal(err)
	}
	if opens != 1 || len(sink.reused) != 1 || len(sink.files) != 0 {
		t.Errorf("unchanged: %d opens, reused %v, wrote %d files; want it taken from the previous output", opens, sink.reused, len(sink.files))
	}
	sink = newReusingSink()
	if err := NewWriter(sink, Open(fs, "cache", 1)).Copy(ctx, "/img/a.png", "content/ja/a/a.png", 4, mod.Add(time.Second), open); err != nil {
		t.Fatal(err)
	}
	if opens != 2 || len(sink.reused) != 0 || string(sink.files["/img/a.png"]) != "png!" {
		t.Errorf("touched: %d opens, reused %v; want it copied again", opens, sink.reused)
	}
}

// fullSink is a streaming sink that stores nothing.
type fullSink struct{ reusingSink }

func (s *fullSink) WriteFrom(ctx context.Context, p string, r io.Reader, size int64) (int64, error) {
	return 0, errors.New("no space left on device")
}

// TestCopyErrors: a file that cannot be opened or read is an error at
// its path in the site; a sink that cannot store it, an error naming the
// output path; an interrupt, the context's error.
func TestCopyErrors(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	cantOpen := func() (io.ReadCloser, error) { return nil, errors.New("permission denied") }
	ok := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader([]byte("png!"))), nil }
	for _, c := range []struct {
		name string
		ctx  context.Context
		sink output.Sink
		open func() (io.ReadCloser, error)
		want string
	}{
		{"cannot open", ctx, newReusingSink(), cantOpen, "content/ja/a/a.png: permission denied"},
		{"cannot open, in memory", ctx, output.New(), cantOpen, "content/ja/a/a.png: permission denied"},
		{"sink full", ctx, &fullSink{}, ok, "writing img/a.png: no space left on device"},
		{"interrupted", cancelled, newReusingSink(), ok, context.Canceled.Error()},
	} {
		err := NewWriter(c.sink, nil).Copy(c.ctx, "/img/a.png", "content/ja/a/a.png", 4, time.Unix(0, 0), c.open)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
			continue
		}
		var ds diag.List
		if isDiag := errors.As(err, &ds); isDiag != strings.HasPrefix(c.want, "content/") {
			t.Errorf("%s: %T, a diagnostic: %v", c.name, err, isDiag)
		}
	}
}
