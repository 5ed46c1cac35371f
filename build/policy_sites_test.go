package build_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

var policyRe = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]+)">`)

// TestSitePolicy: every HTML file a build writes (articles, series, home,
// tags, the root, the 404, an untranslated stand-in, an alias's redirect)
// carries a Content-Security-Policy before anything that could run, and
// it allows scripts from the site alone, or none.
func TestSitePolicy(t *testing.T) {
	s := sitetest.New(t, twoSeries(t)).Build()
	site := s.Result().Site
	kinds := map[string]bool{}
	for _, p := range site.Paths() {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		data, _ := site.Get(p)
		html := string(data)
		m := policyRe.FindStringSubmatchIndex(html)
		if m == nil {
			t.Errorf("%s has no Content-Security-Policy", p)
			continue
		}
		policy := html[m[2]:m[3]]
		if policy != "script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'" && policy != "script-src 'none'; object-src 'none'; base-uri 'none'" {
			t.Errorf("%s: policy %q", p, policy)
		}
		if i := strings.Index(html, "<script"); i >= 0 && i < m[0] {
			t.Errorf("%s: a script comes before the policy", p)
		}
		kinds[policy] = true
	}
	if len(kinds) != 2 {
		t.Errorf("want pages and alias redirects, saw the policies %v", kinds)
	}
}
