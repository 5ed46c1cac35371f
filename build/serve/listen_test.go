package serve

import (
	"fmt"
	"net"
	"testing"
)

// TestListenNextPort: when the default port is in use, Listen takes the
// next free one and says so; a port asked for is never replaced.
func TestListenNextPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().(*net.TCPAddr).Port
	ln, note, err := Listen("127.0.0.1", port, false)
	if err != nil {
		t.Fatalf("default port in use: %v", err)
	}
	defer ln.Close()
	got := ln.Addr().(*net.TCPAddr).Port
	if got <= port || got > port+NextPorts {
		t.Errorf("took port %d, want one of the %d after %d", got, NextPorts, port)
	}
	if want := fmt.Sprintf("port %d is in use; serving on port %d instead (--port N chooses one)", port, got); note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	if ln, _, err := Listen("127.0.0.1", port, true); err == nil {
		ln.Close()
		t.Errorf("--port %d in use: listened anyway", port)
	}
	ln2, note, err := Listen("127.0.0.1", 0, true)
	if err != nil || note != "" {
		t.Fatalf("--port 0: %v, note %q", err, note)
	}
	defer ln2.Close()
	for _, tc := range []struct{ bind, host string }{{"127.0.0.1", "127.0.0.1"}, {"", "127.0.0.1"}, {"0.0.0.0", "127.0.0.1"}, {"::", "127.0.0.1"}, {"::1", "[::1]"}, {"devbox", "devbox"}} {
		want := fmt.Sprintf("http://%s:%d/", tc.host, ln2.Addr().(*net.TCPAddr).Port)
		if got := URL(tc.bind, ln2); got != want {
			t.Errorf("URL(%q) = %q, want %q", tc.bind, got, want)
		}
	}
}
