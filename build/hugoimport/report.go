package hugoimport

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Kind says what became of one thing of the Hugo site.
type Kind int

const (
	// Converted: the kakehashi site has it as the Hugo site had it.
	Converted Kind = iota
	// Approximated: the kakehashi site has something close to it, the
	// item says what differs.
	Approximated
	// NotConverted: the kakehashi site does not have it.
	NotConverted
)

// String names the kind as the report's headings do.
func (k Kind) String() string {
	switch k {
	case Converted:
		return "converted"
	case Approximated:
		return "approximated"
	}
	return "not converted"
}

// Item is one line of a report: what became of one thing of the Hugo
// site, at its place there.
type Item struct {
	Kind Kind
	// Path is the file in the Hugo site, slash-separated from its root.
	Path string
	// Line and Col (in characters) are where the thing is in the file;
	// 0 when the item is about the whole file or folder.
	Line, Col int
	Msg       string
}

// String is the item as the report prints it: "path:line:col: message".
func (it Item) String() string {
	var b strings.Builder
	b.WriteString(diag.Escape(it.Path))
	if it.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", it.Line, max(it.Col, 1))
	}
	b.WriteString(": ")
	b.WriteString(diag.Escape(it.Msg))
	return b.String()
}

// Report is what an import did: an item for each thing of the Hugo site
// it converted, approximated or could not convert, the counts of what it
// wrote, and what a build of the result said.
type Report struct {
	Items []Item
	// Langs are the kakehashi site's languages, the original first.
	Langs []string
	// Pages, Series and Files count the pages, the series and the other
	// files (page folders' files, static/, shortcodes) written.
	Pages, Series, Files int
	// Build is what a build of the result reported, its errors and
	// warnings at their places in the kakehashi site (with the Hugo file
	// each came from); Built is false when the build failed.
	Build diag.List
	Built bool
	// Origins maps a page of the kakehashi site to the Hugo file it was
	// converted from, for the build's messages.
	Origins map[string]Origin
}

// Origin is where a page of the kakehashi site came from.
type Origin struct {
	// Path is the Hugo file.
	Path string
	// Shift is how many more lines the page's front matter has than the
	// Hugo file's: line n of the body is line n-Shift of the Hugo file.
	Shift int
	// Body is the first line of the body in the kakehashi page.
	Body int
}

// add records an item about the file path at byte offset off of src
// (nil src: the whole file).
func (r *Report) add(k Kind, path string, src []byte, off int, format string, args ...any) {
	it := Item{Kind: k, Path: path, Msg: fmt.Sprintf(format, args...)}
	if src != nil {
		it.Line, it.Col = diag.Position(src, off)
	}
	r.Items = append(r.Items, it)
}

// addAt records an item at a line and column of path (0 for the whole
// file).
func (r *Report) addAt(k Kind, path string, line, col int, format string, args ...any) {
	r.Items = append(r.Items, Item{Kind: k, Path: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// Count is the number of items of kind k.
func (r *Report) Count(k Kind) int {
	n := 0
	for _, it := range r.Items {
		if it.Kind == k {
			n++
		}
	}
	return n
}

// sort orders the items by kind, file and place.
func (r *Report) sort() {
	sort.SliceStable(r.Items, func(i, j int) bool {
		a, b := r.Items[i], r.Items[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Summary is the report's last line: what was written and how many
// items of each kind there are.
func (r *Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %s, %s, %s: %d converted, %d approximated, %d not converted",
		plural(r.Pages, "page", "pages"), plural(len(r.Langs), "language", "languages")+" ("+strings.Join(r.Langs, ", ")+")",
		plural(r.Series, "series", "series"), plural(r.Files, "other file", "other files"),
		r.Count(Converted), r.Count(Approximated), r.Count(NotConverted))
	errs, warns := len(r.Build.Errors()), len(r.Build.Warnings())
	switch {
	case !r.Built:
		fmt.Fprintf(&b, "; kakehashi build fails with %s", plural(errs, "error", "errors"))
	case warns > 0:
		fmt.Fprintf(&b, "; kakehashi build succeeds with %s", plural(warns, "warning", "warnings"))
	default:
		b.WriteString("; kakehashi build succeeds")
	}
	return b.String()
}

func plural(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, other)
}

// Write prints the report: the items under a heading per kind, what the
// build of the result said, and the summary.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	for _, k := range []Kind{Converted, Approximated, NotConverted} {
		if r.Count(k) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n", strings.ToUpper(k.String()[:1])+k.String()[1:])
		for _, it := range r.Items {
			if it.Kind == k {
				fmt.Fprintf(&b, "  %s\n", it)
			}
		}
	}
	if len(r.Build) > 0 {
		b.WriteString("kakehashi build of the result:\n")
		for _, d := range r.Build {
			fmt.Fprintf(&b, "  %s%s\n", d.Header(), r.origin(d))
		}
	}
	b.WriteString(r.Summary())
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// origin is " (from path:line)" for a diagnostic about a page converted
// from a Hugo file, "" otherwise.
func (r *Report) origin(d diag.Diagnostic) string {
	o, ok := r.Origins[d.Path]
	if !ok {
		return ""
	}
	if d.Line >= o.Body && d.Line-o.Shift > 0 {
		return fmt.Sprintf(" (from %s:%d)", diag.Escape(o.Path), d.Line-o.Shift)
	}
	return fmt.Sprintf(" (from %s)", diag.Escape(o.Path))
}
