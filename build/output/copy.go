package output

import (
	"context"
	"io"
)

// SourceError is the error of a copy whose file could not be opened or
// read: a fault of the file copied, not of the output.
type SourceError struct{ Err error }

// Error is the opening's or the reading's error.
func (e *SourceError) Error() string { return e.Err.Error() }

// Unwrap is the opening's or the reading's error.
func (e *SourceError) Unwrap() error { return e.Err }

// CopyFile publishes at output path p the file that open reads, expected
// to hold size bytes, whose content key names (as NewSource's). The file
// is opened first, so that one that cannot be opened is an error in every
// sink. A LazySink then takes it as a source file (NewSource), read
// whenever it is written or served, never held; any other sink has it
// streamed in now, a piece at a time (WriteFrom). It returns the bytes
// the sink stores (size for a LazySink). An interrupt returns ctx's
// error; a file that cannot be opened or read, a *SourceError; a sink
// that cannot store it, the sink's error.
func CopyFile(ctx context.Context, sink Sink, p string, key uint64, size int64, open func() (io.ReadCloser, error)) (int64, error) {
	rc, err := open()
	if err != nil {
		return 0, &SourceError{Err: err}
	}
	defer rc.Close()
	if ls, ok := sink.(LazySink); ok {
		ls.PutLazy(p, NewSource(key, size, open))
		return size, nil
	}
	in := &sourceReader{r: rc}
	n, err := sink.WriteFrom(ctx, p, in, size)
	switch {
	case ctx.Err() != nil:
		return n, ctx.Err()
	case in.err != nil:
		return n, &SourceError{Err: in.err}
	}
	return n, err
}

// sourceReader keeps the error of a read, so that a copy that fails tells
// a fault of the file copied from one of the output.
type sourceReader struct {
	r   io.Reader
	err error
}

func (r *sourceReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}
