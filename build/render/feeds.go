package render

import (
	"bytes"
	"encoding/xml"
	"sort"
	"time"
)

// inSitemap tells which page kinds are listed in the sitemap: the root page
// only redirects and the 404 page is not content.
func inSitemap(kind Kind) bool {
	return kind == KindArticle || kind == KindHome || kind == KindSeries || kind == KindTags || kind == KindTag || kind == KindGlossary
}

// updated is when p last changed: its lastmod, else its date.
func updated(p *Page) time.Time {
	if !p.Lastmod.IsZero() {
		return p.Lastmod
	}
	return p.Date
}

// summary is what stands for p in a feed: its summary, else its
// description.
func summary(p *Page) string {
	if p.Summary != "" {
		return p.Summary
	}
	return p.Description
}

type sitemapURLSet struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	XHTML   string       `xml:"xmlns:xhtml,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc     string        `xml:"loc"`
	LastMod string        `xml:"lastmod,omitempty"`
	Links   []sitemapLink `xml:"xhtml:link"`
}

type sitemapLink struct {
	Rel      string `xml:"rel,attr"`
	Hreflang string `xml:"hreflang,attr"`
	Href     string `xml:"href,attr"`
}

// Sitemap returns sitemap.xml for pages: every article, home, series and
// tag page by URL, with its lastmod (else its date) as lastmod and an
// xhtml:link alternate for each existing translation, plus x-default (the
// site's first language) for a page that exists in more than one.
func Sitemap(site *Site, pages []*Page) []byte {
	set := sitemapURLSet{
		NS:    "http://www.sitemaps.org/schemas/sitemap/0.9",
		XHTML: "http://www.w3.org/1999/xhtml",
	}
	sorted := sortedPages(pages, func(p *Page) bool { return inSitemap(p.Kind) })
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].URL < sorted[j].URL })
	for _, p := range sorted {
		u := sitemapURL{Loc: Abs(site.BaseURL, p.URL)}
		if t := updated(p); !t.IsZero() {
			u.LastMod = t.UTC().Format("2006-01-02")
		}
		var n int
		for _, t := range p.Translations {
			if t.Exists {
				n++
				u.Links = append(u.Links, sitemapLink{Rel: "alternate", Hreflang: t.Lang, Href: Abs(site.BaseURL, t.URL)})
			}
		}
		if x := xDefault(site, p.Translations); x != "" && n > 1 {
			u.Links = append(u.Links, sitemapLink{Rel: "alternate", Hreflang: "x-default", Href: Abs(site.BaseURL, x)})
		}
		set.URLs = append(set.URLs, u)
	}
	return marshalXML(set)
}

type atomFeed struct {
	XMLName xml.Name    `xml:"feed"`
	NS      string      `xml:"xmlns,attr"`
	Lang    string      `xml:"xml:lang,attr"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomAuthor  `xml:"author"`
	Gen     string      `xml:"generator,omitempty"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel      string `xml:"rel,attr,omitempty"`
	Type     string `xml:"type,attr,omitempty"`
	Hreflang string `xml:"hreflang,attr,omitempty"`
	Href     string `xml:"href,attr"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title     string     `xml:"title"`
	ID        string     `xml:"id"`
	Links     []atomLink `xml:"link"`
	Published string     `xml:"published"`
	Updated   string     `xml:"updated"`
	Summary   string     `xml:"summary,omitempty"`
	Category  []atomCat  `xml:"category"`
}

type atomCat struct {
	Term string `xml:"term,attr"`
}

// Atom returns the Atom feed of lang's articles (/<lang>/index.xml), newest
// first by date. An entry's updated is its lastmod, else its date, and its
// summary the page's summary, else its description; the feed's updated is
// the latest of its entries'. Pages in other languages and pages that are
// not articles are left out.
func Atom(site *Site, lang string, pages []*Page) []byte {
	arts := sortedPages(pages, func(p *Page) bool { return p.Kind == KindArticle && p.Lang == lang })
	sort.SliceStable(arts, func(i, j int) bool {
		if !arts[i].Date.Equal(arts[j].Date) {
			return arts[i].Date.After(arts[j].Date)
		}
		return arts[i].URL < arts[j].URL
	})
	title := site.Title[lang]
	feed := atomFeed{
		NS:    "http://www.w3.org/2005/Atom",
		Lang:  lang,
		Title: title,
		ID:    Abs(site.BaseURL, "/"+lang+"/"),
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: Abs(site.BaseURL, FeedPath(lang))},
			{Rel: "alternate", Type: "text/html", Href: Abs(site.BaseURL, "/"+lang+"/")},
		},
		Author:  atomAuthor{Name: title},
		Gen:     site.Generator,
		Updated: atomTime(time.Time{}),
	}
	var latest time.Time
	for _, p := range arts {
		if t := updated(p); t.After(latest) {
			latest = t
		}
	}
	feed.Updated = atomTime(latest)
	for _, p := range arts {
		e := atomEntry{
			Title:     p.Title,
			ID:        Abs(site.BaseURL, p.URL),
			Links:     []atomLink{{Rel: "alternate", Type: "text/html", Href: Abs(site.BaseURL, p.URL)}},
			Published: atomTime(p.Date),
			Updated:   atomTime(updated(p)),
			Summary:   summary(p),
		}
		for _, t := range p.Translations {
			if t.Exists && t.Lang != lang {
				e.Links = append(e.Links, atomLink{Rel: "alternate", Type: "text/html", Hreflang: t.Lang, Href: Abs(site.BaseURL, t.URL)})
			}
		}
		for _, tag := range p.Tags {
			e.Category = append(e.Category, atomCat{Term: tag})
		}
		feed.Entries = append(feed.Entries, e)
	}
	return marshalXML(feed)
}

// Robots returns robots.txt: everything allowed, and where the sitemap is.
func Robots(site *Site) []byte {
	return []byte("User-agent: *\nAllow: /\n\nSitemap: " + Abs(site.BaseURL, SitemapPath) + "\n")
}

// atomTime formats t as RFC 3339 in UTC; the zero time is the Unix epoch,
// so a feed without articles is still valid and deterministic.
func atomTime(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format(time.RFC3339)
}

// sortedPages copies the non-nil pages that keep accepts.
func sortedPages(pages []*Page, keep func(*Page) bool) []*Page {
	var out []*Page
	for _, p := range pages {
		if p != nil && keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// marshalXML encodes v, indented, after the XML declaration. The types
// marshalled here cannot fail to encode.
func marshalXML(v any) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// Feeds returns the files that list the site, by output path: the
// sitemap, robots.txt and each language's Atom feed, those of
// Site.Outputs, made from every page but the root and the 404 page, in
// URL order.
func Feeds(site *Site, pages []*Page) map[string][]byte {
	var listed []*Page
	for _, p := range pages {
		if p.Kind != KindRoot && p.Kind != KindNotFound {
			listed = append(listed, p)
		}
	}
	sort.SliceStable(listed, func(i, j int) bool { return listed[i].URL < listed[j].URL })
	feeds := map[string][]byte{}
	for _, out := range site.outputs().All() {
		switch out.Kind {
		case OutputSitemap:
			feeds[outPath(out.Path)] = Sitemap(site, listed)
		case OutputRobots:
			feeds[outPath(out.Path)] = Robots(site)
		case OutputFeed:
			feeds[outPath(out.Path)] = Atom(site, out.Lang, listed)
		}
	}
	return feeds
}
