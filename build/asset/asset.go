// Package asset resolves the files a page shows (images) for the markdown
// stage: a reference written in a page ("diagram.png", "img/node.jpg",
// "/img/site.png") becomes the file's URL relative to the page and its
// size in pixels, or an error that says where the file was looked for. It
// reads only the head of each image, through the site's reader; the
// build publishes the files.
package asset

import (
	"fmt"
	"io"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
)

// Resolver resolves the references of the pages of one site.
type Resolver struct {
	fsys   afero.Fs
	st     *site.Site
	first  string                       // the first language, whose files a translation may use
	static map[string]render.StaticFile // the static files by site-absolute path
	// bundleFP is the identity of each page folder's files (names,
	// sizes, times), staticFP that of the static images.
	bundleFP map[string]uint64
	staticFP uint64

	mu    sync.Mutex
	sizes map[identity]dims
}

type identity struct {
	path string
	size int64
	mod  time.Time
}

type dims struct {
	w, h int
	err  error
}

// New returns a Resolver for st, whose page folder files are read from
// fsys; first is the site's first language and files are the site's
// and the theme's static files (their paths site-absolute, "/img/site.png").
func New(fsys afero.Fs, st *site.Site, first string, files []render.StaticFile) *Resolver {
	static := make(map[string]render.StaticFile, len(files))
	for _, f := range files {
		static[f.Path] = f
	}
	r := &Resolver{fsys: fsys, st: st, first: first, static: static, bundleFP: map[string]uint64{}, sizes: map[identity]dims{}}
	hs := map[string]*cache.Hasher{}
	for _, f := range st.Files {
		h := hs[f.Page.Bundle]
		if h == nil {
			h = cache.NewHasher()
			hs[f.Page.Bundle] = h
		}
		h.Str(f.Source.Path)
		h.Num(f.Source.Size)
		h.Num(f.Source.ModTime.UnixNano())
	}
	for b, h := range hs {
		r.bundleFP[b] = h.Sum()
	}
	// The static images by their bytes, or, for those copied as they
	// are, by their size and time, as the page folders' files.
	h := cache.NewHasher()
	for _, p := range slices.Sorted(maps.Keys(static)) {
		if f := static[p]; IsImage(p) {
			h.Str(p)
			if f.Copied() {
				h.Num(f.Size)
				h.Num(f.ModTime.UnixNano())
			} else {
				h.Bytes(f.Data)
			}
		}
	}
	r.staticFP = h.Sum()
	return r
}

// Fingerprint names everything the references of page p can resolve to:
// the files of its page folder and of its first language's twin, and the
// static images. A page's rendering is valid while it stays the same.
func (r *Resolver) Fingerprint(p *site.Page) uint64 {
	h := cache.NewHasher()
	h.Num(int64(r.staticFP))
	h.Num(int64(r.bundleFP[p.Bundle]))
	if t := p.Translations[r.first]; t != nil && t != p {
		h.Num(int64(r.bundleFP[t.Bundle]))
	}
	return h.Sum()
}

// For returns the function that resolves the references of page p
// (markdown.Env.Assets).
func (r *Resolver) For(p *site.Page) func(ref string) (markdown.Asset, error) {
	return func(ref string) (markdown.Asset, error) { return r.resolve(p, ref) }
}

// External reports whether ref is a URL of another site (a scheme, or
// "//host"), which the build does not check.
func External(ref string) bool {
	if strings.HasPrefix(ref, "//") {
		return true
	}
	u, err := url.Parse(ref)
	return err == nil && u.Scheme != ""
}

func (r *Resolver) resolve(p *site.Page, ref string) (markdown.Asset, error) {
	if External(ref) {
		return markdown.Asset{URL: ref}, nil
	}
	name, suffix := ref, ""
	if i := strings.IndexAny(name, "?#"); i >= 0 {
		name, suffix = name[:i], name[i:]
	}
	if name == "" {
		return markdown.Asset{}, fmt.Errorf("image %q names no file", ref)
	}
	if n, err := url.PathUnescape(name); err == nil {
		name = n
	}
	if strings.HasPrefix(name, "/") {
		clean := path.Clean(name)
		f, ok := r.static[clean]
		if !ok {
			return markdown.Asset{}, fmt.Errorf("image %q not found: no file static%s in the site or its theme", ref, clean)
		}
		d := r.staticSize(f)
		if d.err != nil {
			return markdown.Asset{}, fmt.Errorf("image %q cannot be read: %v", ref, d.err)
		}
		return markdown.Asset{URL: render.Rel(p.URL, clean) + suffix, Width: d.w, Height: d.h}, nil
	}
	if p.Bundle == "" && p.Source.IsIndex() {
		return markdown.Asset{}, fmt.Errorf("image %q not found: the files beside an _index.md are not published; put the image in static/ and write \"/%s\"", ref, name)
	}
	if p.Bundle == "" {
		return markdown.Asset{}, fmt.Errorf("image %q not found: only a page folder (%s/index.md) holds files beside its page; or put the image in static/ and write \"/%s\"",
			ref, strings.TrimSuffix(p.Source.Path, ".md"), name)
	}
	looked := []string{path.Join(path.Dir(p.Source.Path), name)}
	f := r.st.File(path.Join(p.Bundle, name))
	if t := p.Translations[r.first]; f == nil && t != nil && t != p && t.Bundle != "" {
		f = r.st.File(path.Join(t.Bundle, name))
		looked = append(looked, path.Join(path.Dir(t.Source.Path), name))
	}
	if f == nil {
		return markdown.Asset{}, fmt.Errorf("image %q not found: no file %s", ref, strings.Join(looked, " nor "))
	}
	d := r.size(f)
	if d.err != nil {
		return markdown.Asset{}, fmt.Errorf("image %q cannot be read: %s: %v", ref, f.Source.Path, d.err)
	}
	return markdown.Asset{URL: rel(p.URL, f.URL) + suffix, Width: d.w, Height: d.h}, nil
}

// rel is the URL of the file at the site-absolute target relative to the
// page at from: its name alone inside the page's folder, else by the
// site root (render.Rel).
func rel(from, target string) string {
	if strings.HasSuffix(from, "/") && strings.HasPrefix(target, from) {
		return strings.TrimPrefix(target, from)
	}
	return render.Rel(from, target)
}

// size reads the size of a page folder's image, once per identity.
func (r *Resolver) size(f *site.File) dims {
	return r.sized(identity{f.Source.Path, f.Source.Size, f.Source.ModTime}, func() (io.ReadCloser, error) {
		return r.fsys.Open(f.Source.Path)
	})
}

// staticSize reads the size of a static image, once per identity: from
// its bytes, or from the head of a file copied as it is.
func (r *Resolver) staticSize(f render.StaticFile) dims {
	if !f.Copied() {
		var d dims
		d.w, d.h, d.err = Size(f.Path, f.Data)
		return d
	}
	return r.sized(identity{f.Source, f.Size, f.ModTime}, f.Open)
}

// sized reads the size of the image id names from the head of what open
// opens, once per identity; only as much of the file is read as its
// size takes.
func (r *Resolver) sized(id identity, open func() (io.ReadCloser, error)) dims {
	r.mu.Lock()
	d, ok := r.sizes[id]
	r.mu.Unlock()
	if ok {
		return d
	}
	if IsImage(id.path) {
		fh, err := open()
		if err != nil {
			d.err = err
		} else {
			d.w, d.h, d.err = SizeOf(id.path, fh)
			fh.Close()
		}
	}
	r.mu.Lock()
	r.sizes[id] = d
	r.mu.Unlock()
	return d
}
