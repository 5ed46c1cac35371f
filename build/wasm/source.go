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
//  1. compiled from the kakehashi sources that hold the site (the site
//     folder lies inside kakehashi's own Go module, as the bundled course
//     does), when go is on PATH: the sources may be newer than the binary;
//  2. the modules embedded in the binary by go generate (Embedded);
//  3. compiled from the kakehashi sources the binary was built from, when
//     go is on PATH and they are still on disk: the folder the binary was
//     compiled in, or the module cache (go install ...@version);
//
// or else an error wrapping ErrNoCalculators that says why none could be
// compiled. Compiled modules are cached in cacheDir, as Build does.
func (b Builder) Provide(ctx context.Context, siteRoot, cacheDir string) (Modules, error) {
	_, noGo := b.goCommand()
	if root, ok := kakehashiRoot(siteRoot); ok && noGo == nil {
		return b.buildAt(ctx, root, cacheDir)
	}
	embed := b.Embed
	if embed == nil {
		embed = embedded
	}
	if m, ok := embeddedModules(embed); ok {
		return m, nil
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

// kakehashiRoot walks up from dir to the nearest go.mod and reports its
// folder when that module is kakehashi's and holds cmd/calc-wasm.
func kakehashiRoot(dir string) (string, bool) {
	root, err := moduleRoot(dir)
	if err != nil || !isKakehashi(root) {
		return "", false
	}
	return root, true
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
// was built from: the folder this file was compiled in (a go install or
// go build without -trimpath records it), and the module cache's copy of
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
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		add(filepath.Dir(filepath.Dir(filepath.Dir(file))))
	}
	if v := moduleVersion(); v != "" {
		goCmd, err := b.goCommand()
		if err == nil {
			run := b.Run
			if run == nil {
				run = execRun
			}
			if out, err := run(ctx, "", nil, goCmd, "env", "GOMODCACHE"); err == nil {
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
