package render

import (
	"slices"
	"sort"
	"testing"
)

// TestOutputs pins the registry of generated files: what a site of its
// languages has, with what its configuration turns on.
func TestOutputs(t *testing.T) {
	tests := []struct {
		name                  string
		langs                 []string
		noSearch, calculators bool
		want                  []string
	}{
		{"ja and ko", []string{"ja", "ko"}, false, true, []string{
			"/sitemap.xml", "/robots.txt", "/ja/index.xml", "/ko/index.xml", "/ja/search-index.js", "/ja/search-data/", "/ko/search-index.js", "/ko/search-data/",
			"/css/chroma.css", "/js/wasm_exec.js", "/calc/calc.wasm", "/calc/calc-x509.wasm"}},
		{"no search, no calculators", []string{"ko", "ja", "en"}, true, false, []string{
			"/sitemap.xml", "/robots.txt", "/ko/index.xml", "/ja/index.xml", "/en/index.xml", "/css/chroma.css"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := NewOutputs(tt.langs, tt.noSearch, tt.calculators)
			var got []string
			for _, out := range o.All() {
				got = append(got, out.Path)
				if !o.Has(out.Path) {
					t.Errorf("Has(%q) = false", out.Path)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("outputs %q\nwant %q", got, tt.want)
			}
			if o.Has("/index.html") || o.Has("/sitemap.xml/") || o.Has("/ja/search-data") || o.Has("/ja/search-index.js/x") {
				t.Error("Has names what is not an output")
			}
			if o.Has("/ja/search-data/s-abc.js") == tt.noSearch {
				t.Errorf("Has of a file in the search folder = %v", !tt.noSearch)
			}
		})
	}
}

// TestFeedsFollowOutputs: Feeds makes the sitemap, robots.txt and the
// feeds of the registry, at its paths.
func TestFeedsFollowOutputs(t *testing.T) {
	site := testSite()
	site.Outputs = NewOutputs([]string{"ko"}, true, false)
	var got []string
	pages := slices.DeleteFunc(feedPages(site), func(p *Page) bool { return p == nil })
	for p := range Feeds(site, pages) {
		got = append(got, p)
	}
	sort.Strings(got)
	if want := []string{"ko/index.xml", "robots.txt", "sitemap.xml"}; !slices.Equal(got, want) {
		t.Errorf("Feeds made %q, want %q", got, want)
	}
}
