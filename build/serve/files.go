package serve

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// liveTag is the script tag injected into every HTML response of the
// server (and never into a build's output).
const liveTag = `<script src="/_kakehashi/live.js" defer></script>`

// file is one served file of one build, with its served body, ETag and
// compressed body computed on first use and kept while the file's bytes
// stay the same across rebuilds. A file read from the site's own
// (output.Lazy.Source: a page folder's attachment, a file of static/) is
// never held: each request streams it from there (serveSource), and its
// ETag is its fingerprint.
type file struct {
	data  []byte       // as built
	lazy  *output.Lazy // or made on first request, or read on each
	ctype string

	once sync.Once
	body []byte // as served: HTML gets liveTag
	etag string

	gzOnce sync.Once
	gz     []byte // nil when compressing does not pay
}

func newFile(p string, data []byte) *file {
	return &file{data: data, ctype: contentType(p)}
}

// source reports whether f is read from the site's file on each request.
func (f *file) source() bool { return f.lazy != nil && f.lazy.Source() }

func (f *file) prepare() {
	f.once.Do(func() {
		if f.source() {
			f.etag = fmt.Sprintf(`"f%016x"`, f.lazy.Key())
			return
		}
		if f.lazy != nil {
			f.data = f.lazy.Bytes()
		}
		f.body = f.data
		if strings.HasPrefix(f.ctype, "text/html") {
			f.body = injectLive(f.data)
		}
		sum := sha256.Sum256(f.body)
		f.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
	})
}

// Body returns the bytes to serve and their ETag; a file read on each
// request (source) has no bytes here.
func (f *file) Body() ([]byte, string) {
	f.prepare()
	return f.body, f.etag
}

// Gzip returns the gzip-compressed body, or nil when the file is not
// worth compressing.
func (f *file) Gzip() []byte {
	f.prepare()
	f.gzOnce.Do(func() {
		if f.source() || len(f.body) < 512 || !compressible(f.ctype) {
			return
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression)
		zw.Write(f.body)
		zw.Close()
		if b.Len() < len(f.body) {
			f.gz = b.Bytes()
		}
	})
	return f.gz
}

// serveSource streams f, a file read from the site's own, opened for
// this request and never held: with ranges, conditional requests and HEAD
// answered by http.ServeContent (the file is seekable), else copied
// whole. A file gone since the build is not found; the watcher has the
// site built again without it.
func serveSource(w http.ResponseWriter, r *http.Request, f *file, etag string, status int) {
	rc, err := f.lazy.Open()
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	defer rc.Close()
	w.Header().Set("ETag", etag)
	if rs, ok := rc.(io.ReadSeeker); ok && status == http.StatusOK {
		http.ServeContent(w, r, "", time.Time{}, rs)
		return
	}
	if status == http.StatusOK && etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		output.Copy(r.Context(), w, rc)
	}
}

// injectLive puts liveTag before </head>, else before </body>, else at the
// end of an HTML document.
func injectLive(html []byte) []byte {
	i := bytes.Index(html, []byte("</head>"))
	if i < 0 {
		i = bytes.LastIndex(html, []byte("</body>"))
	}
	if i < 0 {
		i = len(html)
	}
	out := make([]byte, 0, len(html)+len(liveTag))
	out = append(out, html[:i]...)
	out = append(out, liveTag...)
	return append(out, html[i:]...)
}

// snapshot is one build's files as served. It is never modified once
// published.
type snapshot struct {
	files map[string]*file
}

// changes is how a snapshot differs from the one before.
type changes struct {
	Changed []string // output paths added or with new bytes, sorted
	Removed []string // output paths gone, sorted
}

// CSSOnly reports whether every change is a stylesheet.
func (c changes) CSSOnly() bool {
	if len(c.Changed) == 0 || len(c.Removed) > 0 {
		return false
	}
	for _, p := range c.Changed {
		if path.Ext(p) != ".css" {
			return false
		}
	}
	return true
}

// Empty reports whether nothing changed.
func (c changes) Empty() bool { return len(c.Changed) == 0 && len(c.Removed) == 0 }

