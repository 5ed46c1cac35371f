package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAtPositionsInCharacters(t *testing.T) {
	src := []byte("---\ntitle: ハイ\npart: five\n---\n본문\n")
	tests := []struct {
		off        int
		line, col  int
		source     string
		contextLen int
	}{
		{0, 1, 1, "---", 3},
		{strings.Index(string(src), "ハイ"), 2, 8, "title: ハイ", 4},
		{strings.Index(string(src), "five"), 3, 7, "part: five", 5},
		{strings.Index(string(src), "본문") + len("본"), 5, 2, "본문", 4},
		{len(src), 6, 1, "", 3},
		{len(src) + 10, 6, 1, "", 3},
		{-4, 1, 1, "---", 3},
	}
	for _, tt := range tests {
		d := At("p.md", src, tt.off, "msg %d", 1)
		if d.Line != tt.line || d.Col != tt.col || d.Source != tt.source || len(d.Context) != tt.contextLen {
			t.Errorf("At(%d) = %d:%d %q (%d context lines), want %d:%d %q (%d)", tt.off, d.Line, d.Col, d.Source, len(d.Context), tt.line, tt.col, tt.source, tt.contextLen)
		}
		if l, c := Position(src, tt.off); tt.off >= 0 && tt.off <= len(src) && (l != d.Line || c != d.Col) {
			t.Errorf("Position(%d) = %d:%d, At says %d:%d", tt.off, l, c, d.Line, d.Col)
		}
	}
}

func TestOffsetRoundTrip(t *testing.T) {
	src := []byte("a\nテスト\n\n한국어 text\n")
	for off := 0; off <= len(src); off++ {
		if off < len(src) && !utf8.RuneStart(src[off]) {
			continue
		}
		l, c := Position(src, off)
		if back := Offset(src, l, c); back != off {
			t.Errorf("offset %d → %d:%d → %d", off, l, c, back)
		}
	}
}

func TestStringHasCaretUnderWideText(t *testing.T) {
	src := []byte("title: ハイ [x\n")
	d := At("p.md", src, strings.Index(string(src), "["), "unclosed")
	want := "p.md:1:11: unclosed\n    1 | title: ハイ [x\n      |             ^"
	if d.String() != want {
		t.Errorf("got\n%s\nwant\n%s", d, want)
	}
	w := d.AsWarning()
	if !strings.HasPrefix(w.String(), "p.md:1:11: warning: unclosed") {
		t.Errorf("warning: %s", w)
	}
	if got := File("p.md", "whole file").String(); got != "p.md: whole file" {
		t.Errorf("file diagnostic: %q", got)
	}
}

func TestListSortsAndSplits(t *testing.T) {
	l := List{
		{Path: "b.md", Line: 1, Col: 1, Msg: "b"},
		{Path: "a.md", Line: 9, Col: 1, Msg: "a9", Severity: Warning},
		{Path: "a.md", Line: 2, Col: 5, Msg: "a2"},
	}
	if l.Errors().Err() == nil || len(l.Errors()) != 2 || len(l.Warnings()) != 1 {
		t.Fatalf("errors %d warnings %d", len(l.Errors()), len(l.Warnings()))
	}
	err := l.Err()
	if got := err.Error(); !strings.HasPrefix(got, "a.md:2:5: a2") || !strings.Contains(got, "b.md:1:1: b") {
		t.Errorf("Err() = %q", got)
	}
	if (List{{Msg: "w", Severity: Warning}}).Err() != nil {
		t.Error("warnings alone made an error")
	}
	wrapped := fmt.Errorf("stage: %w", l.Errors())
	if got := FromError(wrapped); len(got) != 2 {
		t.Errorf("FromError lost diagnostics: %v", got)
	}
	if got := FromError(errors.New("plain")); len(got) != 1 || got[0].Msg != "plain" {
		t.Errorf("FromError(plain) = %v", got)
	}
}

