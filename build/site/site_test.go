package site

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

const seriesYAML = `id: cka
title: {ja: CKA, ko: CKA}
parts:
  - number: 2
    title: {ja: 二, ko: 이}
    state: published
  - number: 4
    title: {ja: 四, ko: 사}
    state: planned
  - number: 5
    title: {ja: 五, ko: 오}
    state: published
`

func resolve(t *testing.T, files map[string]string) (*Site, diag.List) {
	t.Helper()
	fs := afero.NewMemMapFs()
	for p, s := range files {
		if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, d := source.Load(context.Background(), fs, "content", []string{"ja", "ko"})
	if len(d.Errors()) > 0 {
		t.Fatalf("load: %v", d)
	}
	return Resolve(c, Options{Langs: []string{"ja", "ko"}})
}

func page(n int, extra string) string {
	return "---\ntitle: t\nseries: cka\npart: " + string(rune('0'+n)) + "\n" + extra + "---\nbody\n"
}

func TestResolve(t *testing.T) {
	s, d := resolve(t, map[string]string{
		"content/series/cka.yaml":    seriesYAML,
		"content/ja/cka/02-a.md":     page(2, "date: 2026-10-05\n"),
		"content/ja/cka/05-b.md":     page(5, "date: 2026-11-02\n"),
		"content/ko/cka/05-b.md":     page(5, ""),
		"content/ja/_index.md":       "---\ntitle: ホーム\n---\n",
		"content/ja/cka/99-draft.md": "---\ntitle: d\ndraft: true\n---\n",
	})
	if len(d.Errors()) > 0 {
		t.Fatal(d)
	}
	if w := d.Warnings(); len(w) != 1 || !strings.Contains(w[0].String(), "content/series/cka.yaml:4:5: warning: part #2 is published but has no ko page") {
		t.Fatalf("warnings: %v", w)
	}
	var urls []string
	for _, p := range s.Pages {
		urls = append(urls, string(p.Kind)+":"+p.URL)
	}
	want := "root:/ 404:/404.html home:/ja/ series:/ja/cka/ article:/ja/cka/02-a/ article:/ja/cka/05-b/ home:/ko/ series:/ko/cka/ untranslated:/ko/cka/02-a/ article:/ko/cka/05-b/"
	if got := strings.Join(urls, " "); got != want {
		t.Fatalf("pages\n got %s\nwant %s", got, want)
	}
	p5 := s.ByURL("/ja/cka/05-b/")
	if p5.Translations["ko"] != s.ByURL("/ko/cka/05-b/") || p5.Translations["ja"] != p5 {
		t.Fatal("translations not paired")
	}
	// The part missing in Korean has a page that says so, at the URL the
	// switcher leads to, standing for the Japanese original; it is no
	// part of the Korean series.
	if ko := s.ByURL("/ja/cka/02-a/").Translations["ko"]; ko == nil || ko.Kind != KindUntranslated || ko.URL != "/ko/cka/02-a/" ||
		ko.Original != s.ByURL("/ja/cka/02-a/") || ko.Source != nil || s.PartPage("ko", "cka", 2) != nil {
		t.Fatalf("the missing translation's page: %+v", ko)
	}
	if s.Original(s.ByURL("/ko/cka/05-b/")) != p5 || s.Original(s.ByURL("/ko/cka/02-a/")) != s.ByURL("/ja/cka/02-a/") {
		t.Fatal("Original")
	}
	prev, next := s.Neighbours(p5)
	if prev != s.ByURL("/ja/cka/02-a/") || next != nil {
		t.Fatalf("neighbours %v %v", prev, next)
	}
	if arts := s.Articles("ja"); len(arts) != 2 || arts[0] != p5 {
		t.Fatal("articles not newest first")
	}
	if s.ByURL("/ja/cka/02-a/").OutPath() != "ja/cka/02-a/index.html" || s.ByURL("/404.html").OutPath() != "404.html" {
		t.Fatal("out paths")
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"part not in series", map[string]string{"content/series/cka.yaml": seriesYAML, "content/ja/cka/09.md": page(9, "")},
			`content/ja/cka/09.md:4:1: part 9 is not in series "cka" (content/series/cka.yaml lists #2, #4, #5)`},
		{"planned part has a page", map[string]string{"content/series/cka.yaml": seriesYAML, "content/ja/cka/04.md": page(4, "")},
			`content/ja/cka/04.md:4:1: part 4 has a page but content/series/cka.yaml marks it "planned": mark it published`},
		{"no series file", map[string]string{"content/ja/cka/02.md": page(2, "")},
			`content/ja/cka/02.md:3:1: series "cka" has no series file (content/series/cka.yaml)`},
		{"part twice", map[string]string{"content/series/cka.yaml": seriesYAML, "content/ja/cka/02.md": page(2, ""), "content/ja/cka/02b.md": page(2, "")},
			`content/ja/cka/02b.md:4:1: part 2 of "cka" in ja is also content/ja/cka/02.md`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, d := resolve(t, tt.files)
			if !strings.Contains(d.Errors().Error(), tt.want) {
				t.Fatalf("got\n%v\nwant %s", d, tt.want)
			}
		})
	}
}
