package source

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Part states in a series file.
const (
	Published = "published"
	Planned   = "planned"
)

// Series is a series file: a course's parts, their titles in each
// language, and whether each is published or planned.
type Series struct {
	Path        string
	Src         []byte
	ID          string
	Title       map[string]string
	Description map[string]string
	Parts       []SeriesPart // sorted by Number
}

// SeriesPart is one part listed in a series file.
type SeriesPart struct {
	Number int
	Title  map[string]string
	State  string
	Off    int // byte offset of the part's entry, for messages
}

// Part returns part n, if the series lists it.
func (s *Series) Part(n int) (SeriesPart, bool) {
	i := sort.Search(len(s.Parts), func(i int) bool { return s.Parts[i].Number >= n })
	if i < len(s.Parts) && s.Parts[i].Number == n {
		return s.Parts[i], true
	}
	return SeriesPart{}, false
}

// Numbers lists the part numbers, for messages.
func (s *Series) Numbers() string {
	var b []string
	for _, p := range s.Parts {
		b = append(b, "#"+strconv.Itoa(p.Number))
	}
	return strings.Join(b, ", ")
}

// ParseSeries decodes a series file, checking every field's type and
// reporting every problem with its position; with errors, the series is
// nil.
func ParseSeries(p string, src []byte) (*Series, diag.List) {
	s, diags := parseSeries(p, src)
	if len(diags.Errors()) > 0 {
		return nil, diags
	}
	return s, diags
}

// parseSeries is ParseSeries, but that with errors the series is what
// could be read of it (nil without an id or parts): its parts with a
// number, each state as written, for a build that goes on to check the
// pages of the series (Loader).
func parseSeries(p string, src []byte) (*Series, diag.List) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, diag.List{yamlError(p, src, src, 0, nil, "series file", err)}
	}
	at := func(n *yaml.Node, format string, args ...any) diag.Diagnostic {
		return diag.At(p, src, yamlOffset(src, 0, n.Line, n.Column), format, args...)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		off := 0
		if len(root.Content) > 0 {
			off = yamlOffset(src, 0, root.Content[0].Line, root.Content[0].Column)
		}
		return nil, diag.List{diag.At(p, src, off, "a series file must be a mapping with id, title and parts")}
	}
	s := &Series{Path: p, Src: src}
	var diags diag.List
	m := root.Content[0]
	var partsNode *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch k.Value {
		case "id":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Value == "" {
				diags = append(diags, at(v, "series field \"id\" must be a non-empty string"))
				continue
			}
			// The id names the series' folder in the output and its URL
			// (/ja/<id>/): one clean segment, or the series would be
			// written elsewhere.
			if err := CheckSegment(v.Value); err != nil {
				diags = append(diags, at(v, "series field \"id\" cannot be used as a folder name: %v", err))
				continue
			}
			s.ID = v.Value
		case "title":
			s.Title = langMap(v, `series field "title"`, at, &diags)
		case "description":
			s.Description = langMap(v, `series field "description"`, at, &diags)
		case "parts":
			partsNode = v
		default:
			diags = append(diags, at(k, "unknown series field %q (expected id, title, description, parts)", k.Value))
		}
	}
	if s.ID == "" && !hasErrorAbout(diags, "\"id\"") {
		diags = append(diags, diag.At(p, src, 0, "series file has no \"id\""))
	}
	if partsNode == nil {
		diags = append(diags, diag.At(p, src, 0, "series file has no \"parts\""))
		return nil, diags
	}
	if partsNode.Kind != yaml.SequenceNode {
		diags = append(diags, at(partsNode, "series field \"parts\" must be a list"))
		return nil, diags
	}
	s.Parts = parseParts(partsNode, src, at, &diags)
	sort.Slice(s.Parts, func(i, j int) bool { return s.Parts[i].Number < s.Parts[j].Number })
	if s.ID == "" {
		return nil, diags
	}
	return s, diags
}

// parseParts decodes the list of parts, in the order written.
func parseParts(partsNode *yaml.Node, src []byte, at func(*yaml.Node, string, ...any) diag.Diagnostic, diags *diag.List) []SeriesPart {
	var parts []SeriesPart
	seen := map[int]bool{}
	for _, pn := range partsNode.Content {
		if pn.Kind != yaml.MappingNode {
			*diags = append(*diags, at(pn, "each part must be a mapping with number, title and state"))
			continue
		}
		part := SeriesPart{Off: yamlOffset(src, 0, pn.Line, pn.Column)}
		if !parsePart(pn, &part, seen, at, diags) {
			*diags = append(*diags, at(pn, "part has no \"number\""))
			continue
		}
		if part.State == "" {
			part.State = Planned
		}
		parts = append(parts, part)
	}
	return parts
}

// parsePart decodes the fields of one part into part, noting its number
// in seen; it reports whether the part has a number.
func parsePart(pn *yaml.Node, part *SeriesPart, seen map[int]bool, at func(*yaml.Node, string, ...any) diag.Diagnostic, diags *diag.List) (hasNumber bool) {
	for i := 0; i+1 < len(pn.Content); i += 2 {
		k, v := pn.Content[i], pn.Content[i+1]
		switch k.Value {
		case "number":
			n, err := strconv.Atoi(v.Value)
			if v.Tag != "!!int" || err != nil || n < 1 {
				*diags = append(*diags, at(v, "part \"number\" must be a positive whole number, got %q", v.Value))
				continue
			}
			if seen[n] {
				*diags = append(*diags, at(v, "part #%d is listed twice", n))
			}
			seen[n] = true
			part.Number, hasNumber = n, true
		case "title":
			part.Title = langMap(v, `part "title"`, at, diags)
		case "state":
			if v.Value != Published && v.Value != Planned {
				*diags = append(*diags, at(v, "part \"state\" must be %q or %q, got %q", Published, Planned, v.Value))
			}
			part.State = v.Value // as written, for parseSeries
		default:
			*diags = append(*diags, at(k, "unknown part field %q (expected number, title, state)", k.Value))
		}
	}
	return hasNumber
}

func hasErrorAbout(l diag.List, s string) bool {
	for _, d := range l {
		if strings.Contains(d.Msg, s) {
			return true
		}
	}
	return false
}

// langMap decodes {ja: "...", ko: "..."}; name is how messages call the
// field (`series field "title"`, `part "title"`).
func langMap(v *yaml.Node, name string, at func(*yaml.Node, string, ...any) diag.Diagnostic, diags *diag.List) map[string]string {
	if v.Kind != yaml.MappingNode {
		*diags = append(*diags, at(v, "%s must map each language to a string, like {ja: \"…\", ko: \"…\"}", name))
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if val.Kind != yaml.ScalarNode || val.Tag != "!!str" {
			*diags = append(*diags, at(val, "%s: %s must be a string", name, k.Value))
			continue
		}
		out[k.Value] = val.Value
	}
	return out
}

// String is for debugging.
func (s *Series) String() string { return fmt.Sprintf("series %s (%s)", s.ID, s.Numbers()) }
