package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCheckBundledCourse: the bundled course passes the gate as CI runs
// it, on a fresh clone: strict, with GitHub annotations, and nothing to
// annotate.
func TestCheckBundledCourse(t *testing.T) {
	code, stdout, stderr := runCLI("check", "-s", "../..", "--strict", "--format", "github")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "no problems") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI("check", "-s", "../..", "--format", "json")
	var out []map[string]any
	if err := json.Unmarshal([]byte(stdout), &out); code != 0 || err != nil || len(out) != 0 {
		t.Fatalf("json: exit %d, %v, %q", code, err, stdout)
	}
}

// TestCheckUsage: usage errors exit 2, before any build.
func TestCheckUsage(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--format", "yaml"},
		{"check", "extra"},
		{"check", "--strcit"},
	} {
		if code, _, stderr := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, stderr)
		}
	}
}
