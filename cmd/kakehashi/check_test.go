package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// TestCheckPrintsNoTerminalEscapes: a page line holding terminal escapes
// (clear screen, window title, clipboard write) and a right-to-left
// override reaches the terminal as visible text in every format, with
// the column still counting the characters of the original line.
func TestCheckPrintsNoTerminalEscapes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	if code, _, stderr := runCLI("new", "site", dir); code != 0 {
		t.Fatalf("new site: exit %d\n%s", code, stderr)
	}
	page := filepath.Join(dir, "content", "ja", "course", "01-intro.md")
	f, err := os.OpenFile(page, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The link targets go into the messages ("no such page (…)"), the
	// line into the text form's excerpt.
	_, err = f.WriteString("\n\x1b[2J\x1b]0;pwned\x07 次は [#2](02-missing\x1b]52;c;Y3VybA==\x07.md) です。\n\n[y](02-\u202egpj.md)\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	raw := "\x1b\x07\u202e"
	for _, c := range []struct {
		format string
		want   []string // escapes that show what the content holds
	}{
		{"text", []string{
			`01-intro.md:21:19: error: link to "02-missing\x1b]52;c;Y3VybA==\a.md": no such page (content/ja/course/02-missing\x1b]52;c;Y3VybA==\x07.md)`,
			`21 | \x1b[2J\x1b]0;pwned\x07 次は [#2](02-missing\x1b]52;c;Y3VybA==\x07.md) です。`,
			`01-intro.md:23:1: error: link to "02-\u202egpj.md": no such page (content/ja/course/02-\u202egpj.md)`,
		}},
		{"github", []string{
			`,line=21,col=19,title=kakehashi link::link to "02-missing\x1b]52;c;Y3VybA==\a.md": no such page (content/ja/course/02-missing\x1b]52;c;Y3VybA==\x07.md)`,
			`::link to "02-\u202egpj.md": no such page (content/ja/course/02-\u202egpj.md)`,
		}},
		{"json", []string{`\\x1b]52;c;Y3VybA==\\x07.md)`, `(content/ja/course/02-\\u202egpj.md)`}},
	} {
		code, stdout, stderr := runCLI("check", "-s", dir, "--format", c.format)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s%s", c.format, code, stdout, stderr)
		}
		if strings.ContainsAny(stdout+stderr, raw) {
			t.Errorf("%s: a raw control reaches the terminal:\n%q\n%q", c.format, stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: stdout lacks %s:\n%s", c.format, w, stdout)
			}
		}
		if c.format == "json" {
			var out []struct{ File, Code, Message string }
			// The two links, and the Korean twin of the edited page,
			// stale now, in the same run.
			if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out) != 3 || out[2].Code != "stale-translation" {
				t.Fatalf("json: %v, %d diagnostics: %+v", err, len(out), out)
			}
			for _, d := range out {
				if strings.ContainsAny(d.Message+d.File, raw) {
					t.Errorf("json: a consumer printing the message gets a raw control: %q", d.Message)
				}
			}
		}
	}
}
