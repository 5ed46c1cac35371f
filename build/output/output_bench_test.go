package output_test

import (
	"context"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// BenchmarkPublish writes a built 100-part site to a temporary folder on
// disk and swaps it in, replacing the previous copy each time.
func BenchmarkPublish(b *testing.B) {
	ctx := context.Background()
	c, err := corpus.LoadDir(ctx, "../..")
	if err != nil {
		b.Fatal(err)
	}
	fs, err := c.MemSite(ctx, 100)
	if err != nil {
		b.Fatal(err)
	}
	bl, err := build.New(fs, build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	res, err := bl.Build(ctx)
	if err != nil {
		b.Fatal(err)
	}
	files, size := res.Site.Size()
	dest := b.TempDir() + "/public"
	disk := afero.NewOsFs()
	b.SetBytes(size)
	for b.Loop() {
		if err := output.Publish(ctx, disk, dest, res.Site); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(files)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
