package build

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// TestBundledCourseConfig: the bundled course, built to disk as `make
// build` does, with no base URL but its kakehashi.toml's, publishes
// absolute canonical links and warns of nothing; a site without a base
// URL anywhere warns once.
func TestBundledCourseConfig(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string // kakehashi.toml's replacement; "" keeps the course's
		want   string // in the canonical link of ja/index.html
		warn   []string
	}{
		{"its kakehashi.toml", "", `href="https://kakehashi-dev.github.io/kakehashi/ja/"`, nil},
		{"no base URL", "languages = [\"ja\", \"ko\"]\n", `<link rel="canonical" href="/ja/">`,
			[]string{"kakehashi.toml: warning: no baseURL: canonical links, hreflang, the sitemap and robots.txt need an absolute URL; set baseURL in kakehashi.toml (or pass --base-url)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := repoFs(t)
			if tc.config != "" {
				if err := afero.WriteFile(in, "kakehashi.toml", []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b, err := New(in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := afero.NewMemMapFs()
			stage, err := output.Stage(context.Background(), out, "/public")
			if err != nil {
				t.Fatal(err)
			}
			res, err := b.BuildTo(context.Background(), stage)
			if err != nil {
				t.Fatal(err)
			}
			if err := stage.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			var warn []string
			for _, d := range res.Summary.Warnings {
				warn = append(warn, d.Header())
			}
			if strings.Join(warn, "\n") != strings.Join(tc.warn, "\n") {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warn, "\n"), strings.Join(tc.warn, "\n"))
			}
			home, err := afero.ReadFile(out, "/public/ja/index.html")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(home), tc.want) {
				t.Errorf("ja/index.html lacks %s", tc.want)
			}
		})
	}
}
