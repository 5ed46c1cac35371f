package build_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// buildOrHang builds with b as the authoring server does (in memory,
// after telling it what changed), failing the test if the build never
// returns: what it guards against is a build waiting for ever on a named
// pipe.
func buildOrHang(t *testing.T, b *build.Builder, changed ...string) (*build.Result, error) {
	t.Helper()
	b.Invalidate(changed...)
	type result struct {
		res *build.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := b.Build(context.Background())
		done <- result{res, err}
	}()
	select {
	case r := <-done:
		return r.res, r.err
	case <-time.After(time.Minute):
		t.Fatal("the build never returned: it waits on a file that is not a regular one")
		return nil, nil
	}
}

// TestSiteNamedPipeThenRebuild saves a named pipe where each kind of the
// site's files is read, as an editor or a script might: the rebuild fails
// at once with an error at its path, never opening it, and once it is
// removed the next rebuild succeeds with the site as before.
func TestSiteNamedPipeThenRebuild(t *testing.T) {
	for _, tc := range []struct {
		path, want string
	}{
		{"content/ja/cka/pipe.md", "content/ja/cka/pipe.md: not a regular file (a named pipe): remove it"},
		{"content/ja/cka/03-next/index.md", "content/ja/cka/03-next/index.md: not a regular file (a named pipe): remove it"},
		{"content/series/pipe.yaml", "content/series/pipe.yaml: not a regular file (a named pipe): remove it"},
		{"static/img/pipe.png", "static/img/pipe.png: not a regular file (a named pipe): remove it"},
		{"layouts/pipe.html", "layouts/pipe.html: cannot read: not a regular file (a named pipe): remove it"},
		{"kakehashi.toml", "kakehashi.toml: cannot read: not a regular file (a named pipe): remove it"},
		{"i18n/ja.toml", "i18n/ja.toml: cannot read: not a regular file (a named pipe): remove it"},
		{"themes/default/static/img/pipe.svg", "themes/default/static/img/pipe.svg: not a regular file (a named pipe): remove it"},
		{"themes/default/layouts/pipe.html", "themes/default/layouts/pipe.html: cannot read: not a regular file (a named pipe): remove it"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			s := sitetest.New(t, twoParts(t), sitetest.OnDisk())
			b, err := build.New(s.Fs(), s.Options())
			if err != nil {
				t.Fatal(err)
			}
			before, err := buildOrHang(t, b)
			if err != nil {
				t.Fatal(err)
			}
			pipe := filepath.Join(s.Root(), filepath.FromSlash(tc.path))
			if err := os.MkdirAll(filepath.Dir(pipe), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(pipe, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = buildOrHang(t, b, tc.path)
			var got []string
			for _, d := range diag.FromError(err) {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("with the pipe: %v\nwant %s", err, tc.want)
			}
			if err := os.Remove(pipe); err != nil {
				t.Fatal(err)
			}
			after, err := buildOrHang(t, b, tc.path)
			if err != nil {
				t.Fatalf("the rebuild after the pipe was removed: %v", err)
			}
			for _, p := range before.Site.Paths() {
				a, _ := before.Site.Get(p)
				z, ok := after.Site.Get(p)
				if !ok || string(a) != string(z) {
					t.Errorf("%s differs from the build before the pipe", p)
				}
			}
		})
	}
}

// bundleSite is a site whose page folder holds a file of size bytes, and
// whose static/ holds another: both sparse, taking no room on the disk.
func bundleSite(t *testing.T, size int64) *sitetest.Site {
	t.Helper()
	return sitetest.LargeFiles(t, size)
}

// allocBuildToDisk builds s to a folder on disk as kakehashi build does
// and returns the bytes the build allocated and the published folder.
func allocBuildToDisk(t *testing.T, s *sitetest.Site) (uint64, string) {
	t.Helper()
	ctx := context.Background()
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "public")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	st, err := output.Stage(ctx, afero.NewOsFs(), dest)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.BuildTo(ctx, st); err != nil {
		st.Abort()
		t.Fatal(err)
	}
	if err := st.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, dest
}

