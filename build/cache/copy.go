package cache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// Copy publishes the site's file src (its path in diagnostics) at output
// path p, read from open a piece at a time (output.CopyFile). Its
// fingerprint is its path, size and modification time, as the loader
// tells a changed page: the previous output's copy is reused while they
// stay the same. A file that cannot be opened or read is an error at src
// (a diag.List); else an interrupt is ctx's error, and a file the sink
// cannot store an error naming p.
func (w *Writer) Copy(ctx context.Context, p, src string, size int64, mod time.Time, open func() (io.ReadCloser, error)) error {
	h := NewHasher()
	h.Str(src)
	h.Num(size)
	h.Num(mod.UnixNano())
	fp := h.Sum()
	if w.cache.Reuse(w.sink, p, fp) {
		return nil
	}
	n, err := output.CopyFile(ctx, w.sink, p, fp, size, open)
	var se *output.SourceError
	switch {
	case errors.As(err, &se):
		return diag.List{diag.File(src, "%v", se.Err)}
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return fmt.Errorf("writing %s: %w", strings.TrimPrefix(p, "/"), err)
	}
	w.cache.Made(p, fp, int(n))
	return nil
}
