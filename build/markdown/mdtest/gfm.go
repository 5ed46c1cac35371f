package mdtest

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

// GFMVersion is the version of the GitHub Flavored Markdown spec whose
// examples GFM returns: testdata/gfm-0.29.txt, the test/spec.txt of
// cmark-gfm (Go module github.com/github/cmark-gfm at
// v0.0.0-20260713143608-499789b49373; see testdata/README).
const GFMVersion = "0.29"

//go:embed testdata/gfm-0.29.txt
var gfmSpec []byte

// GFM returns the examples of the GFM spec, version GFMVersion, in
// order, the extensions' among them: Example is 1 for the first, and
// Extensions names what an example is about beyond CommonMark ("table",
// "strikethrough", "autolink", "tagfilter"), or "disabled" for those
// cmark-gfm's own runner skips (the task lists').
func GFM() ([]Example, error) {
	return ParseSpecText(gfmSpec)
}

// fence opens and closes an example of a spec.txt.
var (
	fence  = strings.Repeat("`", 32)
	header = regexp.MustCompile(`^#+ `)
)

// ParseSpecText reads the examples of a CommonMark-style spec.txt, as the
// spec's test/spec_tests.py reads them: each between a line of 32
// backquotes followed by " example" (and the extensions it needs) and a
// line of 32 backquotes, its markdown and its HTML parted by a line ".",
// every "→" a tab; Section is the last heading before it.
func ParseSpecText(b []byte) ([]Example, error) {
	var (
		out          []Example
		state        int // 0 text, 1 markdown, 2 HTML
		md, html     strings.Builder
		ext          []string
		section      string
		line, opened int
	)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line++
		raw := sc.Text() + "\n"
		l := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(l, fence+" example"):
			state, opened = 1, line
			ext = strings.Fields(l[len(fence+" example"):])
		case l == fence:
			state = 0
			out = append(out, Example{
				Markdown:   strings.ReplaceAll(md.String(), "→", "\t"),
				HTML:       strings.ReplaceAll(html.String(), "→", "\t"),
				Example:    len(out) + 1,
				Section:    section,
				Extensions: ext,
			})
			md.Reset()
			html.Reset()
		case l == ".":
			state = 2
		case state == 1:
			md.WriteString(raw)
		case state == 2:
			html.WriteString(raw)
		case header.MatchString(raw):
			section = strings.TrimSpace(header.ReplaceAllString(raw, ""))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if state != 0 {
		return nil, fmt.Errorf("spec: the example opened at line %d is not closed", opened)
	}
	return out, nil
}
