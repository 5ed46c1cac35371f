package source

import (
	"fmt"
	"strings"
	"unicode"
)

// CheckSegment reports why s cannot be one segment of an output path or
// URL, or nil when it can. Every value from content or configuration that
// becomes part of a file name in the output (series ids, file names of
// pages, slugs, and later aliases, tags and image names) passes here: it
// must be one clean segment, with no "." or "..", no "/" or "\", no drive
// letter, and no control characters. The output stage checks the whole
// path again before writing (see output.CheckPath).
func CheckSegment(s string) error {
	switch s {
	case "":
		return fmt.Errorf("it is empty")
	case ".", "..":
		return fmt.Errorf("%q would name a folder above or at the same level", s)
	}
	for _, r := range s {
		switch {
		case r == '/' || r == '\\':
			return fmt.Errorf("%q contains %q: it must be a single name, not a path", s, r)
		case r == unicode.ReplacementChar:
			return fmt.Errorf("%q is not valid UTF-8", s)
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return fmt.Errorf("%q contains the control character %U", s, r)
		}
	}
	if len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') {
		return fmt.Errorf("%q starts with a drive letter", s)
	}
	if strings.TrimSpace(s) != s {
		return fmt.Errorf("%q starts or ends with a space", s)
	}
	return nil
}
