package source

import "strings"

// Leftover reports whether name, a file or folder name without its path,
// is what an editor or a merge leaves beside the files it works on, as
// Hugo skips them by default: emacs's autosaves (#index.md#) and locks
// (.#index.md), vim's swap files (.index.md.swp, .swo, .swx), backups
// (index.md~), merge leftovers (index.md.orig) and macOS's .DS_Store.
// It is the one rule for every folder of a site: such files are never
// published, checked or listed, without a warning, and the authoring
// server's watcher does not rebuild for them.
func Leftover(name string) bool {
	switch {
	case name == ".DS_Store",
		len(name) >= 2 && strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"),
		strings.HasPrefix(name, ".#"),
		strings.HasSuffix(name, "~"),
		strings.HasSuffix(name, ".orig"):
		return true
	case strings.HasPrefix(name, "."):
		for _, ext := range []string{".swp", ".swo", ".swx"} {
			if strings.HasSuffix(name, ext) {
				return true
			}
		}
	}
	return false
}
