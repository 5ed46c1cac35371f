package serve

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
)

// BenchmarkEditToReload measures the time from writing a markdown file on
// disk to the browser's reload event, through the watcher, its debounce,
// the incremental rebuild and the swap: on the bundled course and on a
// generated corpus of 1,000 parts per language.
func BenchmarkEditToReload(b *testing.B) {
	b.Run("course", func(b *testing.B) {
		root := copyCourse(b)
		benchEdits(b, root, article)
	})
	b.Run("corpus-1000", func(b *testing.B) {
		ctx := context.Background()
		c, err := corpus.LoadDir(ctx, filepath.Join("..", ".."))
		if err != nil {
			b.Fatal(err)
		}
		root := b.TempDir()
		if err := c.Generate(ctx, afero.NewOsFs(), root, 1000); err != nil {
			b.Fatal(err)
		}
		benchEdits(b, root, c.PartPath("ja", 500))
	})
}

func benchEdits(b *testing.B, root, rel string) {
	ctx := context.Background()
	start := time.Now()
	s, err := New(ctx, Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	if errs := s.Errors(); errs != nil {
		b.Fatalf("the site does not build:\n%v", errs)
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds()), "first-build-ms")
	ts := httptest.NewServer(s)
	defer func() { s.Close(); ts.Close() }()
	startWatch(b, s)
	es := openStream(b, ts.Client(), ts.URL+"/_kakehashi/events")
	if e := es.next(b); e.Name != "ok" {
		b.Fatalf("first event %+v", e)
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	orig, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		data := append(append([]byte(nil), orig...), fmt.Sprintf("\n編集 %d 回目の段落。\n", i)...)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		if e := es.next(b); e.Name != "reload" {
			b.Fatalf("event %+v, want reload", e)
		}
	}
}
