// Package diag holds kakehashi's diagnostics: messages tied to a position in
// a source file, printed as "path:line:col: message" with the offending line
// and a caret under the column. Columns count characters, not bytes.
package diag

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// Severity tells an error from a warning.
type Severity int

const (
	// Error stops the build.
	Error Severity = iota
	// Warning is reported but does not stop the build.
	Warning
)

// Diagnostic is one message about one place in one file.
type Diagnostic struct {
	Path     string
	Line     int // 1-based; 0 when the message is about the whole file
	Col      int // 1-based, in characters
	Msg      string
	Severity Severity
	// Source is the text of the offending line, without its newline.
	Source string
	// Context holds up to two lines before and after Source, for the
	// browser overlay; Context[i] is line ContextStart+i.
	Context      []string
	ContextStart int
	// Code names the kind of problem for tools ("link", "stale-translation");
	// "" when the stage that found it gives none (kakehashi check then
	// says "build").
	Code string
}

// WithCode returns d with its Code set.
func (d Diagnostic) WithCode(code string) Diagnostic { d.Code = code; return d }

// At builds a diagnostic for the byte offset off in src. To report many
// diagnostics in one source, an Index is faster.
func At(path string, src []byte, off int, format string, args ...any) Diagnostic {
	return NewIndex(src).At(path, off, format, args...)
}

// Index finds lines in one source by binary search, so that reporting
// many diagnostics in a large file stays fast.
type Index struct {
	src    []byte
	text   string // src as a string: lines are slices of it, never copies
	starts []int  // byte offset of each line's start
}

// NewIndex indexes the lines of src.
func NewIndex(src []byte) *Index {
	x := &Index{src: src, text: string(src), starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			x.starts = append(x.starts, i+1)
		}
	}
	return x
}

// line returns the text of 1-based line n without its newline.
func (x *Index) line(n int) (string, bool) {
	if n < 1 || n > len(x.starts) {
		return "", false
	}
	start, end := x.starts[n-1], len(x.src)
	if n < len(x.starts) {
		end = x.starts[n] - 1
	}
	return strings.TrimSuffix(x.text[start:end], "\r"), true
}

// At builds a diagnostic for the byte offset off of the indexed source.
func (x *Index) At(path string, off int, format string, args ...any) Diagnostic {
	off = min(max(off, 0), len(x.src))
	d := Diagnostic{Path: path, Msg: fmt.Sprintf(format, args...)}
	d.Line = sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off })
	d.Col = utf8.RuneCount(x.src[x.starts[d.Line-1]:off]) + 1
	d.Source, _ = x.line(d.Line)
	d.ContextStart = max(1, d.Line-2)
	for l := d.ContextStart; l <= d.Line+2; l++ {
		t, ok := x.line(l)
		if !ok {
			break
		}
		d.Context = append(d.Context, t)
	}
	return d
}

// AtLine builds a diagnostic for a 1-based line and column (in characters).
func AtLine(path string, src []byte, line, col int, format string, args ...any) Diagnostic {
	return At(path, src, Offset(src, line, col), format, args...)
}

// File builds a diagnostic about a whole file.
func File(path string, format string, args ...any) Diagnostic {
	return Diagnostic{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// AsWarning returns d as a warning.
func (d Diagnostic) AsWarning() Diagnostic { d.Severity = Warning; return d }

// Position converts a byte offset to a 1-based line and a 1-based column
// counted in characters. Offsets past the end clamp to the end.
func Position(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line = 1
	start := 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCount(src[start:off]) + 1
}

// Offset converts a 1-based line and character column back to a byte offset.
func Offset(src []byte, line, col int) int {
	off := 0
	for l := 1; l < line && off < len(src); off++ {
		if src[off] == '\n' {
			l++
		}
	}
	for c := 1; c < col && off < len(src) && src[off] != '\n'; c++ {
		_, n := utf8.DecodeRune(src[off:])
		off += n
	}
	return off
}

// LineText returns the text of 1-based line n, without its newline.
func LineText(src []byte, n int) string {
	t, _ := lineText(src, n)
	return t
}

func lineText(src []byte, n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	s := string(src)
	for i := 1; i < n; i++ {
		j := strings.IndexByte(s, '\n')
		if j < 0 {
			return "", false
		}
		s = s[j+1:]
	}
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSuffix(s, "\r"), true
}

// Header is the "path:line:col: message" line alone, with the path and
// the message escaped (Escape): either may quote a file's content.
func (d Diagnostic) Header() string {
	var b strings.Builder
	b.WriteString(Escape(d.Path))
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Col)
	}
	b.WriteString(": ")
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(Escape(d.Msg))
	return b.String()
}

// String renders the diagnostic with its source line and a caret:
//
//	content/ja/cka/05.md:3:8: unknown field "titel"
//	    3 | titel: HA
//	      | ^
//
// The source line is escaped as the header is (Escape), so that a line
// holding terminal escapes prints them as text; the caret stays under
// the character Col counts in the original line.
func (d Diagnostic) String() string {
	if d.Line == 0 {
		return d.Header()
	}
	num := fmt.Sprint(d.Line)
	pad := strings.Repeat(" ", len(num))
	caret := caretPad(d.Source, d.Col-1) + "^"
	return fmt.Sprintf("%s\n    %s | %s\n    %s | %s", d.Header(), num, escapeLine(d.Source), pad, caret)
}

