package site

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// TestResolveFailed: what is missing only for want of a file that did not
// load (Options.Failed) is not reported again: the series of its pages,
// the part its page would be in a language, a page's twin; without the
// failed files, each is reported.
func TestResolveFailed(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string // what is reported when nothing failed to load
	}{
		{"series file", map[string]string{
			"content/series/cka.yaml": "id: cka\nparts: [\n",
			"content/ja/cka/02-a.md":  page(2, ""),
		}, []string{`content/ja/cka/02-a.md:3:1: series "cka" has no series file (content/series/cka.yaml)`}},
		{"a part's twin", map[string]string{
			"content/series/cka.yaml": seriesYAML,
			"content/ja/cka/02-a.md":  page(2, ""),
			"content/ko/cka/02-a.md":  "---\ntitle: [\n---\n",
			"content/ja/cka/05-b.md":  page(5, ""),
			"content/ko/cka/05-b.md":  page(5, ""),
		}, []string{`content/series/cka.yaml:4:5: warning: part #2 is published but has no ko page`}},
		{"a part in every language", map[string]string{
			"content/series/cka.yaml": seriesYAML,
			"content/ja/cka/02-a.md":  "---\ntitle: [\n---\n",
			"content/ko/cka/02-a.md":  "---\ntitle: [\n---\n",
			"content/ja/cka/05-b.md":  page(5, ""),
			"content/ko/cka/05-b.md":  page(5, ""),
		}, []string{
			`content/series/cka.yaml:4:5: warning: part #2 is published but has no ja page`,
			`content/series/cka.yaml:4:5: warning: part #2 is published but has no ko page`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			for p, s := range c.files {
				if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			content, ld := source.Load(context.Background(), fs, "content", []string{"ja", "ko"})
			if len(ld.Errors()) == 0 {
				t.Fatal("no file failed to load")
			}
			for _, failed := range []bool{false, true} {
				opts := Options{Langs: []string{"ja", "ko"}}
				if failed {
					opts.Failed = FailedFiles(ld)
				}
				_, d := Resolve(content, opts)
				var got []string
				for _, x := range d {
					if !strings.Contains(x.Msg, "title") {
						got = append(got, x.Header())
					}
				}
				want := c.want
				if failed {
					want = nil
				}
				if !slices.Equal(got, want) {
					t.Errorf("failed files given %v:\n\t%s\nwant:\n\t%s", failed, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
				}
			}
		})
	}
}

// TestFailedTwin: a page's twin in another language is the file of the
// same path under that language's folder.
func TestFailedTwin(t *testing.T) {
	s := &Site{failed: map[string]bool{"content/ko/cka/02-a.md": true, "content/ko/_index.md": true}}
	for _, c := range []struct {
		path, rel string
		want      bool
	}{
		{"content/ja/cka/02-a.md", "cka/02-a.md", true},
		{"content/ja/_index.md", "_index.md", true},
		{"content/ja/cka/05-b.md", "cka/05-b.md", false},
	} {
		p := &Page{Source: &source.Page{Path: c.path, Rel: c.rel, Lang: "ja"}}
		if got := s.FailedTwin(p, "ko"); got != c.want {
			t.Errorf("%s: FailedTwin = %v, want %v", c.path, got, c.want)
		}
	}
}
