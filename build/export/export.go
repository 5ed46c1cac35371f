// Package export turns a built site into a copy that works when opened
// straight from disk (file://): every link between pages names its
// index.html explicitly, because file:// has no folder index. It also
// writes the copy as a deterministic zip.
package export

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// attrRe finds URL attributes in HTML written by html/template and
// goldmark, which always quote attribute values with double quotes.
var attrRe = regexp.MustCompile(`(\s(?:href|src|action)=")([^"]*)(")`)

// Rewrite returns a copy of s in which every relative link to a folder in
// an HTML file ("../02-control-plane/", "./", "..") ends in index.html.
func Rewrite(s *output.Site) *output.Site {
	out := s.Clone()
	for _, p := range out.Paths() {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		b, _ := out.Get(p)
		out.Put(p, attrRe.ReplaceAllFunc(b, func(m []byte) []byte {
			g := attrRe.FindSubmatch(m)
			return append(append(append([]byte(nil), g[1]...), ExplicitIndex(string(g[2]))...), g[3]...)
		}))
	}
	return out
}

// ExplicitIndex appends index.html to a relative URL that names a folder.
// Absolute URLs, root-relative paths, fragments and file links are left
// alone. Only attributes that are navigated to get the suffix: a folder
// that scripts join paths to (the search box's data-base) must stay a
// folder.
func ExplicitIndex(ref string) string {
	if ref == "" || strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, "/") {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return ref
	}
	p, rest := ref, ""
	if i := strings.IndexAny(ref, "?#"); i >= 0 {
		p, rest = ref[:i], ref[i:]
	}
	switch {
	case p == "." || p == "..":
		p += "/index.html"
	case strings.HasSuffix(p, "/"):
		p += "index.html"
	}
	return p + rest
}

// zipTime is the modification time written for every zip entry, so the
// same site always gives the same zip.
var zipTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Zip writes s as a zip archive under the folder name root, files in
// sorted order with a fixed time: the same site gives the same bytes.
func Zip(ctx context.Context, w io.Writer, root string, s *output.Site) error {
	zw := zip.NewWriter(w)
	for _, p := range s.Paths() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, _ := s.Get(p)
		h := &zip.FileHeader{Name: root + "/" + p, Method: zip.Deflate, Modified: zipTime}
		h.SetMode(0o644)
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, bytes.NewReader(b)); err != nil {
			return err
		}
	}
	return zw.Close()
}

// Site turns a build made with build.Options.ExplicitIndex into the offline
// copy: links rewritten for file://, and the files only a server uses (the
// 404 page, robots.txt, the sitemap) left out.
func Site(s *output.Site) *output.Site {
	out := Rewrite(s)
	for _, p := range []string{"404.html", "robots.txt", "sitemap.xml"} {
		out.Delete(p)
	}
	return out
}
