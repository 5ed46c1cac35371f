package serve

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWarningsOnce: the authoring server prints a warning when it first
// appears, not again on every rebuild; a new one is printed.
func TestWarningsOnce(t *testing.T) {
	root := copyCourse(t)
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("content/ja/notes.md", "---\ntitle: メモ\n---\n\n本文。\n")
	var log bytes.Buffer
	ctx := context.Background()
	s, err := New(ctx, Options{Root: root, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const notes = "content/ja/notes.md: warning: no ko translation"
	if n := strings.Count(log.String(), notes); n != 1 {
		t.Fatalf("first build: the warning printed %d times:\n%s", n, log.String())
	}
	log.Reset()
	if err := s.Rebuild(ctx, []string{"content/ja/cka/05-ha-cluster.md"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), notes) || !strings.Contains(log.String(), "rebuilt in") {
		t.Errorf("a rebuild printed the same warning again:\n%s", log.String())
	}
	log.Reset()
	write("content/ja/more.md", "---\ntitle: もう一つ\n---\n\n本文。\n")
	if err := s.Rebuild(ctx, []string{"content/ja/more.md"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "content/ja/more.md: warning: no ko translation") || strings.Contains(log.String(), notes) {
		t.Errorf("a rebuild with a new warning printed:\n%s", log.String())
	}
}
