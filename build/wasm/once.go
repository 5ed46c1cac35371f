package wasm

import (
	"context"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Once provides the calculators at most once, with Builder.Provide
// (compiled, or embedded in the binary), and remembers the outcome: the
// modules, or the failure as a warning (the widgets then keep their
// build-time results), or the embedded modules with a warning when
// compiling the sources failed. Without a Root it provides nothing. It is safe for
// concurrent use.
type Once struct {
	Root, Cache string // Build's siteRoot and cacheDir
	// Builder provides the modules; the zero value uses the go on PATH
	// and the binary's own sources and embedded modules.
	Builder Builder

	mu   sync.Mutex
	done bool
	mods *Modules
	warn diag.List
}

// Modules compiles on the first call and returns the modules (nil when
// there are none) and the warning of a failed compilation.
func (o *Once) Modules(ctx context.Context) (*Modules, diag.List) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.done && o.Root != "" {
		o.done = true
		m, err := o.Builder.Provide(ctx, o.Root, o.Cache)
		// Not a fault of a file of the site: "(kakehashi)" names the
		// binary.
		switch {
		case err != nil: // it wraps ErrNoCalculators, and says why
			o.warn = diag.List{diag.File("(kakehashi)", "%v", err).AsWarning()}
		case m.CompileErr != nil: // the widgets work, with the binary's modules
			o.mods = &m
			o.warn = diag.List{diag.File("(kakehashi)", "the calculators embedded in this binary are used: %v", m.CompileErr).AsWarning()}
		default:
			o.mods = &m
		}
	}
	return o.mods, o.warn
}

// Compiled returns the modules an earlier Modules call compiled, or nil.
func (o *Once) Compiled() *Modules {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.mods
}
