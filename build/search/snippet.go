// A result's snippet: the window of its text around the densest group of
// the query's matches, marked.

package search

import (
	"strings"
)

// snippetOf cuts a window of a page's text around the densest group of
// the tokens the query matched and marks them.
func snippetOf(pt pageText, qs []queryTerm) []Segment {
	rs := pt.rs
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, t := range pt.toks {
		for _, q := range qs {
			if q.matches(t.text) {
				spans = append(spans, span{t.start, t.end, t.text})
				break
			}
		}
	}
	a, anchor := 0, 0
	bestCount := 0
	for _, s := range spans {
		lo := max(0, s.start-snippetLead)
		hi := lo + snippetRunes
		distinct := map[string]bool{}
		for _, o := range spans {
			if o.start >= lo && o.end <= hi {
				distinct[o.text] = true
			}
		}
		if len(distinct) > bestCount {
			bestCount, a, anchor = len(distinct), lo, s.start
		}
	}
	// start after a space rather than inside a word, when one is near
	for k := a; a > 0 && k < anchor; k++ {
		if rs[k] == ' ' {
			a = k + 1
			break
		}
	}
	e := min(len(rs), a+snippetRunes)
	// a matched word the window's edge falls in is shown whole, not its
	// first or last letters marked
	for _, s := range spans {
		if s.start < a && s.end > a {
			a = s.start
		}
		if s.start < e && s.end > e {
			e = s.end
		}
	}
	// marks: spans inside the window, clipped, merged when they overlap,
	// touch or are one space apart
	var marks [][2]int
	for _, s := range spans {
		lo, hi := max(s.start, a), min(s.end, e)
		if lo >= hi {
			continue
		}
		if n := len(marks); n > 0 && (lo <= marks[n-1][1] || lo == marks[n-1][1]+1 && rs[lo-1] == ' ') {
			marks[n-1][1] = max(marks[n-1][1], hi)
			continue
		}
		marks = append(marks, [2]int{lo, hi})
	}
	var out []Segment
	addText := func(s string, mark bool) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Mark == mark {
			out[n-1].Text += s
			return
		}
		out = append(out, Segment{s, mark})
	}
	if a > 0 {
		addText(ellipsis, false)
	}
	p := a
	for _, m := range marks {
		addText(string(rs[p:m[0]]), false)
		addText(string(rs[m[0]:m[1]]), true)
		p = m[1]
	}
	addText(string(rs[p:e]), false)
	if e < len(rs) {
		addText(ellipsis, false)
	}
	return out
}

// SnippetText renders a snippet as plain text with the marked pieces in
// [brackets], for tests and terminals.
func SnippetText(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Mark {
			b.WriteString("[" + s.Text + "]")
		} else {
			b.WriteString(s.Text)
		}
	}
	return b.String()
}
