package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the test scripts' own commands.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"asset": cmdAsset,
}

// cmdAsset: asset PATH [COPY] checks that the build wrote PATH under its
// content-hashed name (css/main.css as css/main.1a2b3c4d.css), and copies
// it to COPY for grep and cmp; ! asset PATH checks that it wrote no such
// file.
func cmdAsset(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || len(args) > 2 || neg && len(args) > 1 {
		ts.Fatalf("usage: asset PATH [COPY]")
	}
	p := ts.MkAbs(args[0])
	// the hash goes before the whole extension: calc.wasm.js is
	// calc.1a2b3c4d.wasm.js
	stem, ext, _ := strings.Cut(filepath.Base(p), ".")
	ext = "." + ext
	re := regexp.MustCompile(`^` + regexp.QuoteMeta(stem) + `\.[0-9a-f]{8}` + regexp.QuoteMeta(ext) + `$`)
	entries, _ := os.ReadDir(filepath.Dir(p))
	var found []string
	for _, e := range entries {
		if re.MatchString(e.Name()) {
			found = append(found, filepath.Join(filepath.Dir(p), e.Name()))
		}
	}
	switch {
	case neg && len(found) > 0:
		ts.Fatalf("%s written as %s", args[0], found[0])
	case neg:
		return
	case len(found) != 1:
		ts.Fatalf("%s: %d files with a hashed name (%v), want 1", args[0], len(found), found)
	}
	if len(args) == 2 {
		data, err := os.ReadFile(found[0])
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o644))
	}
}
