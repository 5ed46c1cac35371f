package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// StaticFile is one file of the theme's static/ folder, or one the build
// makes to publish beside them.
type StaticFile struct {
	// Path is where the file goes in the site, site-absolute:
	// static/css/main.css → "/css/main.css".
	Path string
	// Source is the file's path in the theme's file system, by its
	// origin when the theme is layered (source.Origin).
	Source string
	// Data is the file's content, when the build reads it to change it
	// or to name it by its hash: a stylesheet, a script, a module
	// (Fingerprinted). A static file published as it is (an image, a
	// PDF, a video) is not held in memory: Data is nil, and Open reads
	// it when it is written (Copied).
	Data []byte
	// Size and ModTime describe a copied file as the walk found it; the
	// build fingerprints it by them.
	Size    int64
	ModTime time.Time
	fsys    afero.Fs // where a copied file is read from
	name    string   // its path there
	// open, when not nil, opens a file the build names by a known sum
	// but streams as it is written (a calculator's module).
	open func() (io.ReadCloser, error)
}

// Copied reports whether the file is published as it is, read through
// Open as it is written, rather than from Data.
func (f StaticFile) Copied() bool { return f.fsys != nil || f.open != nil }

// Open opens the file for reading: a copied file from the theme's file
// system or from where the build streams it, any other from Data.
func (f StaticFile) Open() (io.ReadCloser, error) {
	switch {
	case f.open != nil:
		return f.open()
	case f.fsys != nil:
		return f.fsys.Open(f.name)
	}
	return io.NopCloser(bytes.NewReader(f.Data)), nil
}

// Static returns the theme's static/ files, sorted by Path, to be copied
// into the site root. A theme without static/ has none. Stylesheets,
// scripts and modules are read (Data); the others are only listed, to be
// streamed when written (Copied). Dot files and editors' leftovers
// (source.Leftover) are left out. A file that cannot be read (a symbolic
// link out of the site among them), that is not a regular file (a named
// pipe, a socket, a device: never opened) or whose name cannot be an
// output path is an error at its path; the error is a diag.List of every
// such file.
func (th *Theme) Static() ([]StaticFile, error) {
	root := path.Join(th.dir, "static")
	if ok, err := afero.DirExists(th.fsys, root); err != nil || !ok {
		if err != nil {
			return nil, diag.List{diag.File(root, "%v", err)}
		}
		return nil, nil
	}
	var files []StaticFile
	var diags diag.List
	err := afero.Walk(th.fsys, root, func(p string, info os.FileInfo, err error) error {
		p = filepath.ToSlash(p)
		at := source.Origin(th.fsys, p) // the file's path in diagnostics
		if err != nil {
			diags = append(diags, diag.File(at, "%v", err))
			return nil
		}
		if p != root && source.Leftover(info.Name()) {
			if info.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if info.IsDir() || strings.HasPrefix(info.Name(), ".") {
			return nil
		}
		if err := source.CheckRegular(at, info); err != nil {
			diags = append(diags, diag.File(at, "%v", err))
			return nil
		}
		rel := strings.TrimPrefix(p, root)
		for _, seg := range strings.Split(strings.TrimPrefix(rel, "/"), "/") {
			if err := source.CheckSegment(seg); err != nil {
				diags = append(diags, diag.File(at, "this file name cannot be published: %v", err))
				return nil
			}
		}
		f := StaticFile{Path: "/" + strings.TrimPrefix(rel, "/"), Source: at, Size: info.Size(), ModTime: info.ModTime()}
		if !Fingerprinted(f.Path) {
			f.fsys, f.name = th.fsys, p
			files = append(files, f)
			return nil
		}
		data, err := afero.ReadFile(th.fsys, p)
		if err != nil {
			diags = append(diags, diag.File(at, "%v", err))
			return nil
		}
		f.Data = data
		files = append(files, f)
		return nil
	})
	if err != nil {
		diags = append(diags, diag.File(root, "%v", err))
	}
	if len(diags) > 0 {
		diags.Sort()
		return nil, diags
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// Assets maps the site-absolute path of each fingerprinted file
// ("/css/main.css") to the path it is published at, which carries a hash
// of its bytes ("/css/main.3f2a1c9e.css"). The rel and abs template
// functions give a fingerprinted file's published URL, so layouts name
// the plain path. A nil Assets fingerprints nothing.
type Assets map[string]string

// Fingerprinted reports whether a file at site path p is published under
// a hashed name: stylesheets, scripts and WebAssembly modules. The search
// indexes (/<lang>/search-index.js) are not: they are made after the
// pages that name them, so they keep their name and are revalidated (the
// shards and fragments they name carry hashes of their own).
func Fingerprinted(p string) bool {
	if strings.HasSuffix(p, "/search-index.js") {
		return false
	}
	switch path.Ext(p) {
	case ".css", ".js", ".wasm":
		return true
	}
	return false
}

// HashedName inserts the first 8 hex digits of data's SHA-256 before the
// extension of p: HashedName("/css/main.css", data) == "/css/main.3f2a1c9e.css".
// A ".wasm.js" script form of a module takes the module's name plus ".js"
// (see Assets.Script), so only the last extension counts here.
func HashedName(p string, data []byte) string {
	sum := sha256.Sum256(data)
	return hashedNameSum(p, hex.EncodeToString(sum[:4]))
}

// hashedNameSum is HashedName for data whose SHA-256 is sum, in hex.
func hashedNameSum(p, sum string) string {
	ext := path.Ext(p)
	return strings.TrimSuffix(p, ext) + "." + sum[:8] + ext
}

// Add records that p is published at HashedName(p, data) and returns that
// name.
func (a Assets) Add(p string, data []byte) string {
	h := HashedName(p, data)
	a[p] = h
	return h
}

// AddSum is Add for a file whose SHA-256 (hex) is known: sum.
func (a Assets) AddSum(p, sum string) string {
	h := hashedNameSum(p, sum)
	a[p] = h
	return h
}

// Path returns the published path of p: its hashed name when p is
// fingerprinted, else p. A query or fragment is kept.
func (a Assets) Path(p string) string {
	if len(a) == 0 {
		return p
	}
	q := ""
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p, q = p[:i], p[i:]
	}
	if h, ok := a[p]; ok {
		return h + q
	}
	return p + q
}

// Hashed reports whether p (site-absolute) is the hashed name of a
// fingerprinted file, one that never changes: served with a long cache.
func (a Assets) Hashed(p string) bool {
	for _, h := range a {
		if h == p {
			return true
		}
	}
	return false
}

// Digest is a hash of every entry, for the fingerprints of the pages that
// name them.
func (a Assets) Digest() uint64 {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		h.Write([]byte(k + "\x00" + a[k] + "\x00"))
	}
	sum := h.Sum(nil)
	var d uint64
	for _, b := range sum[:8] {
		d = d<<8 | uint64(b)
	}
	return d
}
