// Package wasm builds the calculator WebAssembly modules of cmd/calc-wasm
// for a site: calc.wasm (quorum, sans, verifyHost, haSimulate) and
// calc-x509.wasm (verifyHost with PEM certificates), with Go's
// wasm_exec.js from the same toolchain.
//
// Compiling takes seconds, so the modules are cached in a folder, keyed by
// a hash of the Go version and of every .go file under cmd/calc-wasm and
// the packages of the module it imports: a build with nothing changed
// runs no compiler.
package wasm

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Module file names, as the build writes them under /calc/.
const (
	CalcName     = "calc"
	CalcX509Name = "calc-x509"
)

// Modules are the built calculator modules and Go's JS support file.
type Modules struct {
	Calc     []byte // calc.wasm
	CalcX509 []byte // calc-x509.wasm
	ExecJS   []byte // wasm_exec.js
	// Cached is true when the modules came from the cache.
	Cached bool
	// Embedded is true when the modules are the ones compiled into this
	// binary (Embedded), not compiled for this build.
	Embedded bool
	// CompileErr, with Embedded, says why compiling the sources the site
	// lies in failed, so that the embedded modules were taken instead.
	CompileErr error
	// sums are the modules' SHA-256 sums (hex) by file name, as go
	// generate recorded them for the embedded ones (RecordSums).
	sums map[string]string
	// fsys, when not nil, holds the two modules in its EmbeddedDir
	// folder, of sizes by file name; Calc and CalcX509 are nil: the
	// modules are read only as they are written (File.Open) or asked for
	// (Bytes).
	fsys  fs.FS
	sizes map[string]int64
	// gzips are the modules' gzipped sizes by file name, as go generate
	// or the cache recorded them.
	gzips map[string]int
}

// Available reports whether m holds the two modules.
func (m *Modules) Available() bool {
	return m.fsys != nil || (m.Calc != nil && m.CalcX509 != nil)
}

// Bytes returns the module of the name (CalcName or CalcX509Name), read
// now when m streams it; nil when it cannot be read.
func (m *Modules) Bytes(name string) []byte {
	if m.fsys == nil {
		if name == CalcX509Name {
			return m.CalcX509
		}
		return m.Calc
	}
	b, err := fs.ReadFile(m.fsys, path.Join(EmbeddedDir, name+".wasm"))
	if err != nil {
		return nil
	}
	return b
}

// CalcSize is calc.wasm's size, for the build summary: as go generate or
// the cache recorded it with the modules, else measured when asked (gzip
// takes a third of a second on the modules), so a quiet build never pays
// for it.
func (m *Modules) CalcSize() Size { return m.size(CalcName) }

// CalcX509Size is calc-x509.wasm's size, for the build summary.
func (m *Modules) CalcX509Size() Size { return m.size(CalcX509Name) }

func (m *Modules) size(name string) Size {
	if gz, ok := m.gzips[name+".wasm"]; ok {
		raw := int(m.sizes[name+".wasm"])
		if m.fsys == nil {
			raw = len(m.Bytes(name))
		}
		return Size{Raw: raw, Gzip: gz}
	}
	return SizeOf(m.Bytes(name))
}

// Size is a file's size, raw and gzipped (at gzip's default level, as a
// server compresses it).
type Size struct {
	Raw, Gzip int
}

// String reads "2.38 MB, 692 KB gzipped".
func (s Size) String() string {
	return fmt.Sprintf("%s, %s gzipped", human(s.Raw), human(s.Gzip))
}

func human(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.2f MB", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%d KB", (n+500)/1000)
	}
	return fmt.Sprintf("%d B", n)
}

// SizeOf measures b.
func SizeOf(b []byte) Size {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	zw.Write(b)
	zw.Close()
	return Size{Raw: len(b), Gzip: buf.Len()}
}

// ErrNoGo is returned (wrapped) when no go command is found: the build can
// warn and keep the widgets' build-time results.
var ErrNoGo = errors.New("the go command is not on PATH; the calculator widgets keep their build-time results")

// Runner runs a command in dir with extra environment variables and
// returns its standard output.
type Runner func(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error)

// Builder compiles the modules. The zero value uses the go on PATH.
type Builder struct {
	// Run runs commands; nil runs them with os/exec. Tests count
	// compilations through it.
	Run Runner
	// Go is the go command; "" looks up "go" on PATH.
	Go string
	// Embed holds the embedded modules Provide falls back to, in its
	// EmbeddedDir folder; nil is the binary's own (Embedded).
	Embed fs.FS
	// Sources is the kakehashi source tree the binary was built from,
	// which Provide compiles; "" is the one the binary records
	// (OwnSources).
	Sources string
}

// Build compiles the modules for the site in siteRoot (any folder inside
// the Go module), caching them in cacheDir.
func Build(ctx context.Context, siteRoot, cacheDir string) (Modules, error) {
	return Builder{}.Build(ctx, siteRoot, cacheDir)
}

