package shortcodes

import (
	"bytes"
	"sort"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// scanKey holds the *scan of the document being parsed. Keys are
// immutable once created.
var scanKey = parser.NewContextKey()

// scan is what the parsers learn about a document while they read tags
// that do not end on their line (a tag may span lines, as in Hugo), kept
// so that such tags cost no more than their own text: looking afresh for
// each made a page of many of them quadratic.
type scan struct {
	src []byte
	// blanks are the offsets where the blank lines of src start.
	blanks []int
	// ends caches blockEnd by block.
	ends map[ast.Node]int
	// paraFrom is where continueTag next reads a paragraph from.
	paraFrom map[ast.Node]int
	// found caches searches of the lexer (lexer.index), by what was
	// searched for.
	found map[string]search
}

// search is one search of a lexer: the first occurrence at or after from
// and before limit is at, -1 when there is none.
type search struct{ from, limit, at int }

// scanOf returns the scan of src for the document of pc, making it on
// first use.
func scanOf(pc parser.Context, src []byte) *scan {
	s, _ := pc.Get(scanKey).(*scan)
	if s != nil && len(s.src) == len(src) && (len(src) == 0 || &s.src[0] == &src[0]) {
		return s
	}
	s = &scan{src: src, ends: map[ast.Node]int{}, paraFrom: map[ast.Node]int{}, found: map[string]search{}}
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			j = len(src) - i
		}
		if blank(src[i : i+j]) {
			s.blanks = append(s.blanks, i)
		}
		i += j + 1
	}
	pc.Set(scanKey, s)
	return s
}

// limit returns how far a tag that does not end on its line, which ends
// at from, may be read: up to the next blank line, or the end of the
// source.
func (s *scan) limit(from int) int {
	if k := sort.SearchInts(s.blanks, from+1); k < len(s.blanks) {
		return s.blanks[k]
	}
	return len(s.src)
}

// parseTag reads the tag at off whose first line ends at lineEnd as far
// as limit(lineEnd).
func (s *scan) parseTag(off, lineEnd int) (tag, *Error) {
	return s.parseTagIn(off, s.limit(lineEnd))
}

// parseTagIn reads the tag at off no further than limit, its lexer's
// searches remembered.
func (s *scan) parseTagIn(off, limit int) (tag, *Error) {
	return parseTagWith(s.src, off, limit, s)
}

// index returns the offset of the first needle in src[from:limit], or -1,
// from the searches so far where they tell.
func (s *scan) index(from, limit int, needle string) int {
	if e, ok := s.found[needle]; ok && from >= e.from {
		switch {
		case e.at < 0 && limit <= e.limit:
			return -1
		case e.at >= from && e.at+len(needle) <= limit:
			return e.at
		case e.at >= from:
			return -1 // the first one from here does not fit before limit
		}
	}
	at := -1
	if i := bytes.Index(s.src[from:limit], []byte(needle)); i >= 0 {
		at = from + i
	}
	s.found[needle] = search{from: from, limit: limit, at: at}
	return at
}

// blockEnd returns the end of the last line of the block being read (the
// block holding parent), not moving the reader.
func (s *scan) blockEnd(parent ast.Node, block text.Reader) int {
	for parent != nil && parent.Type() != ast.TypeBlock {
		parent = parent.Parent()
	}
	if end, ok := s.ends[parent]; ok && parent != nil {
		return end
	}
	l, pos := block.Position()
	defer block.SetPosition(l, pos)
	end := pos.Start
	for {
		line, seg := block.PeekLine()
		if line == nil {
			break
		}
		end = lineEnd(s.src, seg)
		block.AdvanceLine()
	}
	if parent != nil {
		s.ends[parent] = end
	}
	return end
}
