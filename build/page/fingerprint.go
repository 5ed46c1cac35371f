package page

import (
	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// SeriesFingerprint covers everything a "#N" link in a page of series sr
// and language lang can show, and what its series list shows: the series
// file and which parts have pages.
func SeriesFingerprint(st *site.Site, sr *source.Series, lang string) uint64 {
	h := cache.NewHasher()
	h.Bytes(sr.Src) // the same field as Str, without a copy
	// Which parts have pages in every language: a part missing in lang
	// links to the page of another.
	for _, l := range st.Langs {
		h.Str(l)
		for _, q := range st.PartPages(l, sr.ID) {
			h.Num(int64(q.Part))
			h.Str(q.URL)
		}
	}
	return h.Sum()
}

// Fingerprint covers every field of a page's template data, down to what
// they point at (the site, the series list, the translations), by
// reflection (cache.Hasher.Value), so a field added to render.Page counts
// without a line here. The content is represented by gen, the identity of
// its markdown rendering (render.Page.Content is tagged
// `fingerprint:"-"`), and the series by seriesFP, the series'
// fingerprint (its file and which parts have pages).
func Fingerprint(p *render.Page, gen, seriesFP uint64) uint64 {
	return fingerprint(nil, p, gen, seriesFP)
}

// fingerprint is Fingerprint learning the fields of the data's types into
// pl (see cache.Plans).
func fingerprint(pl *cache.Plans, p *render.Page, gen, seriesFP uint64) uint64 {
	h := cache.NewHasher()
	h.Num(int64(gen))
	h.Num(int64(seriesFP))
	h.ValueWith(pl, p)
	return h.Sum()
}

// FeedFingerprint covers what the sitemap, robots.txt and the Atom feeds
// show of the site: the site, and every field of each page's data but
// those tagged `feed:"-"` (or `fingerprint:"-"`), which no feed shows.
// It is a sum of the site's sum and each page's (feedSum), so that
// FeedSums can make it again from the pages' sums of an earlier build.
func FeedFingerprint(site *render.Site, pages []*render.Page) uint64 {
	var pl cache.Plans
	h := cache.NewHasher()
	h.ValueWith(&pl, site)
	return feedFP(h.Sum(), len(pages), func(i int) uint64 { return feedSum(&pl, pages[i]) })
}

// feedFP sums the site's sum and those of n pages.
func feedFP(site uint64, n int, page func(i int) uint64) uint64 {
	h := cache.NewHasher()
	h.Num(int64(site))
	h.Num(int64(n))
	for i := range n {
		h.Num(int64(page(i)))
	}
	return h.Sum()
}

// feedSum is the sum of what the feeds show of the page p.
func feedSum(pl *cache.Plans, p *render.Page) uint64 {
	h := cache.NewHasher()
	h.ValueWith(pl, p, "feed")
	return h.Sum()
}

// FeedSums makes the feeds' fingerprint of one build after another
// (Fingerprint): it keeps each page's sum by the page's fingerprint
// (Assembler.Fingerprint), which covers all the feeds show of it and
// more, so that a page whose data did not change is not walked again.
// The zero value is ready; it is not safe for concurrent use.
type FeedSums struct {
	byFP map[uint64]uint64 // a page's feed sum, by its fingerprint
}

// Fingerprint is FeedFingerprint(a.Site(), pages), taking the sum of each
// page a fingerprinted (every page written) from the last call when its
// fingerprint is the same. It keeps the sums of these pages only.
func (s *FeedSums) Fingerprint(a *Assembler, pages []*render.Page) uint64 {
	var pl cache.Plans
	next := make(map[uint64]uint64, len(pages))
	fp := feedFP(a.siteSum(), len(pages), func(i int) uint64 {
		p := pages[i]
		v, ok := a.fps.Load(p)
		if !ok {
			return feedSum(&pl, p)
		}
		pfp := v.(uint64)
		sum, ok := s.byFP[pfp]
		if !ok {
			sum = feedSum(&pl, p)
		}
		next[pfp] = sum
		return sum
	})
	s.byFP = next
	return fp
}
