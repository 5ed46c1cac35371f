package build

import (
	"io"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

// prepareAssets names the theme's files and the calculators' modules by
// their hashes (render.PrepareAssets) before the pages that link them are
// rendered.
func (r *run) prepareAssets() {
	// The static files published as they are are streamed by
	// writeAssets; the others are minified and named here.
	r.published = r.b.between.assets.Prepare(r.b.minify, r.made, r.b.hl.CSS(), r.mods, r.b.opts.ExplicitIndex)
	r.asm.Site().Assets = r.published.Assets
	r.assetsFP = r.published.Assets.Digest()
}

// pageFP is a page's fingerprint with the names of the assets its
// layout links.
func (r *run) pageFP(fp uint64) uint64 {
	h := cache.NewHasher()
	h.Num(int64(fp))
	h.Num(int64(r.assetsFP))
	return h.Sum()
}

// writeAssets writes the files prepareAssets made; the calculators'
// modules only when a page holds a calculator. The static files published
// as they are and the files of the page folders are streamed from the
// site (cache.Writer.Copy), never held in memory.
func (r *run) writeAssets(pages []*render.Page) error {
	for _, f := range r.published.Written(r.b.cfg.Calculators && render.UsesCalc(pages)) {
		if !f.Copied() {
			r.w.PutFile(f.Path, f.Data)
		} else if err := r.w.Copy(r.ctx, f.Path, f.Source, f.Size, f.ModTime, f.Open); err != nil {
			return interrupted(r.ctx, err)
		}
	}
	for _, f := range r.copied {
		if err := r.w.Copy(r.ctx, f.Path, f.Source, f.Size, f.ModTime, f.Open); err != nil {
			return interrupted(r.ctx, err)
		}
	}
	for _, f := range r.st.Files {
		open := func() (io.ReadCloser, error) { return r.b.in.Open(f.Source.Path) }
		if err := r.w.Copy(r.ctx, f.OutPath(), f.Source.Path, f.Source.Size, f.Source.ModTime, open); err != nil {
			return interrupted(r.ctx, err)
		}
	}
	return nil
}

// writeAliases writes a redirect page at each alias of a page, to that
// page; pages are the template data in the site's order.
func (r *run) writeAliases(pages []*render.Page) {
	for _, f := range render.Aliases(r.asm.Site(), r.st, pages) {
		r.w.PutFile(f.Path, f.Data)
	}
}

// writeFeeds writes the sitemap, robots.txt and a feed per language, made
// again only when what they show changed (page.FeedFingerprint, by
// page.FeedSums), and taken from the previous output when the last
// build made them of the same (cache.Writer.PutMadeSet).
func (r *run) writeFeeds(pages []*render.Page) {
	fp := r.b.between.feeds.Fingerprint(r.asm, pages)
	r.w.PutMadeSet("feeds", fp, func() map[string][]byte {
		return r.b.memo.Feeds.GetOrMake("", fp, func() map[string][]byte { return render.Feeds(r.asm.Site(), pages) })
	})
}

// writeSearch writes each language's search index (page.SearchWriter).
// It returns the bytes of each index (none when lazy).
func (r *run) writeSearch(pages []*render.Page, mds []*page.Rendering) map[string]int {
	w := &page.SearchWriter{Ctx: r.ctx, W: r.w, Sink: r.sink, Memo: &r.b.memo, Feed: r.feed, Disk: r.cache, Renderer: r.mdr,
		Langs: r.asm.Site().Langs, Options: search.Options{ExplicitIndex: r.b.opts.ExplicitIndex}, Lazy: r.b.opts.LazySearch, Keep: r.retain, Early: r.early, Headings: r.headings()}
	return w.Write(pages, mds)
}