// TestSiteLargeFilesStreamed builds a site whose page folder and static/
// each hold a file of 200 MB, through the real filesystem: the build
// allocates about what it allocates for the same site with small files,
// far below their size, since both are copied a piece at a time.
func TestSiteLargeFilesStreamed(t *testing.T) {
	const size = 200 << 20
	small, _ := allocBuildToDisk(t, bundleSite(t, 4))
	large, dest := allocBuildToDisk(t, bundleSite(t, size))
	for _, p := range []string{"ja/cka/01-intro/movie.mp4", "docs/slides.pdf"} {
		fi, err := os.Stat(filepath.Join(dest, filepath.FromSlash(p)))
		if err != nil || fi.Size() != size {
			t.Fatalf("%s published: %v, %v", p, fi, err)
		}
	}
	t.Logf("allocated %d KB with small files, %d KB with files of %d MB", small>>10, large>>10, size>>20)
	if large > small+32<<20 {
		t.Errorf("the build of two files of %d MB allocated %d MB, %d MB more than with small files: they were held in memory",
			size>>20, large>>20, (large-small)>>20)
	}
}

// TestSiteLeftoversNotPublished: what editors and merges leave in a page
// folder, in static/ and in layouts/ is neither published nor an error,
// on disk as in memory.
func TestSiteLeftoversNotPublished(t *testing.T) {
	archive := `
-- content/series/cka.yaml --
id: cka
title: {ja: CKA, ko: CKA}
parts:
  - number: 1
    title: {ja: はじめに, ko: 소개}
    state: published
-- content/ja/cka/01-intro/index.md --
---
title: はじめに
series: cka
part: 1
---
![図](diagram.svg)
-- content/ja/cka/01-intro/diagram.svg --
<svg width="10" height="10"/>
-- content/ko/cka/01-intro/index.md --
---
title: 소개
series: cka
part: 1
---
본문입니다.
`
	leftovers := []string{
		"content/ja/cka/01-intro/#index.md#", "content/ja/cka/01-intro/index.md~", "content/ja/cka/01-intro/index.md.orig",
		"content/ja/cka/01-intro/.index.md.swp", "content/ja/cka/01-intro/#diagram.svg#", "content/ja/cka/#02-next.md#",
		"static/img/#logo.svg#", "static/img/logo.svg.orig", "static/.DS_Store", "layouts/.#article.html", "layouts/article.html~",
	}
	for _, disk := range []bool{false, true} {
		var opts []sitetest.Option
		if disk {
			opts = append(opts, sitetest.OnDisk())
		}
		s := sitetest.New(t, archive, opts...)
		for _, p := range leftovers {
			s.WriteFile(p, "---\ntitle: [unclosed\n---\n{{< nope >}}\n")
		}
		s.Build().AssertExists("ja/cka/01-intro/index.html", "ja/cka/01-intro/diagram.svg")
		for _, p := range s.Result().Site.Paths() {
			if strings.ContainsAny(p, "#~") || strings.HasSuffix(p, ".orig") || strings.Contains(p, ".swp") || strings.Contains(p, "DS_Store") {
				t.Errorf("on disk %v: %s published", disk, p)
			}
		}
		if w := s.Warnings(); len(w) > 0 {
			t.Errorf("on disk %v: warnings %v", disk, w)
		}
	}
}

// TestSiteLargeFilesInMemory: a build in memory (the authoring server,
// check, export) reads a large file of a page folder or of static/ only
// when it is asked for, and then whole.
func TestSiteLargeFilesInMemory(t *testing.T) {
	const size = 200 << 20
	alloc := func(s *sitetest.Site) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s.Build()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small := alloc(bundleSite(t, 4))
	s := bundleSite(t, size)
	if large := alloc(s); large > small+32<<20 {
		t.Errorf("the build in memory of two files of %d MB allocated %d MB more than with small files: it read them", size>>20, (large-small)>>20)
	}
	for _, p := range []string{"ja/cka/01-intro/movie.mp4", "docs/slides.pdf"} {
		if b, ok := s.Result().Site.Get(p); !ok || len(b) != size {
			t.Errorf("%s: %d bytes, want %d", p, len(b), size)
		}
	}
}
