package output

// Sink is where a build writes the files of a site as it makes them: a
// Site in memory (the authoring server, exports) or a Staging folder on
// disk (kakehashi build). The pipeline writes through it without asking
// which it is.
type Sink interface {
	// WriteFile stores one file at the output path p (a leading "/" is
	// dropped), replacing any earlier one; a path CheckPath refuses is an
	// error, now or (Site) from Err.
	WriteFile(p string, b []byte) error
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
