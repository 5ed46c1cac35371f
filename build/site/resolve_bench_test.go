package site_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// BenchmarkResolve resolves a generated course of 1,000 parts per
// language, as every build (and every rebuild of the authoring server)
// does.
func BenchmarkResolve(b *testing.B) {
	ctx := context.Background()
	c, err := corpus.LoadDir(ctx, filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	fs := afero.NewMemMapFs()
	if err := c.Generate(ctx, fs, "/site", 1000); err != nil {
		b.Fatal(err)
	}
	langs := []string{"ja", "ko"}
	content, ds := source.Load(ctx, afero.NewBasePathFs(fs, "/site"), "content", langs)
	if ds.Err() != nil {
		b.Fatal(ds)
	}
	b.ReportAllocs()
	for b.Loop() {
		site.Resolve(content, site.Options{Langs: langs})
	}
}
