package output

import (
	"context"
	"io"
)

// Sink is where a build writes the files of a site as it makes them: a
// Site in memory (the authoring server, exports) or a Staging folder on
// disk (kakehashi build). The pipeline writes through it without asking
// which it is.
type Sink interface {
	// WriteFile stores one file at the output path p (a leading "/" is
	// dropped), replacing any earlier one; a path CheckPath refuses is an
	// error, now or (Site) from Err.
	WriteFile(p string, b []byte) error
	// WriteFrom stores one file at p, as WriteFile does, read from r to
	// its end: a staging folder copies it piece by piece, so that a file
	// of any size takes little memory. size is what r is expected to
	// hold (-1 when unknown): a site in memory reserves that much at
	// once; whatever r holds is stored. It stops with ctx's error when
	// ctx is done, and returns the bytes stored.
	WriteFrom(ctx context.Context, p string, r io.Reader, size int64) (int64, error)
	// Reuse takes file p of the previous output unchanged, when it is
	// still there with this size and modification time (unix
	// nanoseconds), and reports whether it did.
	Reuse(p string, size, mtime int64) bool
	// Size is the number of files and bytes stored so far.
	Size() (files int, bytes int64)
}

var (
	_ Sink = (*Site)(nil)
	_ Sink = (*Staging)(nil)
)

// WriteFile stores a file, as Put does; a refused path is reported by Err.
func (s *Site) WriteFile(p string, b []byte) error {
	s.Put(p, b)
	return nil
}

// WriteFrom reads r whole and stores it, as Put does: a site in memory
// holds its files' bytes, in a buffer of size bytes when r holds that
// many.
func (s *Site) WriteFrom(ctx context.Context, p string, r io.Reader, size int64) (int64, error) {
	var b appender
	if size > 0 {
		// One allocation of the size told (bytes.Buffer's Grow allocates
		// twice that under the race detector); the read that finds the end
		// needs room for a byte more.
		b = make(appender, 0, size+1)
	}
	n, err := Copy(ctx, &b, r)
	if err != nil {
		return n, err
	}
	s.Put(p, b)
	return n, nil
}

// appender is a writer appending to a byte slice.
type appender []byte

func (a *appender) Write(b []byte) (int, error) {
	*a = append(*a, b...)
	return len(b), nil
}

// Reuse reports false: a site in memory has no previous output to take
// files from.
func (s *Site) Reuse(p string, size, mtime int64) bool { return false }

// WriteFile writes one file of the new site, as Put does.
func (st *Staging) WriteFile(p string, b []byte) error { return st.Put(p, b) }

// LazySink is a Sink that can also hold a file made when first read (a Site
// can; a staging folder cannot).
type LazySink interface {
	Sink
	PutLazy(p string, l *Lazy)
}

var _ LazySink = (*Site)(nil)

// copyBuf is the size of the pieces Copy moves.
const copyBuf = 256 << 10

// Copy copies r to w to its end, one piece of 256 KiB at a time, and
// stops with ctx's error when ctx is done between two pieces, so that a
// copy of a large file ends soon after an interrupt. It returns the bytes
// written.
func Copy(ctx context.Context, w io.Writer, r io.Reader) (int64, error) {
	buf := make([]byte, copyBuf)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		m, rerr := r.Read(buf)
		if m > 0 {
			k, werr := w.Write(buf[:m])
			n += int64(k)
			if werr == nil && k < m {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				return n, werr
			}
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}
