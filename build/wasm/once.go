package wasm

import (
	"context"
	"errors"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Once provides the calculators at most once, with Builder.Provide
// (compiled, or embedded in the binary), and remembers the outcome: the
// modules, or the failure as a warning (the widgets then keep their
// build-time results). Without a Root it provides nothing. It is safe for
// concurrent use.
type Once struct {
	Root, Cache string // Build's siteRoot and cacheDir

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
		m, err := Builder{}.Provide(ctx, o.Root, o.Cache)
		switch {
		case errors.Is(err, ErrNoCalculators):
			// Not a fault of a file: "(kakehashi)" names the binary.
			o.warn = diag.List{diag.File("(kakehashi)", "%v", err).AsWarning()}
		case err != nil:
			o.warn = diag.List{diag.File("cmd/calc-wasm", "the calculators keep their build-time results: %v", err).AsWarning()}
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
