package build_test

import (
	"context"
	"flag"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/timing"
)

// benchParts sets the corpus size of BenchmarkBuild; profile a large build
// with: go test -run=NONE -bench=BenchmarkBuild -benchparts=1000 -cpuprofile cpu.prof ./build
var benchParts = flag.Int("benchparts", 100, "parts per language of the corpus BenchmarkBuild builds")

func benchSite(b *testing.B, parts int) afero.Fs {
	b.Helper()
	ctx := context.Background()
	c, err := corpus.LoadDir(ctx, "..")
	if err != nil {
		b.Fatal(err)
	}
	fs, err := c.MemSite(ctx, parts)
	if err != nil {
		b.Fatal(err)
	}
	return fs
}

// BenchmarkBuild builds the whole corpus into memory from cold: a new
// Builder each time, so nothing is reused but the input files.
func BenchmarkBuild(b *testing.B) {
	n := *benchParts
	fs := benchSite(b, n)
	ctx := context.Background()
	for b.Loop() {
		bl, err := build.New(fs, build.Options{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := bl.Build(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if res.Summary.Articles["ja"] != n || res.Summary.Articles["ko"] != n {
			b.Fatalf("built %v articles, want %d per language", res.Summary.Articles, n)
		}
	}
	b.ReportMetric(float64(2*n)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkBuildToDisk is what `kakehashi build` does from cold: pages
// are written into a staging folder on disk as they are made (the search
// indexes tokenized meanwhile), and the folder is swapped in at the end.
// Each run writes a new folder.
func BenchmarkBuildToDisk(b *testing.B) {
	n := *benchParts
	in := benchSite(b, n)
	out := afero.NewOsFs()
	dir := b.TempDir()
	ctx := context.Background()
	run := 0
	for b.Loop() {
		run++
		bl, err := build.New(in, build.Options{})
		if err != nil {
			b.Fatal(err)
		}
		st, err := output.Stage(ctx, out, filepath.Join(dir, fmt.Sprint(run)))
		if err != nil {
			b.Fatal(err)
		}
		res, err := bl.BuildTo(ctx, st)
		if err != nil {
			st.Abort()
			b.Fatal(err)
		}
		if err := st.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		if res.Summary.Articles["ja"] != n || res.Summary.SearchBytes["ja"] == 0 {
			b.Fatalf("built %v articles and search indexes of %v bytes", res.Summary.Articles, res.Summary.SearchBytes)
		}
	}
	b.ReportMetric(float64(2*n)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkCheck is what `kakehashi check` does: the whole pipeline in
// memory, nothing written, then the checks of the whole site. The gate
// is meant to cost no more than a cold build (BenchmarkBuildToDisk).
func BenchmarkCheck(b *testing.B) {
	n := *benchParts
	fs := benchSite(b, n)
	ctx := context.Background()
	for b.Loop() {
		bl, err := build.New(fs, build.Options{LazySearch: true})
		if err != nil {
			b.Fatal(err)
		}
		diags, err := bl.Check(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if errs := diags.Errors(); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
	b.ReportMetric(float64(2*n)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkRebuild builds the corpus again with the same Builder and
// nothing changed: what the authoring server does between edits.
func BenchmarkRebuild(b *testing.B) {
	n := *benchParts
	fs := benchSite(b, n)
	ctx := context.Background()
	bl, err := build.New(fs, build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := bl.Build(ctx); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := bl.Build(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if res.Rendered != 0 {
			b.Fatalf("%d pages rendered again with nothing changed", res.Rendered)
		}
	}
	b.ReportMetric(float64(2*n)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkRebuildOnePage edits one part and builds again with the same
// Builder, as the authoring server does on a save. With -v it logs where
// the last rebuild's time went (build.Options.Timings).
func BenchmarkRebuildOnePage(b *testing.B) {
	n := *benchParts
	fs := benchSite(b, n)
	ctx := context.Background()
	opts := build.Options{LazySearch: true}
	bl, err := build.New(fs, opts)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := bl.Build(ctx); err != nil {
		b.Fatal(err)
	}
	var part string
	afero.Walk(fs, "content/ja", func(p string, info iofs.FileInfo, err error) error {
		if err == nil && part == "" && strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, "_index.md") {
			part = p
		}
		return nil
	})
	orig, err := afero.ReadFile(fs, part)
	if err != nil {
		b.Fatal(err)
	}
	last := timing.Report{}
	for i := 0; b.Loop(); i++ {
		data := append(append([]byte(nil), orig...), fmt.Sprintf("\n編集 %d 回目の段落。\n", i)...)
		if err := afero.WriteFile(fs, part, data, 0o644); err != nil {
			b.Fatal(err)
		}
		bl.Invalidate(part)
		tm := timing.New(nil)
		bl.Time(tm)
		res, err := bl.Build(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if res.Rendered == 0 || len(res.Changed) == 0 {
			b.Fatalf("an edit rendered %d pages and changed %v", res.Rendered, res.Changed)
		}
		last = tm.Report()
	}
	var out strings.Builder
	last.Write(&out, 0, 3)
	b.Log("\n" + out.String())
}

// BenchmarkRebuildOnePageOnDisk is a one-page change rebuilt as `kakehashi
// build` rebuilds it (make bench's one-page rebuild): the corpus on disk,
// read through source.SiteFS, a new Builder each time (a new process:
// only the persistent cache in the site's .kakehashi-cache and the
// previous output are there to reuse), the output staged beside the
// destination and committed. Each run appends a line to the same part,
// which the output must then show. Its size is -benchparts; make bench
// measures 1,000, the target: 0.3 s a rebuild, with the
// process's start. With -v it logs where the last rebuild's time went.
func BenchmarkRebuildOnePageOnDisk(b *testing.B) {
	n := *benchParts
	ctx := context.Background()
	c, err := corpus.LoadDir(ctx, "..")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	site, dest := filepath.Join(dir, "site"), filepath.Join(dir, "public")
	if err := c.Generate(ctx, afero.NewOsFs(), filepath.ToSlash(site), n); err != nil {
		b.Fatal(err)
	}
	part := filepath.Join(site, filepath.FromSlash(c.PartPath("ja", (n+1)/2)))
	page := filepath.Join(dest, filepath.FromSlash(strings.TrimSuffix(strings.TrimPrefix(c.PartPath("ja", (n+1)/2), "content/"), ".md")), "index.html")
	opts := build.Options{CacheDir: filepath.Join(site, filepath.FromSlash(build.DefaultLayout().BuildCache())), SkipUnchanged: true}
	rebuild := func(tm *timing.Recorder) {
		b.Helper()
		in, err := source.SiteFS(site)
		if err != nil {
			b.Fatal(err)
		}
		o := opts
		o.Timings = tm
		bl, err := build.New(in, o)
		if err != nil {
			b.Fatal(err)
		}
		st, err := output.Stage(ctx, afero.NewOsFs(), dest)
		if err != nil {
			b.Fatal(err)
		}
		res, err := bl.BuildTo(ctx, st)
		if err != nil {
			st.Abort()
			b.Fatal(err)
		}
		if res.Unchanged {
			st.Abort()
		} else if err := st.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	rebuild(nil) // cold
	last := timing.Report{}
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		marker := fmt.Sprintf("bench-edit-%d", i)
		f, err := os.OpenFile(part, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\n追記 %s。\n", marker)
		f.Close()
		tm := timing.New(nil)
		b.StartTimer()
		rebuild(tm)
		b.StopTimer()
		if html, err := os.ReadFile(page); err != nil || !strings.Contains(string(html), marker) {
			b.Fatalf("the rebuilt page does not show the edit %q (%v)", marker, err)
		}
		last = tm.Report()
		b.StartTimer()
	}
	var out strings.Builder
	last.Write(&out, 0, 3)
	b.Log("\n" + out.String())
}
