// Command generate compiles the calculators of cmd/calc-wasm into
// build/wasm/embedded (calc.wasm, calc-x509.wasm, with their sums in
// sums.txt) and copies Go's wasm_exec.js beside them, for the kakehashi binary to embed. It is run
// by go generate in build/wasm, from the kakehashi sources, and shares
// the compiled-module cache of a build of the bundled course
// (.kakehashi-cache/wasm at the repository root). A file whose bytes did
// not change is not rewritten.
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/kakehashi-dev/kakehashi/build/wasm"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "go generate ./build/wasm: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	// go generate runs in the package folder, build/wasm.
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return err
	}
	m, err := wasm.Build(ctx, root, filepath.Join(root, ".kakehashi-cache", "wasm"))
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		wasm.CalcName + ".wasm":     m.Calc,
		wasm.CalcX509Name + ".wasm": m.CalcX509,
		"wasm_exec.js":              m.ExecJS,
		// The modules' SHA-256 sums, which name them in a site, so that a
		// build need not hash 9 MB of modules each time it starts.
		wasm.SumsName: wasm.RecordSums(m.Calc, m.CalcX509),
	} {
		p := filepath.Join(wasm.EmbeddedDir, name)
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, data) {
			continue
		}
		// A dot file, which go:embed leaves out should it stay behind.
		tmp := filepath.Join(wasm.EmbeddedDir, "."+name+".tmp")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, p); err != nil {
			return err
		}
	}
	return nil
}
