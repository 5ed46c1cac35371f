package serve

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/serve/watch"
)

// newHostServer serves a copy of the bundled course through httptest,
// answering also to the names allowed.
func newHostServer(t *testing.T, allowed ...string) (*Server, *httptest.Server) {
	t.Helper()
	root := copyCourse(t)
	s, err := New(context.Background(), Options{Root: root, AllowedHosts: allowed, Watch: watch.Options{Quiet: 30 * time.Millisecond}})
	must(t, err)
	if errs := s.Errors(); errs != nil {
		t.Fatalf("the bundled course does not build:\n%v", errs)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); ts.Close() })
	return s, ts
}

// do sends one request with the Host header host and the headers given,
// and returns its status, headers and (for anything but the event
// stream) body.
func do(t *testing.T, c *http.Client, method, url, host string, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	must(t, err)
	if host != "" {
		req.Host = host
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	must(t, err)
	defer resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp.StatusCode, resp.Header, ""
	}
	b, err := io.ReadAll(resp.Body)
	must(t, err)
	return resp.StatusCode, resp.Header, string(b)
}

// TestHostHeader: the server answers its own names (the loopback
// addresses, localhost, the names allowed), with no port or its own, in
// any case; any other name, port or address gets 403 on every path,
// saying which flag would allow it.
func TestHostHeader(t *testing.T) {
	_, ts := newHostServer(t, "MyBox.LAN", "192.0.2.7")
	port := strconv.Itoa(ts.Listener.Addr().(*net.TCPAddr).Port)
	other := strconv.Itoa(ts.Listener.Addr().(*net.TCPAddr).Port + 1)
	c := ts.Client()
	noRedirect := &http.Client{Transport: c.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	tests := []struct {
		host string
		want int
		hint string // in the body of a 403
	}{
		{"127.0.0.1:" + port, 200, ""},
		{"127.0.0.1", 200, ""},
		{"localhost:" + port, 200, ""},
		{"LocalHost:" + port, 200, ""},
		{"localhost", 200, ""},
		{"[::1]:" + port, 200, ""},
		{"[::1]", 200, ""},
		{"mybox.lan:" + port, 200, ""},
		{"MYBOX.LAN", 200, ""},
		{"192.0.2.7:" + port, 200, ""},
		{"evil.test:" + port, 403, "kakehashi serve --allowed-host evil.test"},
		{"evil.test", 403, "--allowed-host evil.test"},
		{"evil.localhost:" + port, 403, "--allowed-host evil.localhost"},
		{"localhost.:" + port, 403, ""},
		{"mybox.lan.evil.test:" + port, 403, ""},
		{"localhost:" + other, 403, "It listens on port " + port + "."},
		{"127.0.0.1:" + other, 403, "It listens on port " + port + "."},
		{"mybox.lan:" + other, 403, "It listens on port " + port + "."},
		{"[::1]:" + other, 403, "It listens on port " + port + "."},
		{"127.0.0.2:" + port, 403, "kakehashi serve --allowed-host 127.0.0.2\n"},
		{"0.0.0.0:" + port, 403, ""},
		{"[::2]:" + port, 403, ""},
		{"localhost:", 403, "under another name, say so when starting it: kakehashi serve --allowed-host NAME\n"},
		{"127.0.0.1:" + port + ":" + port, 403, ""},
	}
	paths := []string{"/ja/cka/05-ha-cluster/", "/ja/search-index.js", "/_pair/ja/cka/05-ha-cluster/", "/_kakehashi/events", "/_kakehashi/live.js", "/", "/nope/"}
	for _, tc := range tests {
		for _, p := range paths {
			status, h, body := do(t, noRedirect, "GET", ts.URL+p, tc.host, nil)
			if tc.want == 200 {
				if status == 403 {
					t.Errorf("Host %q: GET %s: 403 %s", tc.host, p, body)
				}
				continue
			}
			if status != 403 || !strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
				t.Errorf("Host %q: GET %s: %d %s, want 403 in plain text", tc.host, p, status, h.Get("Content-Type"))
				continue
			}
			if !strings.Contains(body, "answers only to its own address (127.0.0.1, localhost, [::1]") || !strings.Contains(body, tc.hint) {
				t.Errorf("Host %q: GET %s: 403 says %q, want the names it answers to and %q", tc.host, p, body, tc.hint)
			}
			if strings.Contains(body, "<") || strings.Contains(body, "cka") {
				t.Errorf("Host %q: GET %s: the 403 carries the site's text: %q", tc.host, p, body)
			}
		}
	}
	// A request without Host (HTTP/1.0) names none of them.
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	must(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET /ja/ HTTP/1.0\r\n\r\n")
	must(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("no Host: %d, want 403", resp.StatusCode)
	}
}

// TestOrigin: the event stream, and any request but GET and HEAD, refuse
// a page of another origin: its Origin header, or without it its
// Sec-Fetch-Site. The server's own pages (no Origin, or their own) are
// served.
func TestOrigin(t *testing.T) {
	_, ts := newHostServer(t, "mybox.lan")
	port := strconv.Itoa(ts.Listener.Addr().(*net.TCPAddr).Port)
	other := strconv.Itoa(ts.Listener.Addr().(*net.TCPAddr).Port + 1)
	c := ts.Client()
	tests := []struct {
		method, path string
		headers      map[string]string
		want         int
	}{
		{"GET", "/_kakehashi/events", nil, 200},
		{"GET", "/_kakehashi/events", map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://127.0.0.1:" + port}, 200},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://localhost:" + port}, 200},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://[::1]:" + port}, 200},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://MyBox.lan:" + port}, 200},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://evil.test:" + port}, 403},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://evil.test"}, 403},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://127.0.0.1:" + other}, 403},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://127.0.0.1"}, 403},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "https://127.0.0.1:" + port}, 403},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "http://127.0.0.1:" + port + "/x"}, 403},
		{"GET", "/_kakehashi/events", map[string]string{"Origin": "null"}, 403},
		{"GET", "/_kakehashi/events", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"GET", "/_kakehashi/events", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{"HEAD", "/_kakehashi/events", map[string]string{"Origin": "http://evil.test:" + port}, 403},
		// Pages are GET: a page of another origin may ask, and cannot
		// read the answer (CORS, Cross-Origin-Resource-Policy).
		{"GET", "/ja/", map[string]string{"Origin": "http://evil.test:" + port}, 200},
		{"POST", "/ja/", nil, 405},
		{"POST", "/ja/", map[string]string{"Origin": "http://127.0.0.1:" + port}, 405},
		{"POST", "/ja/", map[string]string{"Origin": "http://evil.test:" + port}, 403},
		{"DELETE", "/_pair/", map[string]string{"Origin": "null"}, 403},
		{"PUT", "/ja/", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
	}
	for _, tc := range tests {
		status, h, body := do(t, c, tc.method, ts.URL+tc.path, "", tc.headers)
		if status != tc.want {
			t.Errorf("%s %s %v: %d %q, want %d", tc.method, tc.path, tc.headers, status, body, tc.want)
			continue
		}
		if status == 403 && tc.method != "HEAD" && !strings.Contains(body, "a page of another origin") {
			t.Errorf("%s %s %v: 403 says %q", tc.method, tc.path, tc.headers, body)
		}
		if status == 200 && tc.path == "/_kakehashi/events" && !strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
			t.Errorf("%s %s %v: %s, want the event stream", tc.method, tc.path, tc.headers, h.Get("Content-Type"))
		}
	}
}

// TestResourcePolicy: every response, whatever it is, may be read only
// by the server's own pages and only as the type it says.
func TestResourcePolicy(t *testing.T) {
	s, ts := newHostServer(t)
	c := ts.Client()
	noRedirect := &http.Client{Transport: c.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	asset := s.cur.Load().assets.Path
	var index []string
	for p := range s.cur.Load().site.files {
		if strings.Contains(p, "search-index") {
			index = append(index, "/"+p)
		}
	}
	if len(index) == 0 {
		t.Fatal("the build wrote no search index")
	}
	paths := append([]string{"/ja/cka/05-ha-cluster/", "/ja/cka/05-ha-cluster", "/", "/nope/", "/%2e%2e/x",
		asset("/css/main.css"), asset("/js/main.js"), "/_kakehashi/live.js", "/_kakehashi/events", "/_pair/ja/cka/05-ha-cluster/"}, index...)
	for _, p := range paths {
		for _, host := range []string{"", "evil.test"} {
			status, h, _ := do(t, noRedirect, "GET", ts.URL+p, host, nil)
			if h.Get("Cross-Origin-Resource-Policy") != "same-origin" || h.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("GET %s (Host %q): %d with Cross-Origin-Resource-Policy %q, X-Content-Type-Options %q; want same-origin, nosniff",
					p, host, status, h.Get("Cross-Origin-Resource-Policy"), h.Get("X-Content-Type-Options"))
			}
		}
	}
	status, h, _ := do(t, c, "POST", ts.URL+"/ja/", "", nil)
	if status != 405 || h.Get("Cross-Origin-Resource-Policy") != "same-origin" {
		t.Errorf("POST: %d, Cross-Origin-Resource-Policy %q", status, h.Get("Cross-Origin-Resource-Policy"))
	}
}

// TestHostsAllows: the address a request was received at is one of the
// server's names (--bind 192.168.1.5, or a LAN address when bound to all
// of them), on its port only; the unspecified address never is.
func TestHostsAllows(t *testing.T) {
	hs := newHosts([]string{"MyBox.lan", "fe80::1"})
	lan := &net.TCPAddr{IP: net.ParseIP("192.168.1.5"), Port: 1313}
	mapped := &net.TCPAddr{IP: net.ParseIP("::ffff:127.0.0.1"), Port: 1313}
	v6 := &net.TCPAddr{IP: net.ParseIP("::1"), Port: 1313}
	tests := []struct {
		host  string
		local net.Addr
		want  bool
	}{
		{"192.168.1.5:1313", lan, true},
		{"192.168.1.5", lan, true},
		{"192.168.1.5:8080", lan, false},
		{"192.168.1.6:1313", lan, false},
		{"localhost:1313", lan, true},
		{"mybox.lan:1313", lan, true},
		{"[fe80::1]:1313", lan, true},
		{"127.0.0.1:1313", mapped, true},
		{"[::ffff:127.0.0.1]:1313", mapped, true},
		{"[::1]:1313", v6, true},
		{"[::1]:1314", v6, false},
		{"0.0.0.0:1313", &net.TCPAddr{IP: net.IPv4zero, Port: 1313}, false},
		{"localhost:9999", nil, true}, // the port unknown: any
		{"evil.test:1313", lan, false},
		{"", lan, false},
		{"[::1", lan, false},
		{"[mybox.lan]:1313", lan, false},
		{"localhost:+1313", lan, false},
		{"localhost:01313", lan, false},
	}
	for _, tc := range tests {
		if got := hs.allows(tc.host, tc.local); got != tc.want {
			t.Errorf("allows(%q, %v) = %v, want %v", tc.host, tc.local, got, tc.want)
		}
	}
}

func TestCheckAllowedHost(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"mybox.local", true},
		{"MyBox", true},
		{"192.168.1.20", true},
		{"fe80::1", true},
		{"[fe80::1]", true},
		{"my-box_2.lan", true},
		{"", false},
		{"mybox.local:1313", false},
		{"[::1]:1313", false},
		{"http://mybox.local", false},
		{"mybox.local/", false},
		{"user@mybox", false},
		{"my box", false},
		{"mybox..lan", false},
		{".lan", false},
		{"[mybox]", false},
	}
	for _, tc := range tests {
		if err := CheckAllowedHost(tc.name); (err == nil) != tc.ok {
			t.Errorf("CheckAllowedHost(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
	if _, err := New(context.Background(), Options{Root: t.TempDir(), AllowedHosts: []string{"mybox:1313"}}); err == nil || !strings.Contains(err.Error(), `"mybox:1313" names a port`) {
		t.Errorf("New with an allowed host with a port: %v", err)
	}
}

// TestTimeouts serves on a real listener with short timeouts: a
// connection that sends nothing, and one kept alive after its request,
// are closed; an event stream outlives the read and write timeouts many
// times over, and shutdown stays prompt.
func TestTimeouts(t *testing.T) {
	root := copyCourse(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const d = 50 * time.Millisecond
	s, err := New(ctx, Options{Root: root, Heartbeat: d / 5, Timeouts: Timeouts{ReadHeader: d, Read: d, Write: d, Idle: d}})
	must(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	runErr := make(chan error, 1)
	go func() { runErr <- s.Run(ctx, ln) }()
	addr := ln.Addr().String()

	// closed waits for the server to close conn, failing after a while
	// (a hang guard, not a timing assertion).
	closed := func(what string, conn net.Conn, r *bufio.Reader) {
		t.Helper()
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		_, err := io.ReadAll(r)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Errorf("%s: the server kept the connection open", what)
		}
	}
	silent, err := net.Dial("tcp", addr)
	must(t, err)
	defer silent.Close()
	closed("a connection that sends nothing", silent, bufio.NewReader(silent))

	idle, err := net.Dial("tcp", addr)
	must(t, err)
	defer idle.Close()
	_, err = io.WriteString(idle, "GET /ja/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	must(t, err)
	br := bufio.NewReader(idle)
	resp, err := http.ReadResponse(br, nil)
	must(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Close {
		t.Fatalf("GET /ja/: %d, close %v", resp.StatusCode, resp.Close)
	}
	closed("an idle kept-alive connection", idle, br)

	es, err := net.Dial("tcp", addr)
	must(t, err)
	defer es.Close()
	_, err = io.WriteString(es, "GET /_kakehashi/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	must(t, err)
	br = bufio.NewReader(es)
	resp, err = http.ReadResponse(br, nil)
	must(t, err)
	if resp.StatusCode != 200 {
		t.Fatalf("events: %d", resp.StatusCode)
	}
	es.SetReadDeadline(time.Now().Add(30 * time.Second))
	start, pings := time.Now(), 0
	sc := bufio.NewScanner(resp.Body)
	for time.Since(start) < 10*d || pings < 20 {
		if !sc.Scan() {
			t.Fatalf("the event stream ended after %s and %d heartbeats: %v", time.Since(start), pings, sc.Err())
		}
		if sc.Text() == ": ping" {
			pings++
		}
	}

	cancel()
	select {
	case err := <-runErr:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after the context was cancelled")
	}
}
