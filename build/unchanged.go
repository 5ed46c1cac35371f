package build

import (
	"context"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// unchanged returns the result of the last build with the same cache key
// when the site's inputs and the destination's files are exactly as it
// left them (cache.Dir.Unchanged), with nothing done; else nil, and the
// stamps for finish to leave in the manifest. The caller holds b.mu.
func (b *Builder) unchanged(ctx context.Context, stage *output.Staging, start time.Time) (cache.Stamps, *Result) {
	st, m := b.disk.Unchanged(ctx, b.walked, b.opts.Layout.Watched(), stage, b.cacheKey())
	if m == nil {
		return st, nil
	}
	s := m.Summary
	sum := Summary{Pages: s.Pages, Articles: s.Articles, PartsPublished: s.PartsPublished, PartsPlanned: s.PartsPlanned,
		Files: s.Files, Bytes: s.Bytes, SearchBytes: s.SearchBytes, Overrides: s.Overrides, Warnings: s.Warnings, Elapsed: time.Since(start)}
	return st, &Result{Summary: sum, Langs: b.langs, Unchanged: true}
}

// keepManifest leaves the build's stamps and summary for the next build
// (cache.Dir.KeepManifest), which may find that this one changed nothing.
func (r *run) keepManifest(res *Result) {
	sum := res.Summary
	res.Unchanged = r.b.disk.KeepManifest(r.b.cacheKey(), r.stamps, r.cache, r.to.stage, res.Unchanged,
		cache.Summary{Pages: sum.Pages, Articles: sum.Articles, PartsPublished: sum.PartsPublished, PartsPlanned: sum.PartsPlanned,
			Files: sum.Files, Bytes: sum.Bytes, SearchBytes: sum.SearchBytes, Overrides: sum.Overrides, Warnings: sum.Warnings},
		r.mods != nil && !r.mods.Embedded)
}
