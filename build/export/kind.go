package export

import (
	"fmt"
	"path"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// The kinds of output an export writes, recorded in its folder with
// output.WithKind: one kind never replaces the other unasked (CheckKind).
const (
	// KindCopy is the offline copy of the whole site.
	KindCopy = "export"
	// KindSingleFile is the single-file course, one document a language.
	KindSingleFile = "export-single-file"
)

// CheckKind reports why the folder out, which output.CheckDest accepted,
// cannot receive an export of kind, as an *output.DestError, or nil: it
// holds another kind of kakehashi's output. A single-file course goes
// only into a folder holding one (or a new or empty folder); an offline
// copy also replaces an output that recorded no kind, a build's site or
// a copy from before kinds were recorded. force accepts any of them.
func CheckKind(fsys afero.Fs, out, kind string, force bool) error {
	if force {
		return nil
	}
	if info, err := fsys.Stat(out); err != nil || !info.IsDir() || !output.IsOutput(fsys, out) {
		return nil // missing, or a folder CheckDest found empty or was forced to accept
	}
	have := output.OutputKind(fsys, out)
	if have == "" && legacySingleFile(fsys, out) {
		have = KindSingleFile
	}
	if have == kind || have == "" && kind == KindCopy {
		return nil
	}
	return &output.DestError{Path: out, Forcible: true,
		Reason: fmt.Sprintf("it holds %s, not %s; pass --force to replace it", describeKind(have), describeKind(kind))}
}

// describeKind names a kind of output for a message.
func describeKind(kind string) string {
	switch kind {
	case KindCopy:
		return "an offline copy of the site (kakehashi export)"
	case KindSingleFile:
		return "a single-file course (kakehashi export --single-file)"
	case "":
		return "a site kakehashi built"
	}
	return fmt.Sprintf("kakehashi output of the kind %q", kind)
}

// legacySingleFile recognises a single-file course written before kinds
// were recorded: an output folder holding only course-*.html files.
func legacySingleFile(fsys afero.Fs, dir string) bool {
	entries, err := afero.ReadDir(fsys, dir)
	if err != nil {
		return false
	}
	n := 0
	for _, e := range entries {
		switch name := e.Name(); {
		case name == output.MarkerName:
		case e.Mode().IsRegular() && strings.HasPrefix(name, "course-") && path.Ext(name) == ".html":
			n++
		default:
			return false
		}
	}
	return n > 0
}
