package export_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// largeFiles are the two files of bundleSite that may be large: one in a
// page folder, one in static/, by their output paths.
var largeFiles = []string{"ja/cka/01-intro/movie.mp4", "docs/slides.pdf"}

// bundleSite is sitetest.LargeFiles built for an export: a page folder's
// file and a static/ file of size bytes each, sparse, marked in their
// middle.
func bundleSite(t *testing.T, size int64) *sitetest.Site {
	t.Helper()
	return sitetest.LargeFiles(t, size, sitetest.WithOptions(func(o *build.Options) { o.ExplicitIndex = true })).Build()
}

// allocExport exports the built site s as kakehashi export does, to a
// folder and, with zip, to a zip too, and returns the bytes that
// allocated (the build not counted), the folder and the zip.
func allocExport(t *testing.T, s *sitetest.Site, withZip bool) (alloc uint64, dir, zipPath string) {
	t.Helper()
	ctx := context.Background()
	fsys := afero.NewOsFs()
	tmp := t.TempDir()
	dir = filepath.Join(tmp, "public-offline")
	zipPath = filepath.Join(tmp, "course.zip")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	site := export.Site(s.Result().Site)
	if withZip {
		if err := export.WriteZip(ctx, fsys, zipPath, "public-offline", site); err != nil {
			t.Fatal(err)
		}
	} else if err := output.Publish(ctx, fsys, dir, site); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, dir, zipPath
}

// sameBytes reports whether a and b read the same bytes, a piece at a
// time.
func sameBytes(t *testing.T, a, b io.Reader) bool {
	t.Helper()
	ba, bb := make([]byte, 1<<20), make([]byte, 1<<20)
	for {
		na, ea := io.ReadFull(a, ba)
		nb, eb := io.ReadFull(b, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if ea == io.EOF || ea == io.ErrUnexpectedEOF || eb == io.EOF || eb == io.ErrUnexpectedEOF {
			return (ea == io.EOF || ea == io.ErrUnexpectedEOF) && (eb == io.EOF || eb == io.ErrUnexpectedEOF)
		}
		if ea != nil || eb != nil {
			t.Fatalf("reading: %v, %v", ea, eb)
		}
	}
}

// source opens the file of the site s published at output path p.
func source(t *testing.T, s *sitetest.Site, p string) *os.File {
	t.Helper()
	rel := map[string]string{largeFiles[0]: "content/ja/cka/01-intro/movie.mp4", largeFiles[1]: "static/docs/slides.pdf"}[p]
	f, err := os.Open(filepath.Join(s.Root(), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestExportLargeFilesStreamed exports a site whose page folder and
// static/ each hold a file of 200 MB, to a folder and to a zip: the
// export allocates about what it allocates for the same site with small
// files, far below their size, since both are copied from the site a
// piece at a time; and both arrive whole.
func TestExportLargeFilesStreamed(t *testing.T) {
	const size = 200 << 20
	small, large := bundleSite(t, 16), bundleSite(t, size)
	for _, tt := range []struct {
		name string
		zip  bool
	}{{"folder", false}, {"zip", true}} {
		t.Run(tt.name, func(t *testing.T) {
			base, _, _ := allocExport(t, small, tt.zip)
			alloc, dir, zipPath := allocExport(t, large, tt.zip)
			t.Logf("allocated %d KB with small files, %d KB with files of %d MB", base>>10, alloc>>10, size>>20)
			if alloc > base+32<<20 {
				t.Errorf("the export of two files of %d MB allocated %d MB, %d MB more than with small files: they were held in memory",
					size>>20, alloc>>20, (alloc-base)>>20)
			}
			if !tt.zip {
				for _, p := range largeFiles {
					f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)))
					if err != nil {
						t.Fatal(err)
					}
					if !sameBytes(t, f, source(t, large, p)) {
						t.Errorf("%s: the exported file differs from the site's", p)
					}
					f.Close()
				}
				return
			}
			zr, err := zip.OpenReader(zipPath)
			if err != nil {
				t.Fatal(err)
			}
			defer zr.Close()
			found := 0
			for _, zf := range zr.File {
				for _, p := range largeFiles {
					if zf.Name != "public-offline/"+p {
						continue
					}
					found++
					rc, err := zf.Open()
					if err != nil {
						t.Fatal(err)
					}
					if zf.UncompressedSize64 != size || !sameBytes(t, rc, source(t, large, p)) {
						t.Errorf("%s: the zipped file (%d bytes) differs from the site's", p, zf.UncompressedSize64)
					}
					rc.Close()
				}
			}
			if found != len(largeFiles) {
				t.Errorf("the zip holds %d of the %d large files", found, len(largeFiles))
			}
		})
	}
}

// TestZipOfSourcesDeterministic: a zip of a site whose files are read
// from its sources is the same, byte for byte, as the zip of the same
// site held in memory.
func TestZipOfSourcesDeterministic(t *testing.T) {
	s := bundleSite(t, 3<<20)
	streamed := export.Site(s.Result().Site)
	held := output.New()
	for _, p := range streamed.Paths() {
		b, _ := streamed.Get(p)
		held.Put(p, b)
	}
	if _, ok := streamed.Lazy(largeFiles[0]); !ok {
		t.Fatalf("%s is not read from the site", largeFiles[0])
	}
	var a, b bytes.Buffer
	ctx := context.Background()
	if err := export.Zip(ctx, &a, "course", streamed); err != nil {
		t.Fatal(err)
	}
	if err := export.Zip(ctx, &b, "course", held); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the zip of files read from the site differs from the zip of the same files in memory")
	}
}
