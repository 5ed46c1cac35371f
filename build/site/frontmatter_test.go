package site

import (
	"reflect"
	"testing"
)

// fmPage is an article of series cka with extra front matter lines.
func fmPage(part, extra string) string {
	return "---\ntitle: t\nseries: cka\npart: " + part + "\ndate: 2026-10-0" + part + "\n" + extra + "---\nbody\n"
}

// TestSlugAliasesTags: a slug renames an article's URL but not its
// translation pair; aliases become redirects from the page's folder or
// the site root; tags give a page per tag and an index per language.
func TestSlugAliasesTags(t *testing.T) {
	s, d := resolve(t, map[string]string{
		"content/series/cka.yaml": seriesYAML,
		"content/ja/cka/02-a.md":  fmPage("2", "slug: new-a\naliases: [old-a, /ja/older/, /ja/x.html]\ntags: [Kubernetes, control plane]\n"),
		"content/ko/cka/02-a.md":  fmPage("2", "tags: [쿠버네티스]\n"),
		"content/ja/cka/05-b.md":  fmPage("5", "tags: [kubernetes]\n"),
		"content/ko/cka/05-b.md":  fmPage("5", ""),
	})
	if len(d.Errors()) > 0 {
		t.Fatal(d)
	}
	ja := s.ByURL("/ja/cka/new-a/")
	if ja == nil || s.ByURL("/ja/cka/02-a/") != nil {
		t.Fatalf("the slug does not name the URL")
	}
	if ko := ja.Translations["ko"]; ko == nil || ko.URL != "/ko/cka/02-a/" {
		t.Fatalf("translations %v", ja.Translations)
	}
	var aliases []string
	for _, a := range s.Aliases {
		if a.Page != ja {
			t.Errorf("alias %s of %s", a.URL, a.Page.URL)
		}
		aliases = append(aliases, a.URL+" "+a.OutPath())
	}
	if want := []string{"/ja/cka/old-a/ ja/cka/old-a/index.html", "/ja/older/ ja/older/index.html", "/ja/x.html ja/x.html"}; !reflect.DeepEqual(aliases, want) {
		t.Errorf("aliases %q, want %q", aliases, want)
	}
	var tags []string
	for _, lang := range []string{"ja", "ko"} {
		for _, tag := range s.Tags(lang) {
			var urls []string
			for _, p := range tag.Pages {
				urls = append(urls, p.URL)
			}
			tags = append(tags, tag.URL+" "+tag.Name+" "+s.ByURL(tag.URL).Tag.Name+" "+string(s.ByURL(tag.URL).Kind)+" "+urls[0]+" "+string(rune('0'+len(urls))))
		}
		if p := s.ByURL("/" + lang + "/tags/"); p == nil || p.Kind != KindTags {
			t.Errorf("no tag index in %s", lang)
		}
	}
	want := []string{
		"/ja/tags/control-plane/ control plane control plane tag /ja/cka/new-a/ 1",
		"/ja/tags/kubernetes/ kubernetes kubernetes tag /ja/cka/05-b/ 2",
		"/ko/tags/쿠버네티스/ 쿠버네티스 쿠버네티스 tag /ko/cka/02-a/ 1",
	}
	if !reflect.DeepEqual(tags, want) {
		t.Errorf("tags\n%q\nwant\n%q", tags, want)
	}
}

// TestSlugAliasTagErrors pins the message and place of each collision.
func TestSlugAliasTagErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"slug taken", map[string]string{
			"content/ja/cka/02-a.md": fmPage("2", ""),
			"content/ja/cka/05-b.md": fmPage("5", "slug: 02-a\n"),
		}, []string{"content/ja/cka/05-b.md:6:7: page URL /ja/cka/02-a/ is already taken by content/ja/cka/02-a.md"}},
		{"alias of a page", map[string]string{
			"content/ja/cka/02-a.md": fmPage("2", ""),
			"content/ja/cka/05-b.md": fmPage("5", "aliases:\n  - /ja/x/\n  - 02-a\n"),
		}, []string{"content/ja/cka/05-b.md:8:5: alias /ja/cka/02-a/ is already the URL of content/ja/cka/02-a.md"}},
		{"alias of a generated page", map[string]string{
			"content/ja/cka/02-a.md": fmPage("2", "aliases: [/ja/cka/]\n"),
		}, []string{"content/ja/cka/02-a.md:6:11: alias /ja/cka/ is already the URL of the generated series page"}},
		{"alias of another page's", map[string]string{
			"content/ja/cka/02-a.md": fmPage("2", "aliases: [/old/]\n"),
			"content/ja/cka/05-b.md": fmPage("5", "aliases: [/old]\n"),
		}, []string{"content/ja/cka/05-b.md:6:11: alias /old/ is also an alias of content/ja/cka/02-a.md"}},
		{"slug on an _index.md", map[string]string{
			"content/ja/_index.md": "---\ntitle: home\nslug: top\n---\n",
		}, []string{`content/ja/_index.md:3:7: warning: front matter field "slug" has no effect on an _index.md: the folder's name is its URL`}},
		{"tag page taken", map[string]string{
			"content/ja/tags/go.md":  "---\ntitle: go\n---\n",
			"content/ja/cka/02-a.md": fmPage("2", "tags: [k8s, Go]\n"),
		}, []string{`content/ja/cka/02-a.md:6:13: the page of tag "Go", /ja/tags/go/, is already taken by content/ja/tags/go.md`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.files["content/series/cka.yaml"] = seriesYAML
			_, d := resolve(t, tt.files)
			var got []string
			for _, x := range d {
				if x.Path != "content/series/cka.yaml" {
					got = append(got, x.Header())
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
