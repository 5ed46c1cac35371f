package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFile writes a file under root, making its folders.
func writeFile(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// copyCourse copies the bundled course's content/, themes/ and i18n/ into
// a fresh temporary site folder.
func copyCourse(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"content", "themes", "i18n"} {
		src := filepath.Join("..", "..", d)
		err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(filepath.Join("..", ".."), p)
			dst := filepath.Join(root, rel)
			if e.IsDir() {
				return os.MkdirAll(dst, 0o755)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// sse is one received event.
type sse struct {
	Name string
	Data string
}

// payload decodes an event's JSON data.
func (e sse) payload(t testing.TB) (p struct {
	Version string            `json:"version"`
	Paths   []string          `json:"paths"`
	Swap    map[string]string `json:"swap"`
	Errors  []diagnostic      `json:"errors"`
}) {
	t.Helper()
	if err := json.Unmarshal([]byte(e.Data), &p); err != nil {
		t.Fatalf("event %s: data %q: %v", e.Name, e.Data, err)
	}
	return p
}

// stream is an open event stream.
type stream struct {
	events chan sse
	body   io.Closer
}

// openStream connects to url and reads its events in the background until
// the stream ends or the test's cleanup closes it.
func openStream(t testing.TB, c *http.Client, url string) *stream {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body.Close()
		t.Fatalf("events: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	s := &stream{events: make(chan sse, 64), body: resp.Body}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		var cur sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if cur.Name != "" {
					s.events <- cur
				}
				cur = sse{}
			case strings.HasPrefix(line, "event: "):
				cur.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				cur.Data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return s
}

// next returns the next event, failing the test when the stream ends or
// nothing comes for a long while (a hang guard, not a timing assertion).
func (s *stream) next(t testing.TB) sse {
	t.Helper()
	select {
	case e, ok := <-s.events:
		if !ok {
			t.Fatal("event stream ended")
		}
		return e
	case <-time.After(30 * time.Second):
		t.Fatal("no event")
	}
	return sse{}
}

// get fetches url and returns status and body.
func get(t testing.TB, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// appendFile appends text to a file of the site.
func appendFile(t testing.TB, root, rel, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(rel)), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// startWatch runs s.Watch until the test ends.
func startWatch(t testing.TB, s *Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done, err := s.Watch(ctx)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-done })
}
