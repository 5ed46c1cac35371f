package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServeEnv, set in the environment, makes the test binary a stand-in
// for "kakehashi serve" (fakeServe), so that reloadRuns can be tested
// without building kakehashi.
const fakeServeEnv = "KAKEHASHI_BENCH_FAKE_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeServeEnv) == "1" {
		os.Exit(fakeServe(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeServe answers as "kakehashi serve -s SITE --bind 127.0.0.1 --port 0"
// does, in small: it prints its address, streams "ok" on connect and
// "reload" whenever a file under SITE/content changes (looked at every
// millisecond), and serves each page as its markdown, until interrupted.
func fakeServe(args []string) int {
	if len(args) == 0 || args[0] != "serve" {
		fmt.Fprintf(os.Stderr, "fake serve: arguments %q\n", args)
		return 2
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	site := fs.String("s", "", "")
	bind := fs.String("bind", "", "")
	port := fs.Int("port", -1, "")
	if err := fs.Parse(args[1:]); err != nil || *site == "" || *bind != "127.0.0.1" || *port != 0 {
		fmt.Fprintf(os.Stderr, "fake serve: arguments %q\n", args)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var mu sync.Mutex
	clients := map[chan string]bool{}
	mux := http.NewServeMux()
	mux.HandleFunc("/_kakehashi/events", func(w http.ResponseWriter, r *http.Request) {
		ch := make(chan string, 16)
		mu.Lock()
		clients[ch] = true
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		io.WriteString(w, "retry: 1000\n\n: ping\n\nevent: ok\ndata: {\"version\":\"0\"}\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case msg := <-ch:
				io.WriteString(w, msg)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		b, err := os.ReadFile(filepath.Join(*site, "content", strings.TrimSuffix(r.URL.Path, "/")+".md"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	})
	sizes := func() string {
		var b strings.Builder
		filepath.WalkDir(filepath.Join(*site, "content"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				fi, _ := d.Info()
				fmt.Fprintf(&b, "%s %d\n", p, fi.Size())
			}
			return nil
		})
		return b.String()
	}
	// The sizes before the address is printed: an edit made as soon as
	// it is read is one the loop below sees.
	last, version := sizes(), 0
	go http.Serve(ln, mux)
	fmt.Printf("kakehashi test: serving %s at http://%s/ (Ctrl-C to stop)\n", *site, ln.Addr())
	for {
		select {
		case <-ctx.Done():
			return 0
		case <-time.After(time.Millisecond):
		}
		if now := sizes(); now != last {
			last = now
			version++
			mu.Lock()
			for ch := range clients {
				ch <- fmt.Sprintf("event: reload\ndata: {\"version\":\"%d\"}\n\n", version)
			}
			mu.Unlock()
		}
	}
}

// reloadRuns edits each part in turn, times every edit but the warm-up,
// and leaves the parts as they were.
func TestReloadRuns(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeServeEnv, "1")
	site := t.TempDir()
	parts := []string{"content/ja/cka/0001-a.md", "content/ko/cka/0002-b.md"}
	for _, p := range parts {
		full := filepath.Join(site, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("# "+p+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log strings.Builder
	b := &bench{kakehashi: self, log: &log}
	res, err := b.reloadRuns(context.Background(), site, parts, 3)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(res.reload.samples) != 3 || len(res.page.samples) != 3 {
		t.Fatalf("%d reload and %d page samples, want 3 each\n%s", len(res.reload.samples), len(res.page.samples), log.String())
	}
	for i := range 3 {
		r, p := res.reload.samples[i].wall, res.page.samples[i].wall
		if r <= 0 || p < r {
			t.Errorf("edit %d: reload %v, page %v", i+1, r, p)
		}
	}
	for _, want := range []string{"serve edit 1/3 content/ko/cka/0002-b.md", "serve edit 3/3 content/ko/cka/0002-b.md"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	for _, p := range parts {
		got, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "# "+p+"\n" {
			t.Errorf("%s not restored: %q", p, got)
		}
	}
}

// A part that is not there ends the measurement before serve starts.
func TestReloadRunsMissingPart(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeServeEnv, "1")
	b := &bench{kakehashi: self, log: io.Discard}
	if _, err := b.reloadRuns(context.Background(), t.TempDir(), []string{"content/ja/cka/0001-a.md"}, 1); err == nil {
		t.Error("no error for a missing part")
	}
}