// buildFlags are the go build flags of both modules. -s -w drop symbols
// and DWARF. -l (no inlining, everywhere) makes the code larger raw but
// smaller gzipped: with Go 1.26, calc.wasm 692 KB → 648 KB gzipped and
// calc-x509.wasm 1.52 MB → 1.43 MB (gzip -9); the calculators do not need
// the speed. They are part of the cache key.
func buildFlags() []string { return []string{"-trimpath", "-ldflags=-s -w", "-gcflags=all=-l"} }

// sources returns the folders, relative to the module root, whose .go
// files make the modules: cmd/calc-wasm and every package of the module
// it imports (TestSourcesCoverImports keeps the list true).
func sources() []string { return []string{"cmd/calc-wasm", "shortcodes/calc", "i18n/particle"} }

// Build compiles the modules; see the package function Build.
func (b Builder) Build(ctx context.Context, siteRoot, cacheDir string) (Modules, error) {
	if _, err := b.goCommand(); err != nil {
		return Modules{}, fmt.Errorf("building calculators: %w", err)
	}
	root, err := moduleRoot(siteRoot)
	if err != nil {
		return Modules{}, err
	}
	return b.buildAt(ctx, root, cacheDir)
}

// buildAt compiles the modules of the Go module in root, caching them in
// cacheDir.
func (b Builder) buildAt(ctx context.Context, root, cacheDir string) (Modules, error) {
	goCmd, err := b.goCommand()
	if err != nil {
		return Modules{}, fmt.Errorf("building calculators: %w", err)
	}
	run := b.Run
	if run == nil {
		run = execRun
	}
	env, err := run(ctx, root, nil, goCmd, "env", "GOVERSION", "GOROOT")
	if err != nil {
		return Modules{}, fmt.Errorf("building calculators: go env: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(env)), "\n")
	if len(lines) < 2 {
		return Modules{}, fmt.Errorf("building calculators: go env printed %q", env)
	}
	version, goroot := strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
	key, err := sourceHash(ctx, root, version)
	if err != nil {
		return Modules{}, err
	}
	execJS, err := readExecJS(goroot)
	if err != nil {
		return Modules{}, err
	}

	dir := filepath.Join(cacheDir, "calc-wasm-"+key)
	m := Modules{ExecJS: execJS}
	if m.Calc, m.CalcX509, err = readCached(dir); err == nil {
		m.Cached = true
		// the sums and gzipped sizes recorded with the entry; an entry of an
		// older kakehashi has none, and is given them now, once
		sizes := map[string]int64{CalcName + ".wasm": int64(len(m.Calc)), CalcX509Name + ".wasm": int64(len(m.CalcX509))}
		b, err := os.ReadFile(filepath.Join(dir, SumsName))
		if err != nil {
			b = RecordSums(m.Calc, m.CalcX509)
			if tmp, err := os.CreateTemp(dir, "."+SumsName+"-"); err == nil {
				_, werr := tmp.Write(b)
				if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, SumsName)) != nil {
					os.Remove(tmp.Name())
				}
			}
		}
		m.sums, m.gzips = readSums(b, sizes)
	} else {
		tmp, err := os.MkdirTemp(cacheDir, ".calc-wasm-")
		if err != nil {
			if err = os.MkdirAll(cacheDir, 0o755); err == nil {
				tmp, err = os.MkdirTemp(cacheDir, ".calc-wasm-")
			}
			if err != nil {
				return Modules{}, fmt.Errorf("building calculators: %w", err)
			}
		}
		defer os.RemoveAll(tmp)
		wasmEnv := []string{"GOOS=js", "GOARCH=wasm"}
		for _, mod := range []struct {
			name string
			tags []string
			out  *[]byte
		}{{CalcName, nil, &m.Calc}, {CalcX509Name, []string{"-tags", "x509"}, &m.CalcX509}} {
			out := filepath.Join(tmp, mod.name+".wasm")
			args := append(append([]string{"build"}, buildFlags()...), mod.tags...)
			args = append(args, "-o", out, "./cmd/calc-wasm")
			if _, err := run(ctx, root, wasmEnv, goCmd, args...); err != nil {
				return Modules{}, fmt.Errorf("building calculators: go %s: %w", strings.Join(args, " "), err)
			}
			if *mod.out, err = os.ReadFile(out); err != nil {
				return Modules{}, fmt.Errorf("building calculators: %w", err)
			}
			if !bytes.HasPrefix(*mod.out, []byte("\x00asm")) {
				return Modules{}, fmt.Errorf("building calculators: %s is not a WebAssembly module", mod.name)
			}
		}
		// The modules' sums and gzipped sizes, for the builds that take
		// them from the cache (the summary's sizes cost half a second).
		sums := RecordSums(m.Calc, m.CalcX509)
		if err := os.WriteFile(filepath.Join(tmp, SumsName), sums, 0o644); err != nil {
			return Modules{}, fmt.Errorf("building calculators: caching: %w", err)
		}
		// Publish the cache entry whole, or not at all.
		if err := os.Rename(tmp, dir); err != nil && !exists(dir) {
			return Modules{}, fmt.Errorf("building calculators: caching: %w", err)
		}
	}
	return m, nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func readCached(dir string) (calc, x509 []byte, err error) {
	if calc, err = os.ReadFile(filepath.Join(dir, CalcName+".wasm")); err != nil {
		return nil, nil, err
	}
	if x509, err = os.ReadFile(filepath.Join(dir, CalcX509Name+".wasm")); err != nil {
		return nil, nil, err
	}
	if !bytes.HasPrefix(calc, []byte("\x00asm")) || !bytes.HasPrefix(x509, []byte("\x00asm")) {
		return nil, nil, errors.New("corrupt cache entry")
	}
	return calc, x509, nil
}

// execRun runs a command with os/exec; its error carries the command's
// standard error.
func execRun(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return out, fmt.Errorf("%w: %s", err, msg)
		}
		return out, err
	}
	return out, nil
}

