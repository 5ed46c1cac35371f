package main

import (
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
