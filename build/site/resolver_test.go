package site

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// TestResolver edits a site's files between calls: after each edit the
// Resolver's site and diagnostics are a fresh Resolve's, taken from the
// last call's when only bodies changed and made again otherwise.
func TestResolver(t *testing.T) {
	fs := afero.NewMemMapFs()
	write := func(p, s string) {
		t.Helper()
		if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) string {
		t.Helper()
		b, err := afero.ReadFile(fs, p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write("content/series/cka.yaml", seriesYAML)
	write("content/ja/cka/02-a.md", page(2, "date: 2026-10-05\ntags: [etcd, Kube]\n"))
	write("content/ko/cka/02-a.md", page(2, "date: 2026-10-05\ntags: [etcd]\n"))
	write("content/ja/cka/05-b.md", page(5, "date: 2026-11-02\naliases: [old-b]\n")+"二行目\n三行目\n")
	// Its warning quotes the first lines after the front matter.
	write("content/ja/notes/_index.md", "---\ntitle: ノート\nslug: x\n---\n一行目\n二行目\n三行目\n")
	write("content/ja/notes/blank.md", "\n\n\n\n")
	langs := []string{"ja", "ko"}
	loader := source.NewLoader()
	var r Resolver
	var last *Site
	step := func(name string, edit func(), taken bool) {
		t.Helper()
		edit()
		c, ds := loader.Load(context.Background(), fs, "content", langs)
		if ds.Err() != nil {
			t.Fatalf("%s: %v", name, ds)
		}
		opts := Options{Langs: langs, Glossary: []GlossaryEntry{{ID: "term", Terms: map[string]string{"ja": "用語", "ko": "용어"}}}}
		got, gotDiags := r.Resolve(c, opts)
		want, wantDiags := Resolve(c, opts)
		if g, w := dump(got), dump(want); g != w {
			t.Errorf("%s: the site\n%s\nwant\n%s", name, g, w)
		}
		if !reflect.DeepEqual(gotDiags, wantDiags) {
			t.Errorf("%s: diagnostics\n%v\nwant\n%v", name, gotDiags, wantDiags)
		}
		if len(wantDiags) == 0 {
			t.Fatalf("%s: no diagnostics: the test checks none", name)
		}
		if (got == last) != taken {
			t.Errorf("%s: the last site taken again: %v, want %v", name, got == last, taken)
		}
		last = got
	}
	const b = "content/ja/cka/05-b.md"
	step("first", func() {}, false)
	step("nothing changed", func() {}, true)
	step("a body edited", func() { write(b, read(b)+"\n追記した段落です。\n") }, true)
	step("a title edited", func() { write(b, strings.Replace(read(b), "title: t", "title: 新", 1)) }, false)
	step("a tag added", func() {
		write("content/ko/cka/02-a.md", strings.Replace(read("content/ko/cka/02-a.md"), "[etcd]", "[etcd, kube]", 1))
	}, false)
	step("a body edited far from the warning", func() {
		write("content/ja/notes/_index.md", read("content/ja/notes/_index.md")+"四行目\n")
	}, true)
	step("the line the warning quotes edited", func() {
		write("content/ja/notes/_index.md", strings.Replace(read("content/ja/notes/_index.md"), "一行目", "最初の行", 1))
	}, false)
	step("an empty page written", func() { write("content/ja/notes/blank.md", "\n\n\n\n本文\n") }, false)
	step("a page added", func() { write("content/ko/cka/05-b.md", page(5, "")+"둘째 줄\n셋째 줄\n") }, false)
	step("two bodies edited", func() {
		write(b, read(b)+"\nもう一段落。\n")
		write("content/ko/cka/05-b.md", read("content/ko/cka/05-b.md")+"\n한 단락 더.\n")
	}, true)
}

// dump tells everything of s, its pages by URL and their files by
// identity.
func dump(s *Site) string {
	var b strings.Builder
	url := func(p *Page) string {
		if p == nil {
			return "-"
		}
		return p.URL
	}
	fmt.Fprintf(&b, "langs %v series %v glossary %v\n", s.Langs, s.Series, s.Glossary)
	for _, p := range s.Pages {
		fmt.Fprintf(&b, "%s %s %s src=%p series=%p part=%d key=%s bundle=%s original=%s", p.URL, p.Kind, p.Lang, p.Source, p.Series, p.Part, p.Key, p.Bundle, url(p.Original))
		if p.Tag != nil {
			fmt.Fprintf(&b, " tag=%s/%s/%s", p.Tag.Name, p.Tag.Slug, p.Tag.URL)
			for _, q := range p.Tag.Pages {
				b.WriteString(" " + q.URL)
			}
		}
		for _, l := range slices.Sorted(maps.Keys(p.Translations)) {
			fmt.Fprintf(&b, " %s:%s", l, url(p.Translations[l]))
		}
		prev, next := s.Neighbours(p)
		fmt.Fprintf(&b, " prev=%s next=%s\n", url(prev), url(next))
	}
	for _, a := range s.Aliases {
		fmt.Fprintf(&b, "alias %s %s\n", a.URL, url(a.Page))
	}
	for _, f := range s.Files {
		fmt.Fprintf(&b, "file %+v %s %s\n", f.Source, f.URL, url(f.Page))
	}
	for _, l := range s.Langs {
		for _, t := range s.Tags(l) {
			fmt.Fprintf(&b, "tag %s %s %d\n", l, t.URL, len(t.Pages))
		}
	}
	return b.String()
}