// moduleRoot walks up from dir to the folder holding go.mod.
func moduleRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if exists(filepath.Join(d, "go.mod")) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("building calculators: no go.mod in %s or above", dir)
		}
		d = parent
	}
}

// sourceHash hashes the Go version and every .go file (path and content)
// under the source folders, in a fixed order.
func sourceHash(ctx context.Context, root, goVersion string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "go %s\nflags %q\n", goVersion, buildFlags())
	var files []string
	for _, s := range sources() {
		err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(s)), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") {
				files = append(files, p)
			}
			return ctx.Err()
		})
		if err != nil {
			return "", fmt.Errorf("building calculators: %w", err)
		}
	}
	sort.Strings(files)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("building calculators: %w", err)
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// readExecJS reads wasm_exec.js from GOROOT: lib/wasm since Go 1.24,
// misc/wasm before.
func readExecJS(goroot string) ([]byte, error) {
	var firstErr error
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		b, err := os.ReadFile(filepath.Join(goroot, filepath.FromSlash(p)))
		if err == nil {
			return b, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, fmt.Errorf("building calculators: wasm_exec.js not found in GOROOT %s: %w", goroot, firstErr)
}

// ScriptModule returns a JavaScript file that defines the module as
// base64 text, for pages opened from file://, where browsers refuse to
// fetch: globalThis.kakehashiWasm[name] = "<base64>". calc.js decodes and
// instantiates it. name is "calc" or "calc-x509".
func ScriptModule(name string, wasm []byte) []byte {
	var b bytes.Buffer
	b.Grow(base64.StdEncoding.EncodedLen(len(wasm)) + 128)
	b.WriteString(`globalThis.kakehashiWasm=globalThis.kakehashiWasm||{};globalThis.kakehashiWasm[`)
	b.WriteString(jsString(name))
	b.WriteString(`]="`)
	b.WriteString(base64.StdEncoding.EncodeToString(wasm))
	b.WriteString("\";\n")
	return b.Bytes()
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x2028 || r == 0x2029 || r == '<':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// File is one file a site publishes for the calculators.
type File struct {
	Path string // site-absolute, as the widgets load it
	// Data is the file's bytes; nil for a module streamed as it is
	// written, from Open, of Size bytes.
	Data []byte
	Size int64
	Open func() (io.ReadCloser, error)
	// Sum is Data's SHA-256 (hex) when it is known without hashing it
	// (the embedded modules'), else "".
	Sum string
}

// Files are what a site publishes for m: the two modules and Go's
// wasm_exec.js, and, for a copy opened from file:// (which refuses fetch),
// each module again as a script carrying its bytes.
func (m *Modules) Files(explicitIndex bool) []File {
	module := func(p, name string) File {
		f := File{Path: p, Sum: m.sums[name+".wasm"]}
		if m.fsys == nil {
			f.Data = m.Bytes(name)
			return f
		}
		file := path.Join(EmbeddedDir, name+".wasm")
		f.Size = m.sizes[name+".wasm"]
		f.Open = func() (io.ReadCloser, error) { return m.fsys.Open(file) }
		return f
	}
	fs := []File{module(shortcodes.CalcWasmPath, CalcName), module(shortcodes.CalcX509WasmPath, CalcX509Name), {Path: shortcodes.WasmExecPath, Data: m.ExecJS}}
	if explicitIndex {
		fs = append(fs, File{Path: shortcodes.CalcWasmPath + ".js", Data: ScriptModule(CalcName, m.Bytes(CalcName))},
			File{Path: shortcodes.CalcX509WasmPath + ".js", Data: ScriptModule(CalcX509Name, m.Bytes(CalcX509Name))})
	}
	return fs
}
