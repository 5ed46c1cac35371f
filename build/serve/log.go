package serve

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// logWarnings prints the warnings not printed before (a rebuild repeats
// none of the last build's), at most maxPerCode of one kind, the rest
// counted.
func (s *Server) logWarnings(ws diag.List) {
	now := map[string]bool{}
	shown := map[string]int{}
	for _, w := range ws {
		line := s.rel(w).String()
		if now[line] = true; s.warned[line] {
			continue
		}
		if shown[w.Code]++; w.Code != "" && shown[w.Code] > maxPerCode {
			continue
		}
		fmt.Fprintln(s.opts.Log, line)
	}
	for _, code := range slices.Sorted(maps.Keys(shown)) {
		if n := shown[code] - maxPerCode; code != "" && n > 0 {
			fmt.Fprintf(s.opts.Log, "... and %d more warnings of this kind (%s); kakehashi check lists every one\n", n, code)
		}
	}
	s.warned = now
}

// maxPerCode is how many new warnings of one kind (their code) a build
// prints.
const maxPerCode = 10

func (s *Server) logErrors(errs diag.List) {
	for _, d := range errs {
		fmt.Fprintln(s.opts.Log, s.rel(d).String())
	}
	plural := "s"
	if len(errs) == 1 {
		plural = ""
	}
	fmt.Fprintf(s.opts.Log, "build failed: %d error%s; still serving the last good build\n", len(errs), plural)
}

// rel prefixes a diagnostic's path with the site folder, so the terminal
// shows a path valid from where the server was started.
func (s *Server) rel(d diag.Diagnostic) diag.Diagnostic {
	if d.Path != "" && s.opts.Root != "." && !filepath.IsAbs(d.Path) {
		d.Path = filepath.ToSlash(filepath.Join(s.opts.Root, d.Path))
	}
	return d
}
