package wasm

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"fmt"
	"io"
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

// embeddedModules takes the modules from fsys's EmbeddedDir folder, all
// three files or none. When go generate recorded the modules' sums
// (SumsName) for them as they are, they are not read now: they are named
// by those sums and streamed from fsys as they are written (File.Open),
// so that a build whose pages hold no calculator never holds their 9 MB.
func embeddedModules(fsys fs.FS) (Modules, bool) {
	read := func(name string) []byte {
		b, err := fs.ReadFile(fsys, path.Join(EmbeddedDir, name))
		if err != nil {
			return nil
		}
		return b
	}
	names := []string{CalcName + ".wasm", CalcX509Name + ".wasm"}
	sizes := map[string]int64{}
	for _, name := range names {
		size, ok := moduleSize(fsys, path.Join(EmbeddedDir, name))
		if !ok {
			return Modules{}, false
		}
		sizes[name] = size
	}
	m := Modules{ExecJS: read("wasm_exec.js"), Embedded: true}
	if len(m.ExecJS) == 0 {
		return Modules{}, false
	}
	m.sums, m.gzips = readSums(read(SumsName), sizes)
	if len(m.sums) == len(names) {
		m.fsys, m.sizes = fsys, sizes
		return m, true
	}
	m.Calc, m.CalcX509 = read(names[0]), read(names[1])
	if !bytes.HasPrefix(m.Calc, wasmMagic) || !bytes.HasPrefix(m.CalcX509, wasmMagic) {
		return Modules{}, false
	}
	return m, true
}

// wasmMagic begins every WebAssembly module.
var wasmMagic = []byte("\x00asm")

// moduleSize is the size of the module at name in fsys, when it is one
// (it begins with wasmMagic).
func moduleSize(fsys fs.FS, name string) (int64, bool) {
	f, err := fsys.Open(name)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, false
	}
	head := make([]byte, len(wasmMagic))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, wasmMagic) {
		return 0, false
	}
	return info.Size(), true
}

// SumsName is the file of embedded/ in which go generate records the
// modules' SHA-256 sums (RecordSums).
const SumsName = "sums.txt"

// RecordSums is what SumsName holds for the modules calc and x509: a line
// "name size sha256 gzipped-size" for each. The gzipped size is the build
// summary's, which would otherwise compress 9 MB (half a second) on every
// build that prints it.
func RecordSums(calc, x509 []byte) []byte {
	var b strings.Builder
	for _, f := range []struct {
		name string
		data []byte
	}{{CalcName + ".wasm", calc}, {CalcX509Name + ".wasm", x509}} {
		sum := sha256.Sum256(f.data)
		fmt.Fprintf(&b, "%s %d %x %d\n", f.name, len(f.data), sum, SizeOf(f.data).Gzip)
	}
	return []byte(b.String())
}

// readSums reads what RecordSums wrote, keeping the sum and gzipped size
// of a module only when its size is the module's (sizes, by file name): a
// module replaced without go generate is read and hashed again. A line of
// an older go generate, without the gzipped size, gives the sum alone.
func readSums(b []byte, sizes map[string]int64) (sums map[string]string, gzips map[string]int) {
	sums, gzips = map[string]string{}, map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || len(f) > 4 || len(f[2]) != 2*sha256.Size {
			continue
		}
		if size, ok := sizes[f[0]]; ok && strconv.FormatInt(size, 10) == f[1] {
			sums[f[0]] = f[2]
			if len(f) == 4 {
				if n, err := strconv.Atoi(f[3]); err == nil && n > 0 {
					gzips[f[0]] = n
				}
			}
		}
	}
	return sums, gzips
}
