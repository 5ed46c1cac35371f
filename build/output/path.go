package output

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckPath reports why p cannot be the path of a file of the output, or
// nil when it can. An output path is relative and slash-separated
// ("ja/cka/05-ha-cluster/index.html"); each of its segments is a name: not
// empty, not "." or "..", without "\", control characters or a drive
// letter. Whatever made the path, a path CheckPath accepts stays inside the
// folder it is written to.
func CheckPath(p string) error {
	why := checkPath(p)
	if why == "" {
		return nil
	}
	return fmt.Errorf("output path %q %s", p, why)
}

func checkPath(p string) string {
	switch {
	case p == "":
		return "is empty"
	case !utf8.ValidString(p):
		return "is not valid UTF-8"
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "":
		return "is absolute"
	}
	for _, r := range p {
		switch {
		case r == '\\':
			return `contains "\": output paths are separated by "/"`
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return fmt.Sprintf("contains the control character %U", r)
		}
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch {
		case seg == "":
			return "has an empty segment"
		case seg == "." || seg == "..":
			return fmt.Sprintf("has a %q segment", seg)
		case len(seg) >= 2 && seg[1] == ':' && (seg[0]|0x20 >= 'a' && seg[0]|0x20 <= 'z'):
			return fmt.Sprintf("has a segment starting with a drive letter, %q", seg)
		}
	}
	return ""
}

// within returns where the output path p lands under root on the
// operating system, refusing a path CheckPath refuses and, in case the
// platform reads a path differently, a result that is not strictly inside
// root.
func within(root, p string) (string, error) {
	if err := CheckPath(p); err != nil {
		return "", err
	}
	full := filepath.Join(root, filepath.FromSlash(p))
	if !strictlyInside(filepath.Clean(root), full) {
		return "", fmt.Errorf("output path %q would land outside %s", p, root)
	}
	return full, nil
}

// strictlyInside reports whether the clean path p lies below the clean
// path root, lexically.
func strictlyInside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
