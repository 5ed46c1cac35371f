package source

// The series file's line editor: it adds a published part or publishes a
// planned one by editing the file's lines, keeping every other byte
// (comments, order, quoting) as the author wrote it. "kakehashi new part"
// edits the series file through it.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// PartTitle is a part's title in one language, as InsertPart writes it
// into a series file's entry.
type PartTitle struct {
	Lang, Title string
}

// seriesText is a series file as lines, with the YAML nodes of its parts,
// for edits that keep every other byte of it.
type seriesText struct {
	lines []string // each with its line ending
	nl    string
	parts *yaml.Node // the parts list; nil when "parts:" is empty
	key   *yaml.Node // the "parts" key
}

// readSeriesText splits src into lines and finds its "parts" list.
func readSeriesText(src []byte) (*seriesText, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, err
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("not a series file")
	}
	t := &seriesText{nl: "\n"}
	if bytes.Contains(src, []byte("\r\n")) {
		t.nl = "\r\n"
	}
	for rest := string(src); rest != ""; {
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			t.lines = append(t.lines, rest)
			break
		}
		t.lines = append(t.lines, rest[:i+1])
		rest = rest[i+1:]
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "parts" {
			t.key = m.Content[i]
			if v := m.Content[i+1]; v.Kind == yaml.SequenceNode {
				if v.Style&yaml.FlowStyle != 0 {
					return nil, errors.New(`its "parts" list is written [in brackets]; write it as a block list (one "- number: …" entry a line) to add parts`)
				}
				t.parts = v
			} else if v.Tag != "!!null" {
				return nil, errors.New(`"parts" is not a list`)
			}
		}
	}
	if t.key == nil {
		return nil, errors.New(`it has no "parts"`)
	}
	return t, nil
}

func (t *seriesText) String() string { return strings.Join(t.lines, "") }

// insert puts text before line i (0-based; len(lines) appends).
func (t *seriesText) insert(i int, text []string) {
	if i == len(t.lines) && i > 0 && !strings.HasSuffix(t.lines[i-1], "\n") {
		t.lines[i-1] += t.nl
	}
	t.lines = slices.Insert(t.lines, i, text...)
}

// byteCol is the byte offset in line of the 1-based character column col.
func byteCol(line string, col int) int {
	off := 0
	for n := 1; n < col && off < len(line); n++ {
		_, size := utf8.DecodeRuneInString(line[off:])
		off += size
	}
	return off
}

// indent is the number of leading spaces of a line, or -1 for a line
// that is blank.
func indent(line string) int {
	s := strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(s) == "" {
		return -1
	}
	return len(s) - len(strings.TrimLeft(s, " "))
}

// entryStart is the 0-based line of the "-" of a part entry.
func (t *seriesText) entryStart(pn *yaml.Node) int {
	i := pn.Line - 1
	for i > 0 && !strings.HasPrefix(strings.TrimSpace(t.lines[i][:byteCol(t.lines[i], pn.Column)]), "-") {
		i--
	}
	return i
}

// entryEnd is the 0-based line after the last line of a part entry: the
// lines indented more than its "-".
func (t *seriesText) entryEnd(pn *yaml.Node) int {
	start := t.entryStart(pn)
	dash := indent(t.lines[start])
	end := start + 1
	for i := start + 1; i < len(t.lines); i++ {
		in := indent(t.lines[i])
		if in < 0 {
			continue
		}
		if in <= dash {
			break
		}
		end = i + 1
	}
	return end
}

// partNumber is the number of a part entry, 0 when it has none.
func partNumber(pn *yaml.Node) int {
	for i := 0; i+1 < len(pn.Content); i += 2 {
		if pn.Content[i].Value == "number" {
			n, _ := strconv.Atoi(pn.Content[i+1].Value)
			return n
		}
	}
	return 0
}

// InsertPart returns the series file src with part n added, published
// and titled titles (in their order), before the first part with a larger
// number, or after the last; every other line is kept as written. A
// "parts" list written in brackets is refused: it has no line of its own
// for an entry. The caller checks that src has no part n.
func InsertPart(src []byte, n int, titles []PartTitle) ([]byte, error) {
	t, err := readSeriesText(src)
	if err != nil {
		return nil, err
	}
	at, prefix := -1, "  - "
	if t.parts == nil || len(t.parts.Content) == 0 {
		at = t.key.Line // the line after "parts:"
	} else {
		ref := t.parts.Content[len(t.parts.Content)-1]
		for _, pn := range t.parts.Content {
			if partNumber(pn) > n {
				ref = pn
				at = t.entryStart(pn)
				// The comment lines just above an entry belong to it.
				for at > 0 && strings.HasPrefix(strings.TrimSpace(t.lines[at-1]), "#") && indent(t.lines[at-1]) >= indent(t.lines[at]) {
					at--
				}
				break
			}
		}
		if at < 0 {
			at = t.entryEnd(ref)
		}
		line := t.lines[ref.Line-1]
		prefix = line[:byteCol(line, ref.Column)]
		if strings.TrimSpace(prefix) != "-" {
			prefix = strings.Repeat(" ", indent(t.lines[t.entryStart(ref)])) + "- "
		}
	}
	pad := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	var ts []string
	for _, lt := range titles {
		ts = append(ts, lt.Lang+": "+strconv.Quote(lt.Title)) // Go's escapes are YAML's too
	}
	t.insert(at, []string{
		prefix + "number: " + strconv.Itoa(n) + t.nl,
		pad + "title: { " + strings.Join(ts, ", ") + " }" + t.nl,
		pad + "state: " + Published + t.nl,
	})
	return []byte(t.String()), nil
}

// PublishPart returns the series file src with its part n made
// published: its state's value replaced, or "state: published" added to
// an entry without one (planned by default); its titles and every other
// line are kept as written.
func PublishPart(src []byte, n int) ([]byte, error) {
	t, err := readSeriesText(src)
	if err != nil {
		return nil, err
	}
	if t.parts == nil {
		return nil, fmt.Errorf("it lists no part #%d", n)
	}
	for _, pn := range t.parts.Content {
		if partNumber(pn) != n {
			continue
		}
		for i := 0; i+1 < len(pn.Content); i += 2 {
			if pn.Content[i].Value != "state" {
				continue
			}
			v := pn.Content[i+1]
			line := t.lines[v.Line-1]
			from := byteCol(line, v.Column)
			to := from + len(v.Value)
			if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
				to += 2
			}
			if to > len(line) || !strings.Contains(line[from:to], v.Value) {
				return nil, fmt.Errorf("cannot find the state of part #%d", n)
			}
			t.lines[v.Line-1] = line[:from] + Published + line[to:]
			return []byte(t.String()), nil
		}
		// No state: planned by default; add one after the entry's lines.
		if pn.Style&yaml.FlowStyle != 0 {
			return nil, fmt.Errorf(`part #%d is written {in braces} without a state; add state: published to it by hand`, n)
		}
		keyLine := t.lines[pn.Line-1]
		pad := strings.Repeat(" ", utf8.RuneCountInString(keyLine[:byteCol(keyLine, pn.Column)]))
		t.insert(t.entryEnd(pn), []string{pad + "state: " + Published + t.nl})
		return []byte(t.String()), nil
	}
	return nil, fmt.Errorf("it lists no part #%d", n)
}
