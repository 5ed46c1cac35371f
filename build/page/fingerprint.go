package page

import (
	"strconv"

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
	h.Str(string(sr.Src))
	// Which parts have pages in every language: a part missing in lang
	// links to the page of another.
	for _, l := range st.Langs {
		h.Str(l)
		for _, part := range sr.Parts {
			if q := st.PartPage(l, sr.ID, part.Number); q != nil {
				h.Num(int64(part.Number))
				h.Str(q.URL)
			}
		}
	}
	return h.Sum()
}

// Fingerprint covers every field of a page's template data; the content is
// represented by gen, the identity of its markdown rendering, and the
// series list with the previous and next parts by seriesFP, the series'
// fingerprint (its file and which parts have pages), from which they are
// made together with the page's own part number.
func Fingerprint(p *render.Page, gen, seriesFP uint64) uint64 {
	h := cache.NewHasher()
	h.Num(int64(gen))
	h.Str(string(p.Kind))
	h.Str(p.Lang)
	h.Str(p.Title)
	h.Str(p.Description)
	h.Str(p.URL)
	h.Str(p.Date.String())
	h.Str(p.Summary)
	h.Str(p.Lastmod.String())
	for _, t := range p.Tags {
		h.Str(t)
	}
	h.Str("|")
	hashTags(h, p.TagLinks)
	hashTags(h, p.AllTags)
	if p.Tag != nil {
		hashTags(h, []render.TagRef{*p.Tag})
	}
	for _, r := range p.Articles {
		h.Str(r.Title)
		h.Str(r.URL)
		h.Str(r.Summary)
		h.Str(r.Date.String())
		h.Str(r.Series)
		h.Num(int64(r.Part))
	}
	h.Str("|")
	for _, sr := range p.AllSeries {
		hashSeries(h, sr)
	}
	h.Str("|")
	h.Num(int64(p.ReadingMinutes))
	h.Num(int64(p.Part))
	site := p.Site
	h.Str(site.BaseURL)
	h.Str(site.Generator)
	for _, l := range site.Langs {
		h.Str(l)
		h.Str(site.Title[l])
	}
	if p.Series != nil {
		h.Str(p.Series.ID)
		h.Num(int64(seriesFP))
	}
	h.Str("|")
	for _, t := range p.Translations {
		h.Str(t.Lang)
		h.Str(t.URL)
		h.Str(t.Title)
		h.Str(strconv.FormatBool(t.Exists))
		h.Str(strconv.FormatBool(t.Missing))
		h.Str(t.Anchors)
	}
	h.Str(p.TranslationState)
	if o := p.Original; o != nil {
		h.Str(o.Lang)
		h.Str(o.URL)
		h.Str(o.Title)
	}
	h.Str(p.TranslatedOn.String())
	for _, s := range p.Scripts {
		h.Str(s)
	}
	return h.Sum()
}

// hashTags adds tag references to h.
func hashTags(h *cache.Hasher, tags []render.TagRef) {
	for _, t := range tags {
		h.Str(t.Name)
		h.Str(t.URL)
		h.Num(int64(t.Count))
	}
	h.Str("|")
}

// hashSeries adds everything a series list shows to h.
func hashSeries(h *cache.Hasher, sr *render.Series) {
	h.Str(sr.ID)
	h.Str(sr.Title)
	h.Str(sr.Description)
	h.Str(sr.URL)
	h.Num(int64(sr.Published))
	h.Num(int64(sr.Total))
	for _, r := range sr.Parts {
		h.Num(int64(r.Number))
		h.Str(r.Title)
		h.Str(r.URL)
		h.Str(strconv.FormatBool(r.Published))
		h.Str(strconv.FormatBool(r.Current))
		h.Str(strconv.FormatBool(r.Gap))
		h.Str(r.OriginalLang)
	}
	h.Str("|")
}

// FeedFingerprint covers what the sitemap, robots.txt and the Atom feeds
// show of the site: each page's address, kind, title, description,
// summary, dates, tags and translations.
func FeedFingerprint(site *render.Site, pages []*render.Page) uint64 {
	h := cache.NewHasher()
	h.Str(site.BaseURL)
	for _, l := range site.Langs {
		h.Str(l)
		h.Str(site.Title[l])
	}
	for _, p := range pages {
		h.Str(p.URL)
		h.Str(string(p.Kind))
		h.Str(p.Lang)
		h.Str(p.Title)
		h.Str(p.Description)
		h.Str(p.Summary)
		h.Str(p.Date.String())
		h.Str(p.Lastmod.String())
		for _, t := range p.Tags {
			h.Str(t)
		}
		for _, t := range p.Translations {
			h.Str(t.URL)
			h.Str(strconv.FormatBool(t.Exists))
		}
	}
	return h.Sum()
}
