package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// endless is a reader that never ends, counting what was read of it.
type endless struct{ n int64 }

func (e *endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'a'
	}
	e.n += int64(len(b))
	return len(b), nil
}

// blocked is a reader that never returns, as a terminal nobody types in.
type blocked struct{}

func (blocked) Read([]byte) (int, error) { select {} }

// TestRenderReadsAsABuild: kakehashi render reads its document as a build
// reads a content file: a regular file of at most source.MaxFileSize
// bytes, from a file or from standard input, with the same messages; a
// named pipe is refused without waiting for a writer, and an interrupt
// ends a read that never would.
func TestRenderReadsAsABuild(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.md")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, bytes.Repeat([]byte("a"), source.MaxFileSize+1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	over := "the file is over the limit of 8.0 MB for one content file: split it into several parts"
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	stdin := &endless{}
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		args  []string
		stdin io.Reader
		want  string
	}{
		{"named pipe", context.Background(), []string{"render", pipe}, nil,
			"kakehashi render: " + pipe + ": not a regular file (a named pipe): name a markdown file, or - to read standard input\n"},
		{"folder", context.Background(), []string{"render", dir}, nil,
			"kakehashi render: " + dir + ": not a regular file (a folder): name a markdown file, or - to read standard input\n"},
		{"large file", context.Background(), []string{"render", big}, nil,
			"kakehashi render: " + big + ": the file is 9.0 MB, over the limit of 8.0 MB for one content file: split it into several parts\n"},
		{"endless input", context.Background(), []string{"render", "-"}, stdin,
			"kakehashi render: <stdin>: " + over + "\n"},
		{"interrupted", cancelled, []string{"render"}, blocked{},
			"kakehashi render: interrupted while reading <stdin>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(tc.ctx, tc.args, tc.stdin, &out, &errb) }()
			var code int
			select {
			case code = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("render never returned")
			}
			if code != 1 || errb.String() != tc.want || out.Len() > 0 {
				t.Errorf("exit %d, stderr %q, stdout %d bytes; want 1 and %q", code, errb.String(), out.Len(), tc.want)
			}
		})
	}
	if stdin.n > source.MaxFileSize+1<<20 {
		t.Errorf("read %d bytes of an endless input: more than the limit and a piece", stdin.n)
	}
	// Within the limit, a document renders as before, in a site.
	site := t.TempDir()
	if err := os.MkdirAll(filepath.Join(site, "content", "ja"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"render", "-s", site, "-"}, strings.NewReader("# 見出し\n"), &out, &errb); code != 0 || !strings.Contains(out.String(), "見出し") {
		t.Errorf("a small document: exit %d, %q, %q", code, out.String(), errb.String())
	}
	// A folder with no language is no site to render in.
	out.Reset()
	errb.Reset()
	empty := t.TempDir()
	want := filepath.Join(empty, "kakehashi.toml") + ": the site has no languages: list them in kakehashi.toml (languages = [\"ja\", \"ko\"]), or make a folder for each under content/ (content/ja/)\n"
	if code := run(context.Background(), []string{"render", "-s", empty, "-"}, strings.NewReader("# 見出し\n"), &out, &errb); code != 1 || errb.String() != want {
		t.Errorf("no site: exit %d, %q, want 1 and %q", code, errb.String(), want)
	}
}
