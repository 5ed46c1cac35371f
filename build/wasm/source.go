package wasm

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// ModulePath is kakehashi's Go module, whose sources hold cmd/calc-wasm.
const ModulePath = "github.com/kakehashi-dev/kakehashi"

// ErrNoCalculators is returned (wrapped) by Provide when the binary
// carries no compiled calculators and they cannot be compiled either.
var ErrNoCalculators = errors.New("this kakehashi binary carries no calculators (built without go generate)")

// noCalculators says why the calculators are missing and how to get a
// binary that carries them.
func noCalculators(reason string) error {
	return fmt.Errorf("%w, and %s: the widgets keep their build-time results; "+
		"`make install` in the kakehashi sources installs a binary that carries them", ErrNoCalculators, reason)
}

// Provide returns the calculator modules for the site in siteRoot, the
// first of:
//
//  1. compiled from the kakehashi sources this binary was built from
//     (Builder.Sources), when the site lies inside them and go is on PATH:
//     the sources may be newer than the binary, as they are when the
//     repository's make serve runs kakehashi with go run. Only the folder
//     the binary itself records counts: a go.mod of the site's, whatever
//     module it names, never makes a build run go;
//  2. the modules embedded in the binary by go generate (Embedded), also
//     when compiling them in 1 failed (CompileErr says why);
//  3. compiled from the kakehashi sources the binary was built from, when
//     nothing is embedded, go is on PATH and they are still on disk: the
//     folder the binary was compiled in, or the module cache (go install
//     ...@version);
//
// or else an error wrapping ErrNoCalculators that says why none could be
// compiled. Compiled modules are cached in cacheDir, as Build does.
func (b Builder) Provide(ctx context.Context, siteRoot, cacheDir string) (Modules, error) {
	_, noGo := b.goCommand()
	own, hasOwn := b.ownSources()
	var compileErr error
	if hasOwn && noGo == nil && within(own, siteRoot) {
		m, err := b.buildAt(ctx, own, cacheDir)
		if err == nil {
			return m, nil
		}
		compileErr = fmt.Errorf("compiling them from the kakehashi sources in %s failed: %w", own, err)
	}
	embed := b.Embed
	if embed == nil {
		embed = embedded
	}
	if m, ok := embeddedModules(embed); ok {
		m.CompileErr = compileErr
		return m, nil
	}
	if compileErr != nil {
		return Modules{}, noCalculators(compileErr.Error())
	}
	if noGo != nil {
		return Modules{}, noCalculators("there is no go command on PATH to compile them")
	}
	var errs []string
	for _, root := range b.sourceRoots(ctx) {
		m, err := b.buildAt(ctx, root, cacheDir)
		if err == nil {
			return m, nil
		}
		errs = append(errs, err.Error())
	}
	if len(errs) == 0 {
		return Modules{}, noCalculators("no kakehashi sources were found to compile them from")
	}
	return Modules{}, noCalculators("compiling them failed (" + strings.Join(errs, "; ") + ")")
}

// ownSources is the kakehashi source tree this binary was built from:
// Builder.Sources when set, else the folder the binary recorded when it
// was compiled (OwnSources).
func (b Builder) ownSources() (string, bool) {
	if b.Sources != "" {
		return b.Sources, isKakehashi(b.Sources)
	}
	return OwnSources()
}

// OwnSources is the kakehashi source tree this binary was compiled from,
// as the binary itself records it, never as found from a site: the
// binary's main module is kakehashi's, it was compiled without -trimpath
// (so the path of this file in the binary is the absolute path it was
// compiled at), and that folder still holds kakehashi's go.mod and
// cmd/calc-wasm. A binary built with go run, go build or go install in a
// clone has one; a -trimpath build has none.
func OwnSources() (string, bool) {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path != ModulePath {
		return "", false
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false
	}
	file = filepath.FromSlash(file)
	if !filepath.IsAbs(file) {
		return "", false
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file))) // build/wasm/source.go
	if !isKakehashi(root) {
		return "", false
	}
	return root, true
}

// within reports whether dir is root or lies inside it, symbolic links
// resolved.
func within(root, dir string) bool {
	resolve := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		return p
	}
	rel, err := filepath.Rel(resolve(root), resolve(dir))
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// goCommand is the go command to run, or ErrNoGo.
func (b Builder) goCommand() (string, error) {
	if b.Go != "" {
		return b.Go, nil
	}
	p, err := exec.LookPath("go")
	if err != nil {
		return "", ErrNoGo
	}
	return p, nil
}

// isKakehashi tells whether root holds kakehashi's go.mod and the
// calculators' entry.
func isKakehashi(root string) bool {
	if !exists(filepath.Join(root, "cmd", "calc-wasm")) {
		return false
	}
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`) == ModulePath
		}
	}
	return false
}

// sourceRoots lists the kakehashi source trees on disk that this binary
// was built from: its own (ownSources), and the module cache's copy of
// the version in the binary's build information.
func (b Builder) sourceRoots(ctx context.Context) []string {
	var roots []string
	add := func(root string) {
		for _, r := range roots {
			if r == root {
				return
			}
		}
		if isKakehashi(root) {
			roots = append(roots, root)
		}
	}
	if root, ok := b.ownSources(); ok {
		add(root)
	}
	if v := moduleVersion(); v != "" {
		goCmd, err := b.goCommand()
		if err == nil {
			run := b.Run
			if run == nil {
				run = execRun
			}
			// Modules off and the local toolchain: a go.mod in the
			// current folder (a site's) is not read, and cannot make go
			// switch to another toolchain.
			if out, err := run(ctx, "", []string{"GO111MODULE=off", "GOTOOLCHAIN=local"}, goCmd, "env", "GOMODCACHE"); err == nil {
				if cache := strings.TrimSpace(string(out)); cache != "" {
					add(filepath.Join(cache, filepath.FromSlash(escapePath(ModulePath)+"@"+v)))
				}
			}
		}
	}
	return roots
}

// moduleVersion is the version of kakehashi's module in this binary's
// build information, or "" for a build from a work tree.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	mods := append([]*debug.Module{&info.Main}, info.Deps...)
	for _, m := range mods {
		if m.Path == ModulePath && m.Version != "" && m.Version != "(devel)" {
			return m.Version
		}
	}
	return ""
}

// escapePath escapes a module path as the module cache does: each
// upper-case letter becomes '!' and its lower case.
func escapePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
