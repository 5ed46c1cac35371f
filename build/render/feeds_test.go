package render

import (
	"encoding/xml"
	"strings"
	"testing"
	"time"
)

func feedPages(site *Site) []*Page {
	older := articlePage(site, "ja")
	older.URL, older.Title, older.Part = "/ja/cka/02-control-plane/", "コントロールプレーン <基礎> & etcd", 2
	older.Date = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	older.Translations = translations("/cka/02-control-plane/", map[string]bool{"ja": true})
	return []*Page{
		rootPage(site), notFoundPage(site),
		seriesPage(site, "ko"), homePage(site, "ja"), articlePage(site, "ko"),
		older, articlePage(site, "ja"), homePage(site, "ko"), seriesPage(site, "ja"), nil,
	}
}

type xmlURLSet struct {
	URLs []struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
		Links   []struct {
			Rel      string `xml:"rel,attr"`
			Hreflang string `xml:"hreflang,attr"`
			Href     string `xml:"href,attr"`
		} `xml:"http://www.w3.org/1999/xhtml link"`
	} `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 url"`
}

func TestSitemap(t *testing.T) {
	site := testSite()
	out := Sitemap(site, feedPages(site))
	var set xmlURLSet
	if err := xml.Unmarshal(out, &set); err != nil {
		t.Fatalf("sitemap is not XML: %v\n%s", err, out)
	}
	var got []string
	for _, u := range set.URLs {
		line := strings.TrimSpace(u.Loc + " " + u.LastMod)
		for _, l := range u.Links {
			line += " " + l.Rel + ":" + l.Hreflang + "=" + strings.TrimPrefix(l.Href, site.BaseURL)
		}
		got = append(got, line)
	}
	b := site.BaseURL
	want := []string{
		b + "ja/ alternate:ja=ja/ alternate:ko=ko/ alternate:x-default=ja/",
		b + "ja/cka/ alternate:ja=ja/cka/ alternate:ko=ko/cka/ alternate:x-default=ja/cka/",
		b + "ja/cka/02-control-plane/ 2026-10-01 alternate:ja=ja/cka/02-control-plane/",
		b + "ja/cka/05-ha-cluster/ 2026-11-02 alternate:ja=ja/cka/05-ha-cluster/ alternate:ko=ko/cka/05-ha-cluster/ alternate:x-default=ja/cka/05-ha-cluster/",
		b + "ko/ alternate:ja=ja/ alternate:ko=ko/ alternate:x-default=ja/",
		b + "ko/cka/ alternate:ja=ja/cka/ alternate:ko=ko/cka/ alternate:x-default=ja/cka/",
		b + "ko/cka/05-ha-cluster/ 2026-11-02 alternate:ja=ja/cka/05-ha-cluster/ alternate:ko=ko/cka/05-ha-cluster/ alternate:x-default=ja/cka/05-ha-cluster/",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sitemap entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if again := Sitemap(site, feedPages(site)); string(again) != string(out) {
		t.Error("Sitemap is not deterministic")
	}
}

type xmlFeed struct {
	Lang    string `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
	Title   string `xml:"title"`
	ID      string `xml:"id"`
	Updated string `xml:"updated"`
	Links   []struct {
		Rel  string `xml:"rel,attr"`
		Href string `xml:"href,attr"`
	} `xml:"link"`
	Entries []struct {
		Title     string `xml:"title"`
		ID        string `xml:"id"`
		Published string `xml:"published"`
		Summary   string `xml:"summary"`
	} `xml:"http://www.w3.org/2005/Atom entry"`
}

func TestAtom(t *testing.T) {
	site := testSite()
	tests := []struct {
		lang    string
		updated string
		titles  []string
	}{
		{"ja", "2026-11-02T00:00:00Z", []string{"HA クラスター: 複数 control plane、外部 etcd cluster", "コントロールプレーン <基礎> & etcd"}},
		{"ko", "2026-11-02T00:00:00Z", []string{"HA 클러스터: 여러 control plane, 외부 etcd cluster"}},
		{"fr", "1970-01-01T00:00:00Z", nil},
	}
	for _, tt := range tests {
		out := Atom(site, tt.lang, feedPages(site))
		var f xmlFeed
		if err := xml.Unmarshal(out, &f); err != nil {
			t.Fatalf("%s feed is not XML: %v\n%s", tt.lang, err, out)
		}
		if f.Updated != tt.updated {
			t.Errorf("%s: updated = %q, want %q", tt.lang, f.Updated, tt.updated)
		}
		if f.Lang != tt.lang {
			t.Errorf("%s: xml:lang = %q", tt.lang, f.Lang)
		}
		if f.ID != site.BaseURL+tt.lang+"/" || len(f.Links) == 0 || f.Links[0].Rel != "self" || f.Links[0].Href != site.BaseURL+tt.lang+"/index.xml" {
			t.Errorf("%s: id %q, links %+v", tt.lang, f.ID, f.Links)
		}
		var titles []string
		for _, e := range f.Entries {
			titles = append(titles, e.Title)
			if !strings.HasPrefix(e.ID, site.BaseURL+tt.lang+"/cka/") || e.Published == "" {
				t.Errorf("%s: entry %+v", tt.lang, e)
			}
		}
		if strings.Join(titles, "|") != strings.Join(tt.titles, "|") {
			t.Errorf("%s: entries %q, want %q (newest first)", tt.lang, titles, tt.titles)
		}
	}
	if out := string(Atom(site, "ja", feedPages(site))); !strings.Contains(out, "&lt;基礎&gt; &amp; etcd") {
		t.Errorf("title not escaped:\n%s", out)
	}
}

func TestRobots(t *testing.T) {
	got := string(Robots(testSite()))
	want := "User-agent: *\nAllow: /\n\nSitemap: https://example.org/course/sitemap.xml\n"
	if got != want {
		t.Errorf("Robots = %q, want %q", got, want)
	}
}

// TestLastmodAndSummary: an article's lastmod is its entry's updated, the
// feed's updated and its sitemap lastmod, and its summary, when set, is
// its entry's summary instead of the description; tag pages are in the
// sitemap, not in the feed.
func TestLastmodAndSummary(t *testing.T) {
	site := testSite()
	art := articlePage(site, "ja")
	art.Lastmod = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	art.Summary = "要約"
	pages := []*Page{art, tagPage(site, "ja"), tagsPage(site, "ja")}
	feed := string(Atom(site, "ja", pages))
	for _, want := range []string{
		"<updated>2026-11-20T09:00:00Z</updated>\n  <link",
		"<published>2026-11-02T00:00:00Z</published>\n    <updated>2026-11-20T09:00:00Z</updated>\n    <summary>要約</summary>",
	} {
		if !strings.Contains(feed, want) {
			t.Errorf("feed lacks %q:\n%s", want, feed)
		}
	}
	if strings.Contains(feed, "tags/") {
		t.Errorf("tag pages in the feed:\n%s", feed)
	}
	sitemap := string(Sitemap(site, pages))
	for _, want := range []string{
		"<loc>https://example.org/course/ja/cka/05-ha-cluster/</loc>\n    <lastmod>2026-11-20</lastmod>",
		"<loc>https://example.org/course/ja/tags/</loc>",
		"<loc>https://example.org/course/ja/tags/kubernetes/</loc>",
	} {
		if !strings.Contains(sitemap, want) {
			t.Errorf("sitemap lacks %q:\n%s", want, sitemap)
		}
	}
}
