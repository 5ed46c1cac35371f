package wasm

import (
	"bytes"
	"embed"
	"io/fs"
	"path"
)

//go:generate go run ./internal/generate

// embedded holds what go generate wrote into embedded/: calc.wasm,
// calc-x509.wasm and wasm_exec.js, or only its README when generate did
// not run.
//
//go:embed embedded
var embedded embed.FS

// EmbeddedDir is the folder, relative to this package, that go generate
// fills and the binary embeds.
const EmbeddedDir = "embedded"

// Embedded returns the modules compiled into this binary by go generate;
// ok is false when the binary carries none (a plain go install or go
// build without go generate).
func Embedded() (m Modules, ok bool) {
	return embeddedModules(embedded)
}

// embeddedModules reads the modules from fsys's EmbeddedDir folder, all
// three files or none.
func embeddedModules(fsys fs.FS) (Modules, bool) {
	read := func(name string) []byte {
		b, err := fs.ReadFile(fsys, path.Join(EmbeddedDir, name))
		if err != nil {
			return nil
		}
		return b
	}
	m := Modules{Calc: read(CalcName + ".wasm"), CalcX509: read(CalcX509Name + ".wasm"), ExecJS: read("wasm_exec.js"), Embedded: true}
	if !bytes.HasPrefix(m.Calc, []byte("\x00asm")) || !bytes.HasPrefix(m.CalcX509, []byte("\x00asm")) || len(m.ExecJS) == 0 {
		return Modules{}, false
	}
	return m, true
}
