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
	now := make(map[printed]bool, len(ws))
	shown := map[string]int{}
	for _, w := range ws {
		k := printedAs(w)
		if now[k] = true; s.warned[k] {
			continue
		}
		if shown[w.Code]++; w.Code != "" && shown[w.Code] > maxPerCode {
			continue
		}
		fmt.Fprintln(s.opts.Log, s.rel(w).String())
	}
	for _, code := range slices.Sorted(maps.Keys(shown)) {
		if n := shown[code] - maxPerCode; code != "" && n > 0 {
			fmt.Fprintf(s.opts.Log, "... and %d more warnings of this kind (%s); kakehashi check lists every one\n", n, code)
		}
	}
	s.warned = now
}

// printed is what a diagnostic's String shows of it: two diagnostics
// with the same print the same.
type printed struct {
	path, msg, source string
	line, col         int
	severity          diag.Severity
}

func printedAs(d diag.Diagnostic) printed {
	k := printed{path: d.Path, msg: d.Msg, line: d.Line, severity: d.Severity}
	if d.Line > 0 {
		k.col, k.source = d.Col, d.Source
	}
	return k
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
