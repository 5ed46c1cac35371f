package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// bigSite is a small site whose page folder holds a sparse file of size
// bytes: it takes no room on the disk, but a build copies every byte.
func bigSite(t *testing.T, size int64) string {
	t.Helper()
	site := filepath.Join(t.TempDir(), "site")
	files := map[string]string{
		"content/series/cka.yaml":          "id: cka\ntitle: {ja: CKA, ko: CKA}\nparts:\n  - number: 1\n    title: {ja: はじめに, ko: 소개}\n    state: published\n",
		"content/ja/cka/01-intro/index.md": "---\ntitle: はじめに\nseries: cka\npart: 1\n---\n本文です。\n",
		"content/ko/cka/01-intro/index.md": "---\ntitle: 소개\nseries: cka\npart: 1\n---\n본문입니다.\n",
	}
	for rel, text := range files {
		p := filepath.Join(site, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{"themes", "i18n"} {
		if err := os.CopyFS(filepath.Join(site, dir), os.DirFS(filepath.Join("../..", dir))); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(site, "content/ja/cka/01-intro/huge.bin"))
	if err == nil {
		err = f.Truncate(size)
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return site
}

// TestSignalStopsBuild sends SIGTERM, and Ctrl-C's SIGINT, to a build
// busy copying a page folder's file of 16 GB: the build stops soon,
// fails saying it was interrupted, writes no destination, and releases
// the site's lock, so that the next build runs.
func TestSignalStopsBuild(t *testing.T) {
	bin := kakehashi(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			site := bigSite(t, 16<<30)
			cmd := exec.Command(bin, "build", "-q", "-s", site)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// Signal once the copy is under way in the staging folder.
			copying := filepath.Join(site, ".kakehashi-tmp-*", "ja", "cka", "01-intro", "huge.bin")
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
				if m, _ := filepath.Glob(copying); len(m) > 0 {
					if fi, err := os.Stat(m[0]); err == nil && fi.Size() > 0 {
						break
					}
				}
				select {
				case err := <-exited:
					t.Fatalf("the build ended (%v) before it copied the file:\n%s", err, stderr.String())
				default:
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the build never began copying the file")
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-exited:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("still running 5 s after %v:\n%s", sig, stderr.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "build interrupted") {
				t.Errorf("after %v: %v, stderr %q; want exit 1 and a message that says the build was interrupted", sig, err, stderr.String())
			}
			if _, err := os.Stat(filepath.Join(site, "public")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("an interrupted first build left a destination: %v", err)
			}
			// The lock is free: the next build takes it at once and
			// runs to its end.
			if err := os.Remove(filepath.Join(site, "content/ja/cka/01-intro/huge.bin")); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			next := exec.CommandContext(ctx, bin, "build", "-q", "-s", site)
			if out, err := next.CombinedOutput(); err != nil || strings.Contains(string(out), "waiting") {
				t.Errorf("the next build: %v\n%s", err, out)
			}
		})
	}
}

// TestSecondSignal: the first signal cancels the command's context; a
// second one, or a command still running a while after the first, ends
// the process at once, with the status a shell gives a process the
// first signal killed.
func TestSecondSignal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		grace  time.Duration
		second bool
		msg    string
	}{
		{"second signal", time.Hour, true, "kakehashi: terminated again: stopping at once\n"},
		{"grace over", time.Millisecond, false, "kakehashi: still running 1ms after interrupt: stopping at once\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sigs := make(chan os.Signal, 2)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stderr bytes.Buffer
			code := make(chan int, 1)
			go onSignal(sigs, cancel, &stderr, tc.grace, func(c int) { code <- c })
			first := os.Signal(os.Interrupt)
			if tc.second {
				first = syscall.SIGTERM
			}
			sigs <- first
			<-ctx.Done()
			if tc.second {
				sigs <- syscall.SIGTERM
			}
			want := 128 + int(first.(syscall.Signal))
			if c := <-code; c != want || stderr.String() != tc.msg {
				t.Errorf("exit %d, %q; want %d, %q", c, stderr.String(), want, tc.msg)
			}
		})
	}
}
