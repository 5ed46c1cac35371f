package sitedir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

const site = `
-- content/ja/a.md --
---
title: ページ
---
本文
-- content/ko/a.md --
---
title: 페이지
---
본문
`

// TestBuild: a build lands in its destination whole; with strict, a build
// with warnings (here: no baseURL) leaves the destination as it was and
// says which; a build that changed nothing leaves it untouched.
func TestBuild(t *testing.T) {
	ctx := context.Background()
	s := sitetest.New(t, site)
	dest := filepath.Join(t.TempDir(), "public")
	if err := os.MkdirAll(dest, 0o755); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	newBuilder := func() *build.Builder {
		o := s.Options()
		o.SkipUnchanged, o.CacheDir = true, cache
		b, err := build.New(s.Fs(), o)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	res, err := Build(ctx, newBuilder(), dest, true, nil)
	var se *StrictError
	if !errors.As(err, &se) || len(se.Warnings) == 0 || res == nil {
		t.Fatalf("strict build with warnings: %v", err)
	}
	if entries, _ := os.ReadDir(dest); len(entries) != 0 {
		t.Fatalf("a refused build wrote %d files into the destination", len(entries))
	}
	b := newBuilder()
	res, err = Build(ctx, b, dest, false, nil)
	if err != nil || res.Unchanged {
		t.Fatalf("build: %v, unchanged %v", err, res != nil && res.Unchanged)
	}
	if _, err := os.Stat(filepath.Join(dest, "ja", "a", "index.html")); err != nil {
		t.Fatalf("the page is not in the destination: %v", err)
	}
	stamp := filepath.Join(dest, "ja", "a", "index.html")
	before, _ := os.Stat(stamp)
	res, err = Build(ctx, b, dest, false, nil)
	if err != nil || !res.Unchanged {
		t.Fatalf("second build: %v, unchanged %v", err, res != nil && res.Unchanged)
	}
	if after, err := os.Stat(stamp); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("an unchanged build touched the destination: %v", err)
	}
}