// escapeLine is Escape for one source line: a line feed, which no line
// holds unless a caller put it there, is escaped too.
func escapeLine(s string) string {
	return strings.ReplaceAll(Escape(s), "\n", `\x0a`)
}

func runeWidth(r rune) int {
	switch {
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF,
		r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF,
		r >= 0xFE30 && r <= 0xFE4F, r >= 0xFF00 && r <= 0xFF60,
		r >= 0xFFE0 && r <= 0xFFE6, r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}

func (d Diagnostic) Error() string { return d.String() }

// List is every diagnostic a stage found. As an error it prints them all.
type List []Diagnostic

// Error prints every diagnostic, one after the other.
func (l List) Error() string {
	parts := make([]string, len(l))
	for i, d := range l {
		parts[i] = d.String()
	}
	return strings.Join(parts, "\n")
}

// Errors returns only the diagnostics of severity Error.
func (l List) Errors() List {
	var out List
	for _, d := range l {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Warnings returns only the warnings.
func (l List) Warnings() List {
	var out List
	for _, d := range l {
		if d.Severity == Warning {
			out = append(out, d)
		}
	}
	return out
}

// Err returns the errors of l as an error, or nil when there are none.
func (l List) Err() error {
	if e := l.Errors(); len(e) > 0 {
		e.Sort()
		return e
	}
	return nil
}

// Sort orders diagnostics by path, line and column, so output is stable.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// FromError flattens err into a list: a List or Diagnostic stays itself;
// any other error becomes a file-less diagnostic.
func FromError(err error) List {
	if err == nil {
		return nil
	}
	var l List
	if errors.As(err, &l) {
		return l
	}
	var d Diagnostic
	if errors.As(err, &d) {
		return List{d}
	}
	return List{{Msg: err.Error()}}
}

// PerFile is how many diagnostics the build reports for one file before
// summing up the rest (see List.CapPerFile).
const PerFile = 20

// CapPerFile keeps at most n diagnostics of each file (errors before
// warnings, in their order) and puts in place of the first one dropped a
// single "and N more in this file" at its position. The summary is an
// error when an error was dropped, so a capped list has errors exactly
// when l has. n < 1 returns l unchanged; l itself is not modified.
func (l List) CapPerFile(n int) List {
	if n < 1 {
		return l
	}
	type file struct{ errors, warnings, keptErrors, keptWarnings, dropped int }
	files := map[string]*file{}
	over := false
	for _, d := range l {
		f := files[d.Path]
		if f == nil {
			f = &file{}
			files[d.Path] = f
		}
		if d.Severity == Error {
			f.errors++
		} else {
			f.warnings++
		}
		over = over || f.errors+f.warnings > n
	}
	if !over {
		return l
	}
	for _, f := range files {
		f.keptErrors = min(f.errors, n)
		f.keptWarnings = min(f.warnings, n-f.keptErrors)
		f.dropped = f.errors + f.warnings - f.keptErrors - f.keptWarnings
	}
	out := make(List, 0, min(len(l), (n+1)*len(files)))
	summary := map[string]int{} // path → index of its summary in out
	droppedError := map[string]bool{}
	for _, d := range l {
		f := files[d.Path]
		switch {
		case d.Severity == Error && f.keptErrors > 0:
			f.keptErrors--
			out = append(out, d)
			continue
		case d.Severity != Error && f.keptWarnings > 0:
			f.keptWarnings--
			out = append(out, d)
			continue
		}
		droppedError[d.Path] = droppedError[d.Path] || d.Severity == Error
		if _, ok := summary[d.Path]; !ok {
			summary[d.Path] = len(out)
			s := d
			s.Msg = fmt.Sprintf("and %d more in this file", f.dropped)
			out = append(out, s)
		}
	}
	// Whether an error was dropped is known once the whole list is seen.
	for path, i := range summary {
		out[i].Severity = Warning
		if droppedError[path] {
			out[i].Severity = Error
		}
	}
	return out
}

// CapPerCode keeps at most n diagnostics of each code, in order, and
// counts those dropped by code; a diagnostic without a code is always
// kept. n < 1 keeps every one.
func (l List) CapPerCode(n int) (kept List, dropped map[string]int) {
	if n < 1 {
		return l, nil
	}
	seen := map[string]int{}
	for _, d := range l {
		if d.Code != "" {
			if seen[d.Code]++; seen[d.Code] > n {
				if dropped == nil {
					dropped = map[string]int{}
				}
				dropped[d.Code]++
				continue
			}
		}
		kept = append(kept, d)
	}
	return kept, dropped
}

// In is d with its path under the folder dir, so that the path is valid
// from where a command was run. A path in parentheses is not the site's:
// "(embedded) themes/default/…", a file inside the binary, or
// "(kakehashi)", the binary itself; nor is an absolute one.
func (d Diagnostic) In(dir string) Diagnostic {
	if d.Path != "" && dir != "." && dir != "" && !filepath.IsAbs(d.Path) && !strings.HasPrefix(d.Path, "(") {
		d.Path = filepath.ToSlash(filepath.Join(dir, d.Path))
	}
	return d
}
