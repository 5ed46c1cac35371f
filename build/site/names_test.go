package site

import (
	"reflect"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestResolveNameCollisions: names that differ only in case or Unicode
// normalization, and URLs that differ only in case, are errors naming
// both sides; each pair is reported once, by its cause.
func TestResolveNameCollisions(t *testing.T) {
	ga := "ガイド" // composed (NFC)
	gaNFD := norm.NFD.String(ga)
	if ga == gaNFD {
		t.Fatal("the test needs a name whose NFD differs")
	}
	const tail = ": on a case-insensitive or normalizing file system (macOS, Windows) the two are one, and their URLs collide; rename one"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"file names in case", map[string]string{
			"content/ja/Intro.md": "---\ntitle: a\n---\n",
			"content/ja/intro.md": "---\ntitle: b\n---\n",
		}, []string{"content/ja/intro.md: the name of this file differs only in case from content/ja/Intro.md" + tail}},
		{"two files of one part, once", map[string]string{
			"content/series/cka.yaml": seriesYAML,
			"content/ja/cka/02-A.md":  page(2, ""),
			"content/ja/cka/02-a.md":  page(2, ""),
		}, []string{"content/ja/cka/02-a.md: the name of this file differs only in case from content/ja/cka/02-A.md" + tail}},
		{"file names in normalization", map[string]string{
			"content/ja/" + ga + ".md":    "---\ntitle: a\n---\n",
			"content/ja/" + gaNFD + ".md": "---\ntitle: b\n---\n",
		}, []string{"content/ja/" + gaNFD + ".md: the name of this file differs only in its Unicode normalization (this one is decomposed, NFD: write it composed, NFC) from content/ja/" + ga + ".md" + tail}},
		{"folders in case, once for the folder", map[string]string{
			"content/ja/CKA/a.md": "---\ntitle: a\n---\n",
			"content/ja/cka/a.md": "---\ntitle: b\n---\n",
			"content/ja/cka/b.md": "---\ntitle: c\n---\n",
		}, []string{"content/ja/cka: the name of this folder differs only in case from content/ja/CKA" + tail}},
		{"page folder files in case", map[string]string{
			"content/ja/p/index.md":    "---\ntitle: p\n---\n",
			"content/ja/p/diagram.png": "png",
			"content/ja/p/Diagram.png": "png",
		}, []string{"content/ja/p/diagram.png: the name of this file differs only in case from content/ja/p/Diagram.png" + tail}},
		{"the same names in two languages", map[string]string{
			"content/ja/intro.md": "---\ntitle: a\n---\n",
			"content/ko/intro.md": "---\ntitle: b\n---\n",
		}, nil},
		{"a slug and a file name", map[string]string{
			"content/ja/intro.md": "---\ntitle: a\n---\n",
			"content/ja/b.md":     "---\ntitle: b\nslug: Intro\n---\n",
		}, []string{"content/ja/b.md:3:7: page URL /ja/Intro/ differs only in case from /ja/intro/, the URL of content/ja/intro.md: on a case-insensitive file system or server the two are one; change one"}},
		{"an alias", map[string]string{
			"content/ja/old.md": "---\ntitle: a\n---\n",
			"content/ja/b.md":   "---\ntitle: b\naliases: [/ja/x/, /ja/OLD/]\n---\n",
		}, []string{"content/ja/b.md:3:19: alias /ja/OLD/ differs only in case from /ja/old/, the URL of content/ja/old.md: on a case-insensitive file system or server the two are one; change one"}},
		{"a page and the generated tags page", map[string]string{
			"content/ja/a.md":      "---\ntitle: a\ntags: [b]\n---\n",
			"content/ja/Tags/b.md": "---\ntitle: b\n---\n",
		}, []string{"content/ja/Tags/b.md: page URL /ja/Tags/b/ differs only in case from /ja/tags/b/, the URL of the generated tag page: on a case-insensitive file system or server the two are one; change one"}},
		{"untranslated stand-ins", map[string]string{
			"content/ja/Intro.md": "---\ntitle: a\n---\n",
			"content/ko/intro.md": "---\ntitle: b\n---\n",
		}, []string{
			"content/ja/Intro.md: page URL /ja/Intro/ differs only in case from /ja/intro/, the URL of the ja page of content/ko/intro.md, not translated yet: on a case-insensitive file system or server the two are one; change one",
			"content/ko/intro.md: page URL /ko/intro/ differs only in case from /ko/Intro/, the URL of the ko page of content/ja/Intro.md, not translated yet: on a case-insensitive file system or server the two are one; change one",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, d := resolve(t, tc.files)
			var got []string
			for _, x := range d.Errors() {
				got = append(got, x.Header())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}

// TestResolveUntitled: an article or section without a title is a
// warning at the file, or at an empty title; a home, series or tags
// index takes its title from elsewhere, and a draft left out is not
// reported.
func TestResolveUntitled(t *testing.T) {
	_, d := resolve(t, map[string]string{
		"content/series/cka.yaml":    "id: cka\ntitle: {ja: CKA, ko: CKA}\nparts: []\n",
		"content/ja/_index.md":       "",
		"content/ja/cka/_index.md":   "body\n",
		"content/ja/tags/_index.md":  "---\ndraft: false\n---\n",
		"content/ja/cka/03-empty.md": "",
		"content/ja/blank.md":        "\n\n",
		"content/ja/notitle.md":      "---\ndate: 2026-10-01\n---\ntext\n",
		"content/ja/emptytitle.md":   "---\ntitle: \"\"\n---\ntext\n",
		"content/ja/about/_index.md": "text\n",
		"content/ja/draft.md":        "---\ndraft: true\n---\n",
		"content/ja/ok.md":           "---\ntitle: よし\n---\n",
	})
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range d.Warnings() {
		if x.Code == "front-matter" {
			got = append(got, x.Header())
		}
	}
	want := []string{
		"content/ja/about/_index.md: warning: the page has no title: add \"title\" to its front matter",
		"content/ja/blank.md: warning: the page is empty: it has no front matter, so no title; write it (title: … between --- lines) or delete it",
		"content/ja/cka/03-empty.md: warning: the page is empty: it has no front matter, so no title; write it (title: … between --- lines) or delete it",
		"content/ja/emptytitle.md:2:8: warning: front matter field \"title\" is empty: the page has no title",
		"content/ja/notitle.md: warning: the page has no title: add \"title\" to its front matter",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings:\n%q\nwant:\n%q", got, want)
	}
}
