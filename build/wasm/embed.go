package wasm

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
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
	m.sums = readSums(read(SumsName), &m)
	return m, true
}

// SumsName is the file of embedded/ in which go generate records the
// modules' SHA-256 sums (RecordSums).
const SumsName = "sums.txt"

// RecordSums is what SumsName holds for the modules calc and x509: a line
// "name size sha256" for each.
func RecordSums(calc, x509 []byte) []byte {
	var b strings.Builder
	for _, f := range []struct {
		name string
		data []byte
	}{{CalcName + ".wasm", calc}, {CalcX509Name + ".wasm", x509}} {
		sum := sha256.Sum256(f.data)
		fmt.Fprintf(&b, "%s %d %x\n", f.name, len(f.data), sum)
	}
	return []byte(b.String())
}

// readSums reads what RecordSums wrote, keeping the sum of a module of m
// only when its size is the module's: a module replaced without go
// generate is hashed again (Modules.Files).
func readSums(b []byte, m *Modules) map[string]string {
	sizes := map[string]int{CalcName + ".wasm": len(m.Calc), CalcX509Name + ".wasm": len(m.CalcX509)}
	sums := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || len(f[2]) != 2*sha256.Size {
			continue
		}
		if size, ok := sizes[f[0]]; ok && strconv.Itoa(size) == f[1] {
			sums[f[0]] = f[2]
		}
	}
	return sums
}
