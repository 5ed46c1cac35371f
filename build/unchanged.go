package build

import (
	"context"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// unchanged stamps the site's inputs (cache.StampTree) and, when they and
// the destination's files are exactly as the last build with the same
// cache key left them (cache.Manifest), returns that build's result with
// nothing done, the staging kept from replacing the destination. Else it
// returns the stamps, for finish to leave in the
// manifest; nil stamps when they cannot be taken. The caller holds b.mu.
func (b *Builder) unchanged(ctx context.Context, stage *output.Staging, start time.Time) (stamps, *Result) {
	in, err := cache.StampTree(ctx, b.walked, b.opts.Layout.Watched()...)
	if err != nil {
		return stamps{}, nil
	}
	out, err := stage.Listing()
	if err != nil {
		return stamps{}, nil
	}
	st := stamps{in, out}
	m, ok := cache.ReadManifest(b.cacheFs(), b.opts.CacheDir, b.cacheKey())
	if !ok || !m.Same(in, out) {
		return st, nil
	}
	stage.Keep()
	s := m.Summary
	sum := Summary{Pages: s.Pages, Articles: s.Articles, PartsPublished: s.PartsPublished, PartsPlanned: s.PartsPlanned,
		Files: s.Files, Bytes: s.Bytes, SearchBytes: s.SearchBytes, Overrides: s.Overrides, Warnings: s.Warnings, Elapsed: time.Since(start)}
	return st, &Result{Summary: sum, Langs: b.langs, Unchanged: true}
}

// stamps are the site's inputs and the destination's files as they stood
// when a build began; nil maps when they could not be taken.
type stamps struct{ in, out map[string]cache.Stamp }

// keepManifest leaves for the next build the stamps of its inputs, taken
// before they were read, of the output folder as this build leaves it,
// and its summary. A build that changed nothing (res.Unchanged) keeps the
// destination as it is, unless it holds a file the build did not make,
// which the new output then drops. A build whose calculators were
// compiled from sources outside the site leaves no manifest: their edits
// are not stamped.
func (r *run) keepManifest(s stamps, res *Result) {
	b, st := r.b, r.to.stage
	fs, dir, key := b.cacheFs(), b.opts.CacheDir, b.cacheKey()
	if res.Unchanged && s.out != nil && r.cache.Extra(s.out, output.MarkerName) {
		res.Unchanged = false
	}
	if res.Unchanged {
		st.Keep()
	} else {
		cache.RemoveManifest(fs, dir, key) // the output is about to change
	}
	if s.in == nil || (r.mods != nil && !r.mods.Embedded) {
		return
	}
	sum := res.Summary
	m := &cache.Manifest{In: s.in, Summary: cache.Summary{Pages: sum.Pages, Articles: sum.Articles, PartsPublished: sum.PartsPublished,
		PartsPlanned: sum.PartsPlanned, Files: sum.Files, Bytes: sum.Bytes, SearchBytes: sum.SearchBytes, Overrides: sum.Overrides, Warnings: sum.Warnings}}
	if res.Unchanged && s.out != nil {
		m.Out = s.out // the destination stays as it was stamped
		cache.WriteManifest(fs, dir, key, m)
		return
	}
	st.AfterCommit(func() {
		if out := st.Files(); out != nil {
			m.Out = out
			cache.WriteManifest(fs, dir, key, m)
		}
	})
}