// TestIndexAgreesWithScan checks the binary-search index against a plain
// scan on every offset of a mixed-script source.
func TestIndexAgreesWithScan(t *testing.T) {
	src := []byte("line one\r\n二行目\n\n셋째 줄\nlast")
	x := NewIndex(src)
	for off := 0; off <= len(src); off++ {
		d := x.At("p", off, "m")
		l, c := Position(src, off)
		if d.Line != l || d.Col != c || d.Source != LineText(src, l) {
			t.Fatalf("offset %d: index %d:%d %q, scan %d:%d %q", off, d.Line, d.Col, d.Source, l, c, LineText(src, l))
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"callout", "details", "figure", "part", "quorum-table", "title"}
	tests := []struct{ in, want string }{
		{"calout", "callout"},
		{"Callout", "callout"},
		{"titel", "title"},
		{"prat", "part"},
		{"quorum", ""}, // too far from quorum-table
		{"x", ""},
		{"zzzzzzz", ""},
	}
	for _, tt := range tests {
		if got := Suggest(tt.in, names); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCapPerFile checks the per-file cap: order kept, errors kept before
// warnings, one summary per capped file at the place of the first
// diagnostic dropped, and an error summary whenever an error was dropped.
func TestCapPerFile(t *testing.T) {
	e := func(path string, line int) Diagnostic {
		return Diagnostic{Path: path, Line: line, Col: 1, Msg: fmt.Sprintf("e%d", line)}
	}
	w := func(path string, line int) Diagnostic { return e(path, line).AsWarning() }
	many := func(path string, n int, mk func(string, int) Diagnostic) List {
		var l List
		for i := 1; i <= n; i++ {
			l = append(l, mk(path, i))
		}
		return l
	}
	// brief prints a list as "path:line:severity" items, summaries as
	// "path:line:+N" (E or W for their severity).
	brief := func(l List) string {
		var parts []string
		for _, d := range l {
			sev := "E"
			if d.Severity == Warning {
				sev = "W"
			}
			if strings.HasPrefix(d.Msg, "and ") {
				var n int
				fmt.Sscanf(d.Msg, "and %d more in this file", &n)
				parts = append(parts, fmt.Sprintf("%s:%d:+%d%s", d.Path, d.Line, n, sev))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s:%d:%s", d.Path, d.Line, sev))
		}
		return strings.Join(parts, " ")
	}
	tests := []struct {
		name string
		l    List
		n    int
		want string
	}{
		{"under the cap", List{e("a", 1), w("a", 2)}, 2, "a:1:E a:2:W"},
		{"no cap", many("a", 3, e), 0, "a:1:E a:2:E a:3:E"},
		{"errors over", many("a", 4, e), 2, "a:1:E a:2:E a:3:+2E"},
		{"warnings over", many("a", 3, w), 2, "a:1:W a:2:W a:3:+1W"},
		{"errors kept before warnings", List{w("a", 1), w("a", 2), e("a", 3)}, 2, "a:1:W a:2:+1W a:3:E"},
		{"a dropped error makes an error summary", List{e("a", 1), e("a", 2), w("a", 3), e("a", 4), e("a", 5)}, 2, "a:1:E a:2:E a:3:+3E"},
		{"per file", append(append(many("a", 3, e), many("b", 1, e)...), e("a", 9)), 2,
			"a:1:E a:2:E a:3:+2E b:1:E"},
		{"file-less diagnostics count as one file", List{{Msg: "x"}, {Msg: "y"}}, 1, ":0:E :0:+1E"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := brief(tt.l)
			got := tt.l.CapPerFile(tt.n)
			if s := brief(got); s != tt.want {
				t.Errorf("got  %s\nwant %s", s, tt.want)
			}
			if brief(tt.l) != before {
				t.Errorf("the list was modified: %s", brief(tt.l))
			}
			if (tt.l.Err() == nil) != (got.Err() == nil) {
				t.Errorf("errors before %v, after %v", tt.l.Err() != nil, got.Err() != nil)
			}
		})
	}
	got := many("p.md", 30, e).CapPerFile(PerFile)
	if len(got) != PerFile+1 || got[PerFile].Header() != "p.md:21:1: and 10 more in this file" {
		t.Errorf("%d diagnostics, last %q", len(got), got[len(got)-1].Header())
	}
}

// TestCapPerCode: at most n of a code are kept, in order, the rest
// counted by code; one without a code is always kept.
func TestCapPerCode(t *testing.T) {
	var l List
	for i := range 5 {
		l = append(l, Diagnostic{Path: fmt.Sprintf("a%d.md", i), Code: "unmarked"}, Diagnostic{Path: fmt.Sprintf("b%d.md", i)})
	}
	l = append(l, Diagnostic{Path: "c.md", Code: "stale"})
	kept, dropped := l.CapPerCode(2)
	var paths []string
	for _, d := range kept {
		paths = append(paths, d.Path)
	}
	if got, want := strings.Join(paths, " "), "a0.md b0.md a1.md b1.md b2.md b3.md b4.md c.md"; got != want {
		t.Errorf("kept %s, want %s", got, want)
	}
	if len(dropped) != 1 || dropped["unmarked"] != 3 {
		t.Errorf("dropped %v, want 3 unmarked", dropped)
	}
	if kept, dropped := l.CapPerCode(0); len(kept) != len(l) || dropped != nil {
		t.Errorf("n 0: %d kept, %v dropped", len(kept), dropped)
	}
}

// TestIn: a site's path is put under the folder the command was given; a
// path of the binary's, an absolute one and the current folder are not.
func TestIn(t *testing.T) {
	for _, tc := range []struct{ dir, path, want string }{
		{"course", "content/ja/a.md", "course/content/ja/a.md"},
		{"../site", "kakehashi.toml", "../site/kakehashi.toml"},
		{".", "content/ja/a.md", "content/ja/a.md"},
		{"", "content/ja/a.md", "content/ja/a.md"},
		{"course", "(embedded) themes/default/x.html", "(embedded) themes/default/x.html"},
		{"course", "/abs/a.md", "/abs/a.md"},
		{"course", "", ""},
	} {
		if got := (Diagnostic{Path: tc.path}).In(tc.dir).Path; got != tc.want {
			t.Errorf("In(%q) of %q = %q, want %q", tc.dir, tc.path, got, tc.want)
		}
	}
}
