package corpus

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
)

// blockKind is the kind of a top-level markdown block.
type blockKind int

const (
	kindPara blockKind = iota
	kindHeading
	kindFence
	kindTable
	kindList
	kindQuote
)

// block is one top-level markdown block of a source article.
type block struct {
	kind  blockKind
	level int    // heading level
	text  string // the block as written (for a heading: its text only)
	lang  string // fence info language
	code  string // fence body, ending in "\n"
}

// splitFrontMatter returns the YAML front matter and the body of a page.
// A page without "---" front matter is all body.
func splitFrontMatter(src []byte) (fm, body []byte) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(src, []byte("---\n")) {
		return nil, src
	}
	rest := src[4:]
	if i := bytes.Index(rest, []byte("\n---\n")); i >= 0 {
		return rest[:i+1], rest[i+5:]
	}
	if bytes.HasSuffix(rest, []byte("\n---")) {
		return rest[:len(rest)-3], nil
	}
	return nil, src
}

// splitBlocks cuts a markdown body into top-level blocks: fenced code is
// kept whole (blank lines included), everything else is split at blank
// lines and classified by its first line.
func splitBlocks(body string) []block {
	var out []block
	lines := strings.Split(body, "\n")
	var cur []string
	flush := func() {
		if len(cur) == 0 {
			return
		}
		out = append(out, classify(strings.Join(cur, "\n")))
		cur = nil
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if fence, ok := fenceOpen(l); ok {
			flush()
			info := strings.TrimSpace(strings.TrimLeft(l, "`~"))
			lang, _, _ := strings.Cut(info, " ")
			var code strings.Builder
			j := i + 1
			for ; j < len(lines); j++ {
				if strings.HasPrefix(strings.TrimSpace(lines[j]), fence) && strings.TrimSpace(strings.TrimLeft(lines[j], "`~")) == "" {
					break
				}
				code.WriteString(lines[j])
				code.WriteByte('\n')
			}
			out = append(out, block{kind: kindFence, lang: lang, code: code.String()})
			i = j
			continue
		}
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		cur = append(cur, l)
	}
	flush()
	return out
}

// fenceOpen reports whether l opens a fenced code block, and its fence.
func fenceOpen(l string) (string, bool) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return "", false
	}
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, c) {
			n := len(t) - len(strings.TrimLeft(t, c[:1]))
			return strings.Repeat(c[:1], n), true
		}
	}
	return "", false
}

// classify decides the kind of a non-fence block.
func classify(s string) block {
	first, _, _ := strings.Cut(s, "\n")
	switch {
	case headingLevel(first) > 0 && !strings.Contains(s, "\n"):
		lv := headingLevel(first)
		return block{kind: kindHeading, level: lv, text: strings.TrimSpace(first[lv:])}
	case strings.HasPrefix(first, "|"):
		return block{kind: kindTable, text: s}
	case strings.HasPrefix(first, "- "), strings.HasPrefix(first, "* "), orderedItem(first):
		return block{kind: kindList, text: s}
	case strings.HasPrefix(first, ">"):
		return block{kind: kindQuote, text: s}
	}
	return block{kind: kindPara, text: s}
}

// headingLevel is the ATX heading level of line l, or 0.
func headingLevel(l string) int {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n >= len(l) || l[n] != ' ' {
		return 0
	}
	return n
}

// orderedItem reports whether l starts an ordered list item ("1. ").
func orderedItem(l string) bool {
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && i < 10 && strings.HasPrefix(l[i:], ". ")
}

// asciiLines drops every line of code holding a non-ASCII character
// (comments and labels written in one language), so that a block can be
// shared by the two translations of a part.
func asciiLines(code string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(code, "\n") {
		if l == "" {
			continue
		}
		if !isASCII(l) {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// onlyComments reports whether every non-ASCII line of code is a "#"
// comment.
func onlyComments(code string) bool {
	for _, l := range strings.Split(code, "\n") {
		if !isASCII(l) && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// rotate returns xs rotated left by k.
func rotate[T any](xs []T, k int) []T {
	if len(xs) == 0 {
		return xs
	}
	k %= len(xs)
	out := make([]T, 0, len(xs))
	out = append(out, xs[k:]...)
	return append(out, xs[:k]...)
}

// sentences splits a paragraph into sentences: after "。" for Japanese,
// after ". " for Korean (and any other language).
func sentences(s, lang string) []string {
	var out []string
	sep := ". "
	if lang == "ja" {
		sep = "。"
	}
	for s != "" {
		i := strings.Index(s, sep)
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+len(sep)])
		s = s[i+len(sep):]
	}
	return out
}

// rotateSentences moves the first k sentences of a one-line paragraph to
// its end, keeping the language's spacing between sentences.
func rotateSentences(p, lang string, k int) string {
	if strings.Contains(p, "\n") {
		return p
	}
	ss := sentences(p, lang)
	if len(ss) < 2 {
		return p
	}
	if lang != "ja" {
		for i := range ss {
			ss[i] = strings.TrimSpace(ss[i])
		}
		return strings.Join(rotate(ss, k), " ")
	}
	return strings.Join(rotate(ss, k), "")
}

// rotateList rotates the items of a bullet list; ordered lists keep their
// order (their numbers would go wrong).
func rotateList(s string, k int) string {
	if orderedItem(s) {
		return s
	}
	var items []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") || len(items) == 0 {
			items = append(items, l)
			continue
		}
		items[len(items)-1] += "\n" + l
	}
	return strings.Join(rotate(items, k), "\n")
}

// rotateTable rotates the body rows of a GFM table, keeping its header and
// delimiter row.
func rotateTable(s string, k int) string {
	rows := strings.Split(s, "\n")
	if len(rows) < 4 {
		return s
	}
	body := rotate(rows[2:], k)
	return strings.Join(append(rows[:2:2], body...), "\n")
}

var (
	// partCallRe is the course's shortcode for a reference to a part.
	partCallRe = regexp.MustCompile(`\{\{<\s*part\s+(\d+)\s*/?>\}\}`)
	// tagLineRe is a line holding nothing but a shortcode tag.
	tagLineRe = regexp.MustCompile(`^\s*\{\{[<%].*[>%]\}\}\s*$`)
)

// hasShortcode reports whether s holds a shortcode tag.
func hasShortcode(s string) bool {
	return strings.Contains(s, "{{<") || strings.Contains(s, "{{%")
}

// plain turns a prose block into plain markdown that Hugo and kakehashi
// read alike: a part reference shortcode becomes "#N", lines holding only a
// shortcode tag (a widget, the ends of a callout) are dropped. It reports
// false when nothing plain is left, or when the block still holds a
// shortcode.
func plain(s string) (string, bool) {
	s = partCallRe.ReplaceAllString(s, "#$1")
	if !hasShortcode(s) {
		return s, strings.TrimSpace(s) != ""
	}
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !tagLineRe.MatchString(l) {
			keep = append(keep, l)
		}
	}
	s = strings.Join(keep, "\n")
	return s, strings.TrimSpace(s) != "" && !hasShortcode(s)
}
