package build

import (
	"strconv"

	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// hasher is FNV-1a over fields, each followed by a separator so that
// ("ab","c") and ("a","bc") differ. It hashes strings and byte slices in
// place, without copying them.
type hasher struct{ h uint64 }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func newHasher() *hasher { return &hasher{h: fnvOffset} }

func (h *hasher) str(s string) {
	x := h.h
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= fnvPrime
	}
	h.h = (x ^ 0xff) * fnvPrime
}

func (h *hasher) bytes(b []byte) {
	x := h.h
	for _, c := range b {
		x ^= uint64(c)
		x *= fnvPrime
	}
	h.h = (x ^ 0xff) * fnvPrime
}

func (h *hasher) num(n int64) { h.str(strconv.FormatInt(n, 10)) }

func (h *hasher) sum() uint64 { return h.h }

// seriesFingerprint covers everything a "#N" link in a page of series sr
// and language lang can show: the series file and which parts have pages.
func seriesFingerprint(st *site.Site, sr *source.Series, lang string) uint64 {
	h := newHasher()
	h.str(string(sr.Src))
	for _, part := range sr.Parts {
		if q := st.PartPage(lang, sr.ID, part.Number); q != nil {
			h.num(int64(part.Number))
			h.str(q.URL)
		}
	}
	return h.sum()
}

// fingerprint covers every field of a page's template data; the content is
// represented by gen, the identity of its markdown rendering, and the
// series list with the previous and next parts by seriesFP, the series'
// fingerprint (its file and which parts have pages), from which they are
// made together with the page's own part number.
func fingerprint(p *render.Page, gen, seriesFP uint64) uint64 {
	h := newHasher()
	h.num(int64(gen))
	h.str(p.Kind)
	h.str(p.Lang)
	h.str(p.Title)
	h.str(p.Description)
	h.str(p.URL)
	h.str(p.Date.String())
	for _, t := range p.Tags {
		h.str(t)
	}
	h.str("|")
	h.num(int64(p.ReadingMinutes))
	h.num(int64(p.Part))
	site := p.Site
	h.str(site.BaseURL)
	h.str(site.Generator)
	for _, l := range site.Langs {
		h.str(l)
		h.str(site.Title[l])
	}
	if p.Series != nil {
		h.str(p.Series.ID)
		h.num(int64(seriesFP))
	}
	h.str("|")
	for _, t := range p.Translations {
		h.str(t.Lang)
		h.str(t.URL)
		h.str(t.Title)
		h.str(strconv.FormatBool(t.Exists))
	}
	for _, s := range p.Scripts {
		h.str(s)
	}
	return h.sum()
}

// feedFingerprint covers what the sitemap, robots.txt and the Atom feeds
// show of the site: each page's address, kind, title, description, date
// and translations.
func feedFingerprint(site *render.Site, pages []*render.Page) uint64 {
	h := newHasher()
	h.str(site.BaseURL)
	for _, l := range site.Langs {
		h.str(l)
		h.str(site.Title[l])
	}
	for _, p := range pages {
		h.str(p.URL)
		h.str(p.Kind)
		h.str(p.Lang)
		h.str(p.Title)
		h.str(p.Description)
		h.str(p.Date.String())
		for _, t := range p.Translations {
			h.str(t.URL)
			h.str(strconv.FormatBool(t.Exists))
		}
	}
	return h.sum()
}
