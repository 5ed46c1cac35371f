package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInterruptedBuild: a build stopped by Ctrl-C says so, names no file
// with an empty path, and leaves the destination as it was.
func TestInterruptedBuild(t *testing.T) {
	site := t.TempDir()
	for _, dir := range []string{"content", "themes", "i18n"} {
		if err := os.CopyFS(filepath.Join(site, dir), os.DirFS(filepath.Join("../..", dir))); err != nil {
			t.Fatal(err)
		}
	}
	dest := filepath.Join(site, "public")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"build", "-q", "-s", site}, nil, &out, &errb); code != 0 {
		t.Fatalf("first build: exit %d\n%s", code, errb.String())
	}
	before, err := os.ReadFile(filepath.Join(dest, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	errb.Reset()
	code := run(ctx, []string{"build", "-s", site}, nil, &out, &errb)
	msg := errb.String()
	if code != 1 || !strings.Contains(msg, "interrupted") || !strings.Contains(msg, "was left as it was") {
		t.Errorf("interrupted build: exit %d, stderr %q; want 1 and a message that says it was interrupted", code, msg)
	}
	for _, line := range strings.Split(msg, "\n") {
		if strings.HasPrefix(line, ":") {
			t.Errorf("a message without its file: %q", line)
		}
	}
	after, _ := os.ReadFile(filepath.Join(dest, "index.html"))
	if !bytes.Equal(before, after) {
		t.Error("an interrupted build changed the destination")
	}
}
