package source

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/spf13/afero"
)

// Remembering returns a view of fsys that remembers, for the walks of
// one build (afero.Walk), how it described each path (LstatIfPossible)
// and what each folder it listed held: a second walk of the same folders
// (the stamps of a build's inputs, then the content's load) asks nothing
// more of the disk, and sees the files as the first did. Everything else
// goes to fsys. It is for one build: what changes on the disk after a
// path was described is not seen.
func Remembering(fsys afero.Fs) afero.Fs {
	return &memoFs{Fs: fsys, infos: map[string]lstatResult{}, names: map[string][]string{}}
}

type memoFs struct {
	afero.Fs
	mu    sync.Mutex
	infos map[string]lstatResult
	names map[string][]string // a folder's, as Readdirnames(-1) listed them
}

type lstatResult struct {
	info fs.FileInfo
	err  error
}

var (
	_ afero.Fs      = (*memoFs)(nil)
	_ afero.Lstater = (*memoFs)(nil)
)

// LstatIfPossible describes name as fsys did the first time.
func (m *memoFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	name = filepath.Clean(name)
	m.mu.Lock()
	r, ok := m.infos[name]
	m.mu.Unlock()
	if ok {
		return r.info, false, r.err
	}
	info, err := lstatIfPossible(m.Fs, name)
	m.mu.Lock()
	m.infos[name] = lstatResult{info, err}
	m.mu.Unlock()
	return info, false, err
}

// Open opens name on fsys; a folder listed before is listed again from
// memory, without opening it.
func (m *memoFs) Open(name string) (afero.File, error) {
	clean := filepath.Clean(name)
	m.mu.Lock()
	names, listed := m.names[clean]
	r, described := m.infos[clean]
	m.mu.Unlock()
	if listed && described && r.err == nil {
		return &memoDir{name: name, info: r.info, names: names}, nil
	}
	f, err := m.Fs.Open(name)
	if err != nil {
		return nil, err
	}
	return &listingFile{File: f, m: m, name: clean}, nil
}

// listingFile is a file of fsys whose listing, when it is a folder
// listed whole, is remembered.
type listingFile struct {
	afero.File
	m    *memoFs
	name string
}

// Readdirnames lists the folder, remembering a whole listing.
func (f *listingFile) Readdirnames(n int) ([]string, error) {
	names, err := f.File.Readdirnames(n)
	if n <= 0 && err == nil {
		f.m.mu.Lock()
		f.m.names[f.name] = names
		f.m.mu.Unlock()
	}
	return names, err
}

// memoDir is a folder listed before, opened again: it lists its names
// again and describes itself as it was described; it holds nothing to
// read.
type memoDir struct {
	afero.File // nil: a folder is only listed
	name       string
	info       fs.FileInfo
	names      []string
	done       bool
}

func (d *memoDir) Name() string               { return d.name }
func (d *memoDir) Stat() (os.FileInfo, error) { return d.info, nil }
func (d *memoDir) Close() error               { return nil }

// Readdirnames lists the folder's names: all of them at the first call.
func (d *memoDir) Readdirnames(n int) ([]string, error) {
	if d.done {
		if n > 0 {
			return nil, io.EOF
		}
		return nil, nil
	}
	d.done = true
	return append([]string(nil), d.names...), nil
}
