package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/serve"
)

// liveTag is the live-reload script the server puts into every HTML page
// it serves.
const liveTag = `<script src="/_kakehashi/live.js" defer></script>`

const (
	ja1 = "content/ja/cka/01-intro.md"
	ja2 = "content/ja/cka/02-inside.md"
	ko2 = "content/ko/cka/02-inside.md"
)

// served is a site on disk served as kakehashi serve does (Run, with its
// watcher), on a port of 127.0.0.1.
type served struct {
	site   *sitetest.Site
	url    string
	client *http.Client // its own connections, closed when the test ends
}

// serveSite writes the txtar site of build/testdata/sites/name to disk
// and serves it until the test ends. Its fresh builds (assertFresh) are
// built as the server builds: with the translator's view to link to, and
// each search index one script.
func serveSite(t *testing.T, name string) *served {
	t.Helper()
	archive, err := os.ReadFile(filepath.Join("..", "testdata", "sites", name))
	if err != nil {
		t.Fatal(err)
	}
	site := sitetest.New(t, string(archive), sitetest.OnDisk(), sitetest.WithOptions(func(o *build.Options) { o.PairView, o.LazySearch = serve.PairView, true }))
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := serve.New(ctx, serve.Options{Root: site.Root()})
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
	return &served{site: site, url: "http://" + ln.Addr().String(), client: &http.Client{Transport: tr}}
}

// get fetches a path of the served site.
func (s *served) get(t *testing.T, p string) (int, string) {
	t.Helper()
	resp, err := s.client.Get(s.url + p)
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

// assertFresh checks that the server serves exactly the files of a fresh
// build of the site as it is on disk, each with the same bytes (HTML with
// the live-reload script), and that a page the fresh build lacks is a 404.
func (s *served) assertFresh(t *testing.T, gone ...string) {
	t.Helper()
	fresh := s.site.Fresh()
	for _, p := range fresh.Site.Paths() {
		want, _ := fresh.Site.Get(p)
		status, got := s.get(t, "/"+p)
		if status != http.StatusOK {
			t.Fatalf("/%s: status %d", p, status)
		}
		if strings.HasSuffix(p, ".html") {
			if !strings.Contains(got, liveTag) {
				t.Fatalf("/%s: no live-reload script", p)
			}
			got = strings.Replace(got, liveTag, "", 1)
		}
		if got != string(want) {
			t.Fatalf("/%s differs from a fresh build", p)
		}
	}
	for _, p := range gone {
		if status, _ := s.get(t, p); status != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, status)
		}
	}
}

// cssName is the hashed name of the main stylesheet.
var cssName = regexp.MustCompile(`^/css/main\.[0-9a-f]{8}\.css$`)

// event is one event of /_kakehashi/events.
type event struct {
	name string
	data struct {
		Version string   `json:"version"`
		Paths   []string `json:"paths"`
		Errors  []struct {
			Header  string   `json:"header"`
			Context []string `json:"context"`
		} `json:"errors"`
	}
}

// events follows the event stream until the test ends.
func (s *served) events(t *testing.T) <-chan event {
	t.Helper()
	resp, err := s.client.Get(s.url + "/_kakehashi/events")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %s", resp.Status)
	}
	ch := make(chan event, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var e event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				e.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e.data)
			case line == "" && e.name != "":
				ch <- e
				e = event{}
			}
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return ch
}

// next waits for the next event (the timeout guards against a hang; it
// times nothing).
func next(t *testing.T, ch <-chan event) event {
	t.Helper()
	select {
	case e, ok := <-ch:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return e
	case <-time.After(30 * time.Second):
		t.Fatal("no event")
	}
	return event{}
}