// newSnapshot takes the files of site, reusing the entries of prev (and
// their cached ETags and compressed bodies) for files whose bytes did not
// change.
func newSnapshot(site *output.Site, prev *snapshot) (*snapshot, changes) {
	paths := site.Paths()
	s := &snapshot{files: make(map[string]*file, len(paths))}
	var ch changes
	for _, p := range paths {
		if l, ok := site.Lazy(p); ok {
			if prev != nil {
				if old, ok := prev.files[p]; ok && old.lazy != nil && old.lazy.Key() == l.Key() {
					s.files[p] = old
					continue
				}
			}
			s.files[p] = &file{lazy: l, ctype: contentType(p)}
			ch.Changed = append(ch.Changed, p)
			continue
		}
		data, _ := site.Get(p)
		if prev != nil {
			if old, ok := prev.files[p]; ok && old.lazy == nil && sameBytes(old.data, data) {
				s.files[p] = old
				continue
			}
		}
		s.files[p] = newFile(p, data)
		ch.Changed = append(ch.Changed, p)
	}
	if prev != nil {
		for p := range prev.files {
			if _, ok := s.files[p]; !ok {
				ch.Removed = append(ch.Removed, p)
			}
		}
		sort.Strings(ch.Removed)
	}
	return s, ch
}

// next is the snapshot of site, the build after the one prev was taken
// of, whose Result said which output paths changed (added or with new
// bytes) and which went (build.Result.Changed and Removed): prev's
// entries of the others are taken as they are, without comparing a file.
func (prev *snapshot) next(site *output.Site, changed, removed []string) (*snapshot, changes) {
	s := &snapshot{files: maps.Clone(prev.files)}
	for _, p := range removed {
		delete(s.files, p)
	}
	for _, p := range changed {
		if l, ok := site.Lazy(p); ok {
			s.files[p] = &file{lazy: l, ctype: contentType(p)}
			continue
		}
		data, _ := site.Get(p)
		s.files[p] = newFile(p, data)
	}
	return s, changes{Changed: changed, Removed: removed}
}

func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return bytes.Equal(a, b)
}

// lookup finds the file for a cleaned site path ("" is the root): a
// folder gives its index.html. redirect is set when the path names a
// folder without its trailing slash.
func (s *snapshot) lookup(name string, slash bool) (f *file, redirect bool) {
	if s == nil {
		return nil, false
	}
	if name == "" {
		return s.files["index.html"], false
	}
	if slash {
		return s.files[name+"/index.html"], false
	}
	if f := s.files[name]; f != nil {
		return f, false
	}
	if s.files[name+"/index.html"] != nil {
		return nil, true
	}
	return nil, false
}

// errBadPath is a request path the server refuses outright.
var errBadPath = errors.New("bad path")

// cleanPath turns a request's decoded path and its escaped form into a site
// path without leading slash ("" for the root) and whether it ended in a
// slash. It refuses, rather than repairs, anything that could name a file
// outside the site: ".." segments (also when percent-encoded), encoded
// slashes and backslashes, backslashes, NUL and other control characters,
// and Windows drive letters.
func cleanPath(decoded, escaped string) (name string, slash bool, err error) {
	low := strings.ToLower(escaped)
	if strings.Contains(low, "%2f") || strings.Contains(low, "%5c") || strings.Contains(low, "%00") {
		return "", false, errBadPath
	}
	if !strings.HasPrefix(decoded, "/") {
		return "", false, errBadPath
	}
	for _, r := range decoded {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return "", false, errBadPath
		}
	}
	segs := strings.Split(decoded[1:], "/")
	for i, seg := range segs {
		if seg == ".." {
			return "", false, errBadPath
		}
		if i == 0 && len(seg) >= 2 && seg[1] == ':' && isLetter(seg[0]) {
			return "", false, errBadPath
		}
	}
	clean := path.Clean(decoded)
	return strings.TrimPrefix(clean, "/"), strings.HasSuffix(decoded, "/") && clean != "/", nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// contentType is the Content-Type the server sends for a site path.
func contentType(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".html", ".htm":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".json", ".map":
		return "application/json"
	case ".wasm":
		return "application/wasm"
	case ".svg":
		return "image/svg+xml"
	case ".xml":
		return "application/xml; charset=utf-8"
	case ".txt", ".md":
		return "text/plain; charset=utf-8"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".avif":
		return "image/avif"
	case ".ico":
		return "image/x-icon"
	case ".woff2":
		return "font/woff2"
	case ".woff":
		return "font/woff"
	case ".pdf":
		return "application/pdf"
	case ".webmanifest":
		return "application/manifest+json"
	}
	return "application/octet-stream"
}

func compressible(ctype string) bool {
	for _, p := range []string{"text/", "application/javascript", "application/json", "application/xml", "application/wasm", "image/svg+xml", "application/manifest+json"} {
		if strings.HasPrefix(ctype, p) {
			return true
		}
	}
	return false
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) not refused
// with q=0.
func acceptsGzip(h string) bool {
	for _, part := range strings.Split(h, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
			continue
		}
		return true
	}
	return false
}

func etagMatch(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}
