package diag

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
	}{
		{"clear screen", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"window title, BEL", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"clipboard write (OSC 52)", "\x1b]52;c;Y3VybCBldmlsLnNo\x07", `\x1b]52;c;Y3VybCBldmlsLnNo\x07`},
		{"carriage return", "ok\rfake", `ok\x0dfake`},
		{"backspace", "ab\bc", `ab\x08c`},
		{"NUL and DEL", "\x00\x7f", `\x00\x7f`},
		{"C1 CSI", "\u009b2J", `\u009b2J`},
		{"C1 NEL and OSC", "\u0085\u009d", `\u0085\u009d`},
		{"a lone byte 0x9b, CSI to an 8-bit terminal", "\x9b2J", `\x9b2J`},
		{"right-to-left override", "abc\u202edef", `abc\u202edef`},
		{"bidi isolates and marks", "\u2066x\u2069\u200e\u200f\u061c", `\u2066x\u2069\u200e\u200f\u061c`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"Japanese", "title: 可用性とクォーラム「3台」", "title: 可用性とクォーラム「3台」"},
		{"Korean", "제목: 가용성과 쿼럼", "제목: 가용성과 쿼럼"},
		{"tab", "a\tb", "a\tb"},
		{"line feed in a message", "first\nsecond", "first\nsecond"},
		{"a backslash stays single", `C:\x1b`, `C:\x1b`},
		{"empty", "", ""},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("%s: Escape(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
		if got := Escape(c.want); got != c.want && !strings.Contains(c.want, "\n") {
			t.Errorf("%s: escaping again changed %q to %q", c.name, c.want, got)
		}
	}
}

// TestStringEscapes: the header and the source line print escapes as
// text; the column still counts characters of the original line, and the
// caret stands under the character it names.
func TestStringEscapes(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		at   string // the text the diagnostic points at (its last occurrence)
		col  int
		want string
	}{
		{"after an escape", "x: \x1b[2J [", "[", 9,
			"p.md:1:9: m\n    1 | x: \\x1b[2J [\n      |            ^"},
		{"after OSC 52 and BEL", "\x1b]52;c;QQ==\x07!", "!", 13,
			"p.md:1:13: m\n    1 | \\x1b]52;c;QQ==\\x07!\n      |                   ^"},
		{"after a bidi override and wide text", "ハイ\u202e[", "[", 4,
			"p.md:1:4: m\n    1 | ハイ\\u202e[\n      |           ^"},
		{"after a carriage return", "a\rb", "b", 3,
			"p.md:1:3: m\n    1 | a\\x0db\n      |      ^"},
		{"after a tab the caret line has the tab too", "\tkey: [", "[", 7,
			"p.md:1:7: m\n    1 | \tkey: [\n      | \t     ^"},
		{"Korean untouched", "제목: [", "[", 5,
			"p.md:1:5: m\n    1 | 제목: [\n      |       ^"},
	} {
		src := []byte(c.src + "\n")
		d := At("p.md", src, strings.LastIndex(c.src, c.at), "m")
		if d.Col != c.col || d.Source != c.src {
			t.Errorf("%s: col %d, source %q; want %d, %q", c.name, d.Col, d.Source, c.col, c.src)
		}
		if got := d.String(); got != c.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

func TestHeaderEscapesPathAndMessage(t *testing.T) {
	d := File("content/ja/\u202egpj.md", "unknown field \"%s\"", "\x1b]0;pwned\x07").AsWarning()
	want := `content/ja/\u202egpj.md: warning: unknown field "\x1b]0;pwned\x07"`
	if got := d.Header(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if d.Msg != "unknown field \"\x1b]0;pwned\x07\"" {
		t.Errorf("the message itself changed: %q", d.Msg)
	}
	l := List{d, {Path: "a\x1b.md", Line: 1, Col: 1, Msg: "m", Source: "\x07"}}
	if got := l.Error(); strings.ContainsAny(got, "\x1b\x07\u202e") {
		t.Errorf("List.Error holds a raw control: %q", got)
	}
}
