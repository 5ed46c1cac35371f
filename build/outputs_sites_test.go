package build_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/render"
)

// TestSiteOutputs: the registry of generated outputs (render.Outputs) is
// what the build writes beside the pages and the static files, no more,
// no less, and a page may link to each of them; one the site does not
// generate (no search indexes with search = false) is a dangling link.
func TestSiteOutputs(t *testing.T) {
	site := componentsSite(t) + `-- content/ko/_index.md --
---
title: CKA 코스
---
[지도](/sitemap.xml) [피드](/ko/index.xml) [색인](/ko/search-index.js) [로봇](/robots.txt) [코드](/css/chroma.css)
`
	site = replaceOnce(t, site, "-- content/ko/_index.md --\n---\ntitle: CKA 코스\n---\n환영합니다.\n", "")
	s := sitetest.Test(t, site)
	res := s.Result()
	outs := render.NewOutputs(res.Langs, false, true)
	written := map[string]bool{}
	for _, p := range res.Site.Paths() {
		written["/"+p] = true
	}
	made := map[string]bool{}
	for _, p := range res.Pages {
		out := p.URL
		if strings.HasSuffix(out, "/") {
			out += "index.html"
		}
		made[out] = true
	}
	for _, dir := range []string{"themes/default/static", "static"} {
		for _, f := range files(t, s, dir) {
			made[res.Assets.Path(strings.TrimPrefix(f, dir))] = true
		}
	}
	for _, o := range outs.All() {
		p := res.Assets.Path(o.Path)
		switch {
		case written[p]:
			made[p] = true
		case strings.HasSuffix(p, "/") && markUnder(written, made, p) > 0:
			// a folder: the files written in it
		case o.Kind == render.OutputCalc && res.Summary.Wasm == nil:
			// No calculators in this binary: the widgets keep their
			// build-time answers.
		default:
			t.Errorf("%s (%s) is registered, but the build did not write it", o.Path, o.Kind)
		}
	}
	for p := range written {
		if !made[p] {
			t.Errorf("the build wrote %s, which is no page, static file nor registered output", p)
		}
	}
	if w := s.Warnings(); len(w) > 0 {
		t.Errorf("warnings %q", w)
	}
	s.WriteFile("kakehashi.toml", "search = false\n").Build().AssertFresh().
		AssertWarnings(`content/ko/_index.md:4:40: warning: link to "/ko/search-index.js": no such page or file`)
}

// markUnder marks as made every written file under the folder dir, and
// returns how many there are.
func markUnder(written, made map[string]bool, dir string) int {
	n := 0
	for p := range written {
		if strings.HasPrefix(p, dir) {
			made[p] = true
			n++
		}
	}
	return n
}

// files lists the files under dir of the site's input, by their paths.
func files(t *testing.T, s *sitetest.Site, dir string) []string {
	t.Helper()
	var out []string
	err := afero.Walk(s.Fs(), dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			out = append(out, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