// TestServeRebuildsOnEdit saves each kind of input into a served site:
// after each save the server says "reload" (or "css") only once it serves
// the new site, and what it serves then is exactly a fresh build.
func TestServeRebuildsOnEdit(t *testing.T) {
	s := serveSite(t, "two-parts.txtar")
	ev := s.events(t)
	if e := next(t, ev); e.name != "ok" {
		t.Fatalf("first event %q, want ok", e.name)
	}
	s.assertFresh(t)
	const series = "content/series/cka.yaml"
	steps := []struct {
		name  string
		edit  func()
		event string
		gone  []string // paths now 404
	}{
		{"edit a page", func() { s.site.Append(ja2, "\n追記した段落 LIVE-1 です。\n") }, "reload", nil},
		{"rename a part in the series file", func() { s.site.Replace(series, "ja: 次回", "ja: アップグレード") }, "reload", nil},
		{"change a UI string", func() { s.site.WriteFile("i18n/ja.toml", "toc = \"この記事の目次\"\n") }, "reload", nil},
		{"change a theme template", func() {
			s.site.Replace("themes/default/layouts/baseof.html", "<body", "<!-- edited -->\n<body")
		}, "reload", nil},
		// the page then says it is not translated yet (its URL stays)
		{"remove a page", func() { s.site.Remove(ko2) }, "reload", nil},
		{"add it back", func() { s.site.WriteFile(ko2, s.site.Read(ja2)) }, "reload", nil},
		{"write kakehashi.toml", func() { s.site.WriteFile("kakehashi.toml", "copyright = \"LIVE-3\"\n") }, "reload", nil},
		{"edit kakehashi.toml", func() { s.site.Replace("kakehashi.toml", "LIVE-3", "LIVE-4") }, "reload", nil},
		{"change a stylesheet", func() { s.site.Append("themes/default/static/css/main.css", "\n.live-2 { color: red; }\n") }, "css", nil},
	}
	for _, st := range steps {
		st.edit()
		e := next(t, ev)
		if e.name != st.event {
			t.Fatalf("%s: event %q, want %s", st.name, e.name, st.event)
		}
		if st.event == "css" && (len(e.data.Paths) != 1 || !cssName.MatchString(e.data.Paths[0])) {
			t.Fatalf("%s: css event for %q, want the new hashed /css/main.*.css", st.name, e.data.Paths)
		}
		s.assertFresh(t, st.gone...)
	}
	if _, body := s.get(t, "/ja/cka/02-inside/"); !strings.Contains(body, "LIVE-1") {
		t.Error("the edited page is not served")
	}
	if _, body := s.get(t, "/ko/"); !strings.Contains(body, "LIVE-4") {
		t.Error("the edited configuration is not served")
	}
}

// TestServeBrokenEdit: a broken save sends an error event with each
// diagnostic's path:line:col and the lines around it, while the last good
// pages stay served; a client that connects then gets the error at once;
// the fix reloads every client.
func TestServeBrokenEdit(t *testing.T) {
	s := serveSite(t, "two-parts.txtar")
	ev := s.events(t)
	next(t, ev)
	_, before := s.get(t, "/ja/cka/01-intro/")

	s.site.Replace(ja1, "part: 1", "part: [1")
	e := next(t, ev)
	if e.name != "error" {
		t.Fatalf("after a broken save, event %q, want error", e.name)
	}
	var headers []string
	for _, d := range e.data.Errors {
		headers = append(headers, d.Header)
	}
	if want := []string{ja1 + ":4:8: front matter: did not find expected ',' or ']'"}; !slices.Equal(headers, want) {
		t.Fatalf("error event for\n\t%s\nwant\n\t%s", strings.Join(headers, "\n\t"), strings.Join(want, "\n\t"))
	}
	if len(e.data.Errors[0].Context) == 0 {
		t.Error("the error event has no lines around the error")
	}
	if status, body := s.get(t, "/ja/cka/01-intro/"); status != http.StatusOK || body != before {
		t.Fatalf("while broken: status %d, want the last good page", status)
	}
	late := s.events(t)
	if e := next(t, late); e.name != "error" || len(e.data.Errors) != 1 || e.data.Errors[0].Header != headers[0] {
		t.Fatalf("a client connecting while broken got %q %v, want the error", e.name, e.data.Errors)
	}

	s.site.Replace(ja1, "part: [1", "part: 1", "次は", "続きは")
	for _, ch := range []<-chan event{ev, late} {
		if e := next(t, ch); e.name != "reload" {
			t.Fatalf("after the fix, event %q, want reload", e.name)
		}
	}
	s.assertFresh(t)
	if e := next(t, s.events(t)); e.name != "ok" {
		t.Fatalf("a client connecting after the fix got %q, want ok", e.name)
	}
}

// TestServeRootFirstLanguage: "/" sends a reader who names no language
// of the site to its first language, as kakehashi.toml orders them.
func TestServeRootFirstLanguage(t *testing.T) {
	s := serveSite(t, "two-parts.txtar")
	ev := s.events(t)
	if e := next(t, ev); e.name != "ok" {
		t.Fatalf("first event %q, want ok", e.name)
	}
	noFollow := &http.Client{Transport: s.client.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	root := func(accept string) string {
		req, _ := http.NewRequest("GET", s.url+"/", nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.Header.Get("Location")
	}
	if got := root(""); got != "/ja/" {
		t.Fatalf("/ without Accept-Language leads to %q, want /ja/", got)
	}
	s.site.WriteFile("kakehashi.toml", "languages = [\"ko\", \"ja\"]\n")
	if e := next(t, ev); e.name != "reload" {
		t.Fatalf("event %q, want reload", e.name)
	}
	for accept, want := range map[string]string{"": "/ko/", "fr-FR": "/ko/", "ja,en;q=0.5": "/ja/"} {
		if got := root(accept); got != want {
			t.Errorf("/ with Accept-Language %q leads to %q, want %s", accept, got, want)
		}
	}
}
