package serve_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/serve"
)

// mark is written in the middle of each large file, so that a response
// that drops or moves a piece shows.
const mark = sitetest.LargeMark

// serveLargeSite serves, on a port of 127.0.0.1, a site whose page folder
// holds a sparse file of size bytes, and whose static/ holds another,
// each with mark at size/2.
func serveLargeSite(t *testing.T, size int64) (url string, client *http.Client) {
	t.Helper()
	s := sitetest.LargeFiles(t, size)
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := serve.New(ctx, serve.Options{Root: s.Root()})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, ln) }()
	tr := &http.Transport{}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		tr.CloseIdleConnections()
	})
	return "http://" + ln.Addr().String(), &http.Client{Transport: tr}
}

// reading counts the bytes written to it and keeps those at [at,
// at+len(mark)).
type reading struct {
	n, at int64
	seen  []byte
}

func (r *reading) Write(b []byte) (int, error) {
	for i := range b {
		if off := r.n + int64(i); off >= r.at && off < r.at+int64(len(mark)) {
			r.seen = append(r.seen, b[i])
		}
	}
	r.n += int64(len(b))
	return len(b), nil
}

// TestServeLargeFiles: the authoring server streams a large file of a
// page folder or of static/ from the site: whole, a range of it, or not
// at all when the browser has it (its ETag), without allocating anything
// near its size.
func TestServeLargeFiles(t *testing.T) {
	const size = 200 << 20
	url, c := serveLargeSite(t, size)
	do := func(t *testing.T, req *http.Request) (*http.Response, *reading) {
		t.Helper()
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body := &reading{at: size / 2}
		if req.Header.Get("Range") != "" {
			body.at = 0
		}
		if _, err := io.Copy(body, resp.Body); err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
	for _, p := range []string{"/ja/cka/01-intro/movie.mp4", "/docs/slides.pdf"} {
		t.Run(p, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, url+p, nil)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			resp, body := do(t, req)
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("serving a file of %d MB allocated %d MB: it was held in memory", size>>20, alloc>>20)
			}
			if resp.StatusCode != http.StatusOK || body.n != size || string(body.seen) != mark {
				t.Fatalf("GET: %s, %d bytes, %q at the middle; want 200, %d, %q", resp.Status, body.n, body.seen, size, mark)
			}
			if got := resp.Header.Get("Content-Length"); got != strconv.Itoa(size) {
				t.Errorf("Content-Length %q, want %d", got, size)
			}
			if got := resp.Header.Get("Accept-Ranges"); got != "bytes" {
				t.Errorf("Accept-Ranges %q, want bytes", got)
			}
			etag := resp.Header.Get("ETag")
			if etag == "" {
				t.Fatal("no ETag")
			}

			req, _ = http.NewRequest(http.MethodGet, url+p, nil)
			req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", size/2, size/2+int64(len(mark))-1))
			resp, body = do(t, req)
			want := fmt.Sprintf("bytes %d-%d/%d", size/2, size/2+int64(len(mark))-1, size)
			if resp.StatusCode != http.StatusPartialContent || resp.Header.Get("Content-Range") != want || string(body.seen) != mark || body.n != int64(len(mark)) {
				t.Errorf("a range: %s, Content-Range %q, %q; want 206, %q, %q", resp.Status, resp.Header.Get("Content-Range"), body.seen, want, mark)
			}

			req, _ = http.NewRequest(http.MethodGet, url+p, nil)
			req.Header.Set("If-None-Match", etag)
			if resp, body = do(t, req); resp.StatusCode != http.StatusNotModified || body.n != 0 {
				t.Errorf("with its ETag: %s, %d bytes; want 304, none", resp.Status, body.n)
			}

			req, _ = http.NewRequest(http.MethodHead, url+p, nil)
			if resp, body = do(t, req); resp.StatusCode != http.StatusOK || body.n != 0 || resp.ContentLength != size {
				t.Errorf("HEAD: %s, %d bytes, length %d; want 200, none, %d", resp.Status, body.n, resp.ContentLength, size)
			}
		})
	}
}
