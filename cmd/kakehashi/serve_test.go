package main

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
)

// TestServeBanner: once listening, serve prints the site's address and,
// beside it, the translator's view's.
func TestServeBanner(t *testing.T) {
	for _, tc := range []struct{ src, url, want string }{
		{".", "http://127.0.0.1:1313/", "kakehashi " + build.Version + ": serving . at http://127.0.0.1:1313/ (Ctrl-C to stop)\n  translator's view: http://127.0.0.1:1313/_pair/\n"},
		{"course", "http://[::1]:8080/", "kakehashi " + build.Version + ": serving course at http://[::1]:8080/ (Ctrl-C to stop)\n  translator's view: http://[::1]:8080/_pair/\n"},
	} {
		if got := serveBanner(tc.src, tc.url); got != tc.want {
			t.Errorf("serveBanner(%q, %q) =\n%q\nwant\n%q", tc.src, tc.url, got, tc.want)
		}
	}
}

// busyPort listens on a free port of 127.0.0.1 for the test's length and
// returns it.
func busyPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// TestServeBusyPort: a port asked for with --port that is in use is said
// before anything is built (the site named here does not even exist),
// with how to choose another, and exit 1.
func TestServeBusyPort(t *testing.T) {
	port := busyPort(t)
	code, stdout, stderr := runCLI("serve", "-s", filepath.Join(t.TempDir(), "nope"), "--bind", "127.0.0.1", "--port", strconv.Itoa(port))
	want := fmt.Sprintf("kakehashi serve: port %d on 127.0.0.1 is in use (another kakehashi serve or hugo server?): stop that server, or choose another port with --port N (--port 0: any free port)\n", port)
	if code != 1 || stderr != want || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr\n%q\nwant exit 1 and\n%q", code, stdout, stderr, want)
	}
}
