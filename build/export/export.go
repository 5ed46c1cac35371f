// Package export turns a built site into a copy that works when opened
// straight from disk (file://). Every link between pages names its
// index.html explicitly, because file:// has no folder index: a build with
// build.Options.ExplicitIndex writes its links so (render.Link), and Site
// leaves out what only a server uses. It also writes the copy as a
// deterministic zip (Zip, WriteZip), and the whole course as one file
// (SingleFile). It refuses to put either where something of the author's
// is: CheckZip and CheckKind.
package export

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/render"
)

// ExplicitIndex appends index.html to a relative URL that names a folder
// (render.ExplicitIndex).
func ExplicitIndex(ref string) string { return render.ExplicitIndex(ref) }

// zipTime is the modification time written for every zip entry, so the
// same site always gives the same zip.
var zipTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Zip writes s as a zip archive under the folder name root, files in
// sorted order with a fixed time: the same site gives the same bytes. Its
// comment is ZipComment, by which IsZip knows it again. A file read from
// its source (output.NewSource: a page folder's attachment, a file of
// static/) is copied from there a piece at a time, never held whole; an
// interrupt stops the copy.
func Zip(ctx context.Context, w io.Writer, root string, s *output.Site) error {
	zw := zip.NewWriter(w)
	if err := zw.SetComment(ZipComment); err != nil {
		return err
	}
	for _, p := range s.Paths() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := zipFile(ctx, zw, root+"/"+p, s, p); err != nil {
			return err
		}
	}
	return zw.Close()
}

// zipFile writes the file p of s into zw as name.
func zipFile(ctx context.Context, zw *zip.Writer, name string, s *output.Site, p string) error {
	rc, _, err := s.Open(p)
	if err != nil {
		return err
	}
	defer rc.Close()
	h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: zipTime}
	h.SetMode(0o644)
	f, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	if _, err := output.Copy(ctx, f, rc); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

// notFoundPage is the output path of the site's 404 page
// (render.KindNotFound), which a server answers a missing URL with.
const notFoundPage = "404.html"

// serverOnly reports whether the generated files of kind k
// (render.Outputs) are read only by a server's crawlers: the sitemap and
// robots.txt.
func serverOnly(k render.OutputKind) bool {
	return k == render.OutputSitemap || k == render.OutputRobots
}

// Site turns a build made with build.Options.ExplicitIndex, whose links
// already name their index.html, into the offline copy: the files only a
// server uses left out, the 404 page and the generated files only a
// server's crawlers read (the sitemap and robots.txt), at the paths the
// registry of the generated files gives them (render.Outputs: those of the
// whole site, the same whatever its languages).
func Site(s *output.Site) *output.Site {
	out := s.Clone()
	out.Delete(notFoundPage)
	for _, o := range render.NewOutputs(nil, true, false).All() {
		if serverOnly(o.Kind) {
			out.Delete(strings.TrimPrefix(o.Path, "/"))
		}
	}
	return out
}

// siteOf is the data of the whole site the pages belong to; nil when
// none of them has it.
func siteOf(pages []*render.Page) *render.Site {
	for _, p := range pages {
		if p.Site != nil {
			return p.Site
		}
	}
	return nil
}

// published gives the output paths (without the leading slash) at which
// a build published the files at the site-absolute paths ps: a
// stylesheet's or a script's carries a hash of its bytes (render.Assets),
// read from the pages' site data.
func published(pages []*render.Page, ps ...string) []string {
	var a render.Assets
	if site := siteOf(pages); site != nil {
		a = site.Assets
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.TrimPrefix(a.Path(p), "/")
	}
	return out
}

// outputs is the registry of the files the build of the pages' site
// generated (render.Site.Outputs; for site data made without one, the
// outputs of its languages, as render takes them).
func outputs(pages []*render.Page) *render.Outputs {
	site := siteOf(pages)
	switch {
	case site == nil:
		return render.NewOutputs(nil, true, false)
	case site.Outputs != nil:
		return site.Outputs
	}
	return render.NewOutputs(site.Langs, site.NoSearch, true)
}
