package source

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"
	"github.com/spf13/afero/mem"
)

// Layer is one folder of a Layers filesystem: Dir on Fs, called Label in
// diagnostics (Dir when Label is empty).
type Layer struct {
	Fs    afero.Fs
	Dir   string // slash-separated; "" or "." is Fs's root
	Label string
}

// EmbeddedLabel is the Label of a layer embedded in the binary, such as
// the default theme: "(embedded) themes/default". A diagnostic in such a
// file reads "(embedded) themes/default/layouts/article.html:3:5: ...".
func EmbeddedLabel(dir string) string { return "(embedded) " + dir }

// Layers returns a read-only filesystem that lays the layers one over
// another, the first on top: a path is the file of the first layer that
// has it, and a folder lists the entries of every layer that has that
// folder, each name once, sorted, leaving out editors' leftovers
// (Leftover). A layer's error other than "does not
// exist" (a symbolic link out of the site, through SiteFS) is the error
// of the path: it never falls through to a lower layer. Origin tells
// which layer's file a path is.
func Layers(layers ...Layer) afero.Fs {
	return &layersFs{layers: layers}
}

// Origin is the path diagnostics name for name read through fsys: for a
// Layers filesystem, the file in the layer that has it, under the
// layer's Label or Dir ("themes/default/layouts/article.html"); for any
// other filesystem, name itself.
func Origin(fsys afero.Fs, name string) string {
	if l, ok := fsys.(*layersFs); ok {
		return l.origin(name)
	}
	return name
}

type layersFs struct {
	layers []Layer
}

var _ afero.Fs = (*layersFs)(nil)
var _ afero.Lstater = (*layersFs)(nil)

// rel is name relative to the layers' root, "" for the root.
func rel(name string) string {
	return strings.Trim(path.Clean("/"+filepath.ToSlash(name)), "/")
}

// at is name inside layer l.
func (l Layer) at(rel string) string {
	p := path.Join(l.Dir, rel)
	if p == "" {
		return "."
	}
	return p
}

// find is the first layer holding rel and what it holds there, or the
// first layer whose error is not that it has nothing there (-1 when none
// has rel).
func (f *layersFs) find(rel string) (int, os.FileInfo, error) {
	for i, l := range f.layers {
		info, err := l.Fs.Stat(l.at(rel))
		if err == nil {
			return i, info, nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return i, nil, err
		}
	}
	return -1, nil, &fs.PathError{Op: "stat", Path: rel, Err: fs.ErrNotExist}
}

func (f *layersFs) origin(name string) string {
	r := rel(name)
	i, _, _ := f.find(r)
	if i < 0 {
		return r
	}
	l := f.layers[i]
	if l.Label != "" {
		return path.Join(l.Label, r)
	}
	return l.at(r)
}

// Stat describes the path in the first layer that has it.
func (f *layersFs) Stat(name string) (os.FileInfo, error) {
	_, info, err := f.find(rel(name))
	return info, err
}

// LstatIfPossible is Stat: the layers follow their own links.
func (f *layersFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	info, err := f.Stat(name)
	return info, false, err
}

// Open opens the first layer's file, or a folder listing every layer's.
func (f *layersFs) Open(name string) (afero.File, error) {
	r := rel(name)
	i, info, err := f.find(r)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return f.layers[i].Fs.Open(f.layers[i].at(r))
	}
	seen := make(map[string]bool)
	var entries []os.FileInfo
	for _, l := range f.layers[i:] {
		li, err := l.Fs.Stat(l.at(r))
		if err != nil || !li.IsDir() {
			if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				return nil, err
			}
			continue
		}
		d, err := l.Fs.Open(l.at(r))
		if err != nil {
			return nil, err
		}
		list, err := d.Readdir(-1)
		d.Close()
		if err != nil {
			return nil, err
		}
		for _, e := range list {
			if !seen[e.Name()] && !Leftover(e.Name()) {
				seen[e.Name()] = true
				entries = append(entries, e)
			}
		}
	}
	sort.Slice(entries, func(a, b int) bool { return entries[a].Name() < entries[b].Name() })
	return &layersDir{File: mem.NewFileHandle(mem.CreateDir(name)), info: info, entries: entries}, nil
}

// OpenFile opens for reading only.
func (f *layersFs) OpenFile(name string, flag int, _ os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EPERM}
	}
	return f.Open(name)
}

func (f *layersFs) Name() string { return "Layers" }

func denied(op, name string) error { return &fs.PathError{Op: op, Path: name, Err: syscall.EPERM} }

func (f *layersFs) Create(name string) (afero.File, error)    { return nil, denied("create", name) }
func (f *layersFs) Mkdir(name string, _ os.FileMode) error    { return denied("mkdir", name) }
func (f *layersFs) MkdirAll(name string, _ os.FileMode) error { return denied("mkdir", name) }
func (f *layersFs) Remove(name string) error                  { return denied("remove", name) }
func (f *layersFs) RemoveAll(name string) error               { return denied("remove", name) }
func (f *layersFs) Rename(name, _ string) error               { return denied("rename", name) }
func (f *layersFs) Chmod(name string, _ os.FileMode) error    { return denied("chmod", name) }
func (f *layersFs) Chown(name string, _, _ int) error         { return denied("chown", name) }
func (f *layersFs) Chtimes(name string, _, _ time.Time) error { return denied("chtimes", name) }

// layersDir is an open folder of a Layers filesystem: its listing is the
// layers' entries.
type layersDir struct {
	afero.File
	info    os.FileInfo
	entries []os.FileInfo
	off     int
}

// Readdir lists the entries, n at a time when n > 0.
func (d *layersDir) Readdir(n int) ([]os.FileInfo, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return rest[:n], nil
}

// Readdirnames lists the entries' names.
func (d *layersDir) Readdirnames(n int) ([]string, error) {
	infos, err := d.Readdir(n)
	names := make([]string, len(infos))
	for i, fi := range infos {
		names[i] = fi.Name()
	}
	return names, err
}

// Stat describes the top layer's folder.
func (d *layersDir) Stat() (os.FileInfo, error) { return d.info, nil }
