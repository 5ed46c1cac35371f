package markdown

import "bytes"

// MaxNesting bounds how deep lists, block quotes and footnote
// definitions (and their mixes) nest in one document. goldmark's work on
// a line grows with the number of blocks open around it, so a page nested
// thousands deep takes time growing with the square of its size or worse;
// Render refuses a page past the bound before goldmark parses it.
const MaxNesting = 100

// nestingMsg is the diagnostic for a page nested deeper than MaxNesting.
const nestingMsg = "lists and block quotes nested deeper than %d levels: nest them less deeply " +
	`(each ">" or list marker opening a line is a level, and so are each two columns of indentation before them); the page is not rendered`

// tooDeep returns the offset in body of the first marker that may open
// level limit+1 of lists, block quotes and footnote definitions, or -1. It reads each line once, in time linear in the body.
//
// The depth of the blocks open on a line is at most the depth reached on
// the last line that opened one, and a line opening blocks continues the
// ones around it through its prefix: one ">" for each block quote, at
// least two columns of indentation for each list item (and four for each
// footnote definition) before its first list marker, after which every
// block is a new one. So a line's level is counted as its ">", list and
// footnote markers, plus half the columns of indentation before its first
// list marker (the space after a ">" belongs to it). That never counts
// less than goldmark nests, and exactly for lists indented by two columns
// and for quotes. Lines of a fenced code block that starts at column 0 of
// a line are not counted; a fence elsewhere may belong to a block that
// ends before it does, and an HTML block may hold what looks like a
// fence, so those lines are counted as any other.
func tooDeep(body []byte, limit int) int {
	fence := []byte(nil) // the opening run of the fenced code block we are in
	html := false        // a line began with "<": fences no longer skip lines
	for start := 0; start < len(body); {
		end := bytes.IndexByte(body[start:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += start
		}
		line := body[start:end]
		next := end + 1
		if fence != nil {
			if closesFence(line, fence) {
				fence = nil
			}
			start = next
			continue
		}
		if f := opensFence(line); f != nil && !html {
			fence = f
			start = next
			continue
		}
		if off := lineTooDeep(line, limit); off >= 0 {
			return start + off
		}
		if p := firstNonSpace(line); p < len(line) && line[p] == '<' {
			html = true
		}
		start = next
	}
	return -1
}

// lineTooDeep returns the offset in line of the marker that takes its
// level past limit, or -1.
func lineTooDeep(line []byte, limit int) int {
	col, indent, level := 0, 0, 0
	opened := false // a list or footnote marker was seen: later blocks are new
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			w := 1
			if c == '\t' {
				w = 4 - col%4
			}
			col += w
			if !opened {
				indent += w
			}
			i++
			continue
		case c == '>':
			level++
			if level+indent/2 > limit {
				return i
			}
			i++
			col++
			if i < len(line) && line[i] == ' ' {
				i++
				col++
			}
			continue
		}
		n := listMarker(line[i:])
		if n == 0 {
			n = footnoteMarker(line[i:])
		}
		if n == 0 {
			return -1
		}
		level++
		if level+indent/2 > limit {
			return i
		}
		opened = true
		i += n
		col += n
	}
	return -1
}

// listMarker returns the length of the list marker ("-", "*", "+", "1."
// or "1)" with up to nine digits) that b starts with, followed by a space,
// a tab or the end of the line, or 0.
func listMarker(b []byte) int {
	n := 0
	switch {
	case len(b) > 0 && (b[0] == '-' || b[0] == '*' || b[0] == '+'):
		n = 1
	default:
		for n < len(b) && n < 10 && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		if n == 0 || n > 9 || n >= len(b) || (b[n] != '.' && b[n] != ')') {
			return 0
		}
		n++
	}
	if n < len(b) && b[n] != ' ' && b[n] != '\t' && b[n] != '\r' {
		return 0
	}
	return n
}

// footnoteMarker returns the length of the "[^label]:" that b starts
// with, or 0.
func footnoteMarker(b []byte) int {
	if len(b) < 5 || b[0] != '[' || b[1] != '^' {
		return 0
	}
	i := bytes.IndexByte(b, ']')
	if i < 3 || i+1 >= len(b) || b[i+1] != ':' {
		return 0
	}
	return i + 2
}

func firstNonSpace(line []byte) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

// opensFence returns the run of "`" or "~" opening a fenced code block at
// column 0 of line, or nil.
func opensFence(line []byte) []byte {
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return nil
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 || line[0] == '`' && bytes.IndexByte(line[n:], '`') >= 0 {
		return nil
	}
	return line[:n]
}

// closesFence tells whether line closes the fenced code block opened by
// the run fence: at most three spaces, a run of the same character at
// least as long, then only spaces.
func closesFence(line, fence []byte) bool {
	i := firstNonSpace(line)
	if i > 3 {
		return false
	}
	n := 0
	for i+n < len(line) && line[i+n] == fence[0] {
		n++
	}
	return n >= len(fence) && len(bytes.TrimSpace(line[i+n:])) == 0
}
