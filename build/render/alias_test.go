package render

import (
	"strings"
	"testing"
)

// TestAlias: the redirect page refreshes to its target relatively (naming
// index.html in an export), links to it, and names its canonical URL.
func TestAlias(t *testing.T) {
	target := &Page{Lang: "ja", Title: "HA <クラスター>", URL: "/ja/cka/05-ha-cluster/"}
	tests := []struct {
		name     string
		site     *Site
		from     string
		contains []string
	}{
		{"folder", &Site{BaseURL: "https://example.org/course/"}, "/ja/old-name/", []string{
			`<html lang="ja">`,
			`<title>HA &lt;クラスター&gt;</title>`,
			`<link rel="canonical" href="https://example.org/course/ja/cka/05-ha-cluster/">`,
			`<meta http-equiv="refresh" content="0; url=../../ja/cka/05-ha-cluster/">`,
			`<p><a href="../../ja/cka/05-ha-cluster/">HA &lt;クラスター&gt;</a></p>`,
		}},
		{"export", &Site{BaseURL: "/", ExplicitIndex: true}, "/ja/cka/old/", []string{
			`<link rel="canonical" href="/ja/cka/05-ha-cluster/">`,
			`<meta http-equiv="refresh" content="0; url=../../../ja/cka/05-ha-cluster/index.html">`,
			`<a href="../../../ja/cka/05-ha-cluster/index.html">`,
		}},
		{"file", &Site{BaseURL: "/"}, "/old.html", []string{
			`content="0; url=ja/cka/05-ha-cluster/"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Alias(tt.site, tt.from, target))
			for _, want := range tt.contains {
				if !strings.Contains(got, want) {
					t.Errorf("missing %s in\n%s", want, got)
				}
			}
		})
	}
}
