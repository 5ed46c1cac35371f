package hugoimport

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// ErrNotEmpty is the error (under errors.Is) of a destination that holds
// files: an import never writes among someone's files.
var ErrNotEmpty = errors.New("is not empty")

// tmpPrefix names the folder an import is written into, beside its
// destination, before it takes the destination's place.
const tmpPrefix = ".kakehashi-tmp-import-"

// Import converts the Hugo site in the folder src into a kakehashi site
// in dest, a new or empty folder, and builds the result in memory to
// report what kakehashi build will say of it. src is read through the
// confined reader every command reads a site through, and never
// written; dest is written whole or not at all.
func Import(ctx context.Context, src, dest string) (*Report, error) {
	if err := checkDest(afero.NewOsFs(), dest); err != nil {
		return nil, err
	}
	if inside(src, dest) {
		return nil, &UsageError{Msg: fmt.Sprintf("%s is inside the Hugo site %s, which an import never writes to: choose a folder outside it", dest, src)}
	}
	in, err := source.SiteFS(src)
	if err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	site, err := Convert(ctx, in)
	if err != nil {
		return nil, err
	}
	if err := site.Write(ctx, in, afero.NewOsFs(), dest); err != nil {
		return site.Report, err
	}
	return site.Report, nil
}

// inside tells whether the folder dest is src or lies inside it, after
// following symbolic links as far as dest exists.
func inside(src, dest string) bool {
	real := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		rest := ""
		for {
			if r, err := filepath.EvalSymlinks(abs); err == nil {
				return filepath.Join(r, rest)
			}
			parent := filepath.Dir(abs)
			if parent == abs {
				return filepath.Join(abs, rest)
			}
			rest = filepath.Join(filepath.Base(abs), rest)
			abs = parent
		}
	}
	s, d := real(src), real(dest)
	rel, err := filepath.Rel(s, d)
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "..")
}

// checkDest refuses a destination that is a file, a symbolic link or a
// folder with files in it (ErrNotEmpty); a missing one is made.
func checkDest(out afero.Fs, dest string) error {
	if strings.TrimSpace(dest) == "" {
		return &UsageError{Msg: "the destination folder's name is empty"}
	}
	info, err := lstat(out, dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		return &UsageError{Msg: fmt.Sprintf("%s is a symbolic link: name the folder it leads to", dest)}
	case !info.IsDir():
		return &UsageError{Msg: fmt.Sprintf("%s is a file, not a folder", dest)}
	}
	entries, err := afero.ReadDir(out, dest)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s %w (%s): an import writes a new site into a new or empty folder", dest, ErrNotEmpty, plural(len(entries), "entry", "entries"))
	}
	return nil
}

// lstat is Lstat where the filesystem has it, else Stat.
func lstat(fsys afero.Fs, p string) (fs.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		info, _, err := l.LstatIfPossible(p)
		return info, err
	}
	return fsys.Stat(p)
}

// Write writes the site into dest on out, copying its files from src
// (the Hugo site it was converted from): all of it or, when anything
// fails or ctx is cancelled, nothing. The files go into a temporary
// folder beside dest, which is built in memory (the build's errors and
// warnings go to the report) and then takes dest's place. dest must be
// missing or an empty folder.
func (s *Site) Write(ctx context.Context, src, out afero.Fs, dest string) (err error) {
	if err := checkDest(out, dest); err != nil {
		return err
	}
	dest = filepath.Clean(dest)
	parent, base := filepath.Dir(dest), filepath.Base(dest)
	if err := out.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	var r [6]byte
	rand.Read(r[:])
	tmp := filepath.Join(parent, fmt.Sprintf("%s%s-%d-%s", tmpPrefix, base, os.Getpid(), hex.EncodeToString(r[:])))
	if err := out.Mkdir(tmp, 0o755); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			out.RemoveAll(tmp)
		}
	}()
	staged := afero.NewBasePathFs(out, tmp)
	for _, f := range s.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := output.CheckPath(f.path); err != nil {
			return fmt.Errorf("%s: %w", f.path, err)
		}
		if err := writeOne(ctx, src, staged, f); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dest, filepath.FromSlash(f.path)), unwrap(err))
		}
	}
	in := afero.NewReadOnlyFs(staged)
	if _, ok := out.(*afero.OsFs); ok {
		if in, err = source.SiteFS(tmp); err != nil {
			return err
		}
	}
	s.verify(ctx, in)
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := lstat(out, dest); err == nil {
		if err := out.Remove(dest); err != nil { // empty, as checked: a folder filled since is refused here
			return fmt.Errorf("%s: %w", dest, unwrap(err))
		}
	}
	if err := out.Rename(tmp, dest); err != nil {
		out.Mkdir(dest, 0o755)
		return fmt.Errorf("moving the new site into %s: %w", dest, unwrap(err))
	}
	return nil
}

// writeOne writes one file of the site into staged.
func writeOne(ctx context.Context, src, staged afero.Fs, f outFile) error {
	if dir := filepath.Dir(filepath.FromSlash(f.path)); dir != "." {
		if err := staged.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	w, err := staged.OpenFile(filepath.FromSlash(f.path), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	var r io.Reader = bytes.NewReader(f.data)
	if f.data == nil {
		in, err := src.Open(f.from)
		if err != nil {
			w.Close()
			return fmt.Errorf("reading %s: %w", f.from, unwrap(err))
		}
		defer in.Close()
		if info, err := in.Stat(); err == nil {
			if err := source.CheckRegular(f.from, info); err != nil {
				w.Close()
				return err
			}
		}
		r = in
	}
	_, err = output.Copy(ctx, w, r)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// verify builds the written site in memory, as kakehashi build would,
// and keeps what the build reported in the report.
func (s *Site) verify(ctx context.Context, in afero.Fs) {
	b, err := build.New(in, build.Options{})
	if err != nil {
		s.Report.Build = diag.List{diag.File(".", "%v", err)}
		return
	}
	res, err := b.Build(ctx)
	if err != nil {
		s.Report.Build = diag.FromError(err)
		if len(s.Report.Build) == 0 {
			s.Report.Build = diag.List{diag.File(".", "%v", err)}
		}
		s.Report.Build.Sort()
		return
	}
	s.Report.Built = true
	s.Report.Build = res.Summary.Warnings
}
