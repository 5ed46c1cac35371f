package translation

import (
	"strings"
)

// Change is what happened to a block of the new text.
type Change int

const (
	Same    Change = iota // in the old text too
	Changed               // in place of an old block that differs
	Added                 // where the old text had nothing
)

// Block is one block of a markdown body: the lines between blank lines,
// a fenced code block whole (blank lines and all).
type Block struct {
	Text string // as written, without the blank lines around it
	Line int    // the 1-based line of the body it starts on
	// Change and Was are set on the blocks of Diff.New: what happened to
	// the block, and for a Changed one the old block it replaces.
	Change Change
	Was    string
}

// Diff is the block-level difference of two markdown bodies.
type Diff struct {
	New     []Block // every block of the new text, in order
	Removed []Block // the old blocks with no counterpart in the new text
}

// Changed reports whether the texts differ in any block.
func (d Diff) Changed() bool {
	if len(d.Removed) > 0 {
		return true
	}
	for _, b := range d.New {
		if b.Change != Same {
			return true
		}
	}
	return false
}

// maxCells bounds the longest-common-subsequence table: past it, the
// blocks between the common beginning and end count as all changed.
const maxCells = 1 << 22

// Blocks compares two markdown bodies block by block: the blocks of each
// are split at blank lines, a fenced code block kept whole, compared as
// Normalize sees them (trailing spaces and line ends do not count), and
// matched by a longest common subsequence. An unmatched new block
// facing an unmatched old one in the same gap is Changed (its Was the
// old text), one beyond them Added; an unmatched old block beyond them
// is Removed.
func Blocks(old, new []byte) Diff {
	a, b := SplitBlocks(string(old)), SplitBlocks(string(new))
	na, nb := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		na[i] = Normalize(a[i].Text)
	}
	for i := range b {
		nb[i] = Normalize(b[i].Text)
	}
	pairs := lcs(na, nb) // matched (i, j), in order
	var d Diff
	i, j := 0, 0
	gap := func(ei, ej int) {
		olds, news := a[i:ei], b[j:ej]
		for k, nbk := range news {
			if k < len(olds) {
				nbk.Change, nbk.Was = Changed, olds[k].Text
			} else {
				nbk.Change = Added
			}
			d.New = append(d.New, nbk)
		}
		if len(olds) > len(news) {
			d.Removed = append(d.Removed, olds[len(news):]...)
		}
	}
	for _, p := range pairs {
		gap(p[0], p[1])
		d.New = append(d.New, b[p[1]])
		i, j = p[0]+1, p[1]+1
	}
	gap(len(a), len(b))
	return d
}

// lcs matches equal strings of a and b in order, as many as it can.
func lcs(a, b []string) [][2]int {
	var head, tail [][2]int
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		head = append(head, [2]int{len(head), len(head)})
		a, b = a[1:], b[1:]
	}
	off := len(head)
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		tail = append(tail, [2]int{off + len(a) - 1, off + len(b) - 1})
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	n, m := len(a), len(b)
	var mid [][2]int
	if n > 0 && m > 0 && n*m <= maxCells {
		// t[i][j]: the longest common subsequence of a[i:] and b[j:].
		t := make([][]int32, n+1)
		for i := range t {
			t[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if a[i] == b[j] {
					t[i][j] = t[i+1][j+1] + 1
				} else {
					t[i][j] = max(t[i+1][j], t[i][j+1])
				}
			}
		}
		for i, j := 0, 0; i < n && j < m; {
			switch {
			case a[i] == b[j]:
				mid = append(mid, [2]int{off + i, off + j})
				i++
				j++
			case t[i+1][j] >= t[i][j+1]:
				i++
			default:
				j++
			}
		}
	}
	out := append(head, mid...)
	for k := len(tail) - 1; k >= 0; k-- {
		out = append(out, tail[k])
	}
	return out
}

// SplitBlocks splits a markdown body into its blocks: runs of non-blank
// lines, a fenced code block (``` or ~~~, up to its closing fence or the
// end) kept whole with the blank lines in it. Line ends are "\n" or
// "\r\n".
func SplitBlocks(body string) []Block {
	var blocks []Block
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	var cur []string
	start := 0
	fence := "" // the open fence's characters, "" outside one
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, Block{Text: strings.Join(cur, "\n"), Line: start + 1})
			cur = nil
		}
	}
	for n, l := range lines {
		if fence != "" {
			cur = append(cur, l)
			if closes(l, fence) {
				fence = ""
				flush()
			}
			continue
		}
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		if f := opens(l); f != "" {
			// A fence starts a block of its own, even without a blank
			// line before it.
			flush()
			fence = f
		}
		if len(cur) == 0 {
			start = n
		}
		cur = append(cur, l)
	}
	flush()
	return blocks
}

// opens is the fence a line opens (its run of ` or ~), or "".
func opens(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 || t[0] == '`' && strings.Contains(t[n:], "`") {
		return ""
	}
	return t[:n]
}

// closes reports whether l closes the fence f: a run of f's character at
// least as long, nothing else but spaces.
func closes(l, f string) bool {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return false
	}
	t = strings.TrimRight(t, " \t")
	return len(t) >= len(f) && strings.Trim(t, f[:1]) == ""
}
