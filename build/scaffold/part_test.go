package scaffold

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// partSite is a site with a series of a published part, a planned one
// and a published one after a gap, and another series with no part.
const partSite = `
-- kakehashi.toml --
languages = ["ja", "ko"]
-- content/series/cka.yaml --
# The CKA course.
id: cka
title: { ja: CKA, ko: CKA }
parts:
  - number: 1
    title: { ja: 一, ko: 하나 }
    state: published
  # the next one
  - number: 2
    title: { ja: 次, ko: 다음 }
    state: planned
  - number: 5
    state: published   # after a gap
-- content/series/other.yaml --
id: other
parts:
  - number: 4
    state: planned
-- content/ja/cka/01-one.md --
---
title: 一
series: cka
part: 1
---
`

// newSite is a filesystem holding the files of archive (txtar) in the
// folder site.
func newSite(t *testing.T, archive string) afero.Fs {
	t.Helper()
	mem := afero.NewMemMapFs()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		if err := afero.WriteFile(mem, path.Join("site", f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return mem
}

// siteView is the folder site of mem, read-only, as a command reads a
// site.
func siteView(mem afero.Fs) afero.Fs {
	return afero.NewReadOnlyFs(afero.NewBasePathFs(mem, "site"))
}

// memTree maps every file of the folder site of mem to its bytes.
func memTree(t *testing.T, mem afero.Fs) map[string]string {
	t.Helper()
	return memTreeAt(t, mem, "site")
}

// memTreeAt maps every file under root of mem to its bytes.
func memTreeAt(t *testing.T, mem afero.Fs, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := afero.Walk(mem, root, func(p string, info fs.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := afero.ReadFile(mem, p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// page is a new part's page as PlanPart writes it, dated 2026-03-04;
// marked adds the translated field of a translation of the page first.
func page(title, series string, n, body string, marked bool) string {
	tr := ""
	if marked {
		tr = "translated: 2026-03-04 HASH\n"
	}
	return "---\ntitle: " + title + "\nseries: " + series + "\npart: " + n + "\ndate: 2026-03-04\n" + tr + "---\n\n" + body
}

const (
	jaBody = "ここに本文を書きます。\n"
	koBody = "여기에 본문을 씁니다.\n"
	enBody = "Write the article here.\n"
)

// TestPlanPart pins what a new part writes: its pages in every language
// of the site (a translation marked up to date with the first language's,
// HASH standing for its hash), and the series file edited.
func TestPlanPart(t *testing.T) {
	date := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		site    string // the site's files, partSite when ""
		req     PartRequest
		pages   []File // the pages, in order
		series  string // the series file written, when not ""
		planned bool
	}{{
		name: "a new part, in number order, its titles from the slug",
		req:  PartRequest{Series: "cka", Number: 3, Slug: "ha-cluster"},
		pages: []File{
			{"site/content/ja/cka/03-ha-cluster.md", page(`"Ha cluster"`, "cka", "3", jaBody, false)},
			{"site/content/ko/cka/03-ha-cluster.md", page(`"Ha cluster"`, "cka", "3", koBody, true)},
		},
		series: `# The CKA course.
id: cka
title: { ja: CKA, ko: CKA }
parts:
  - number: 1
    title: { ja: 一, ko: 하나 }
    state: published
  # the next one
  - number: 2
    title: { ja: 次, ko: 다음 }
    state: planned
  - number: 3
    title: { ja: "Ha cluster", ko: "Ha cluster" }
    state: published
  - number: 5
    state: published   # after a gap
`,
	}, {
		name: "a new part with a title in one language",
		req:  PartRequest{Series: "cka", Number: 9, Slug: "last", Titles: map[string]string{"ko": `"마지막"`}},
		pages: []File{
			{"site/content/ja/cka/09-last.md", page(`"Last"`, "cka", "9", jaBody, false)},
			{"site/content/ko/cka/09-last.md", page(`"\"마지막\""`, "cka", "9", koBody, true)},
		},
	}, {
		name:    "a planned part published, its titles kept",
		req:     PartRequest{Series: "cka", Number: 2, Slug: "next"},
		planned: true,
		pages: []File{
			{"site/content/ja/cka/02-next.md", page(`"次"`, "cka", "2", jaBody, false)},
			{"site/content/ko/cka/02-next.md", page(`"다음"`, "cka", "2", koBody, true)},
		},
		series: `# The CKA course.
id: cka
title: { ja: CKA, ko: CKA }
parts:
  - number: 1
    title: { ja: 一, ko: 하나 }
    state: published
  # the next one
  - number: 2
    title: { ja: 次, ko: 다음 }
    state: published
  - number: 5
    state: published   # after a gap
`,
	}, {
		name:    "a planned part published, a title given over its own",
		req:     PartRequest{Series: "cka", Number: 2, Slug: "next", Titles: map[string]string{"ja": "二"}},
		planned: true,
		pages: []File{
			{"site/content/ja/cka/02-next.md", page(`"二"`, "cka", "2", jaBody, false)},
			{"site/content/ko/cka/02-next.md", page(`"다음"`, "cka", "2", koBody, true)},
		},
	}, {
		name: "a part before all others",
		req:  PartRequest{Series: "other", Number: 1, Slug: "start"},
		pages: []File{
			{"site/content/ja/other/01-start.md", page(`"Start"`, "other", "1", jaBody, false)},
			{"site/content/ko/other/01-start.md", page(`"Start"`, "other", "1", koBody, true)},
		},
		series: "id: other\nparts:\n  - number: 1\n    title: { ja: \"Start\", ko: \"Start\" }\n    state: published\n  - number: 4\n    state: planned\n",
	}, {
		name: "the languages of the content folders, the number as wide as the series' widest, the site's own strings",
		site: `
-- content/series/long.yaml --
id: long
parts:
  - number: 7
-- content/ja/long/007-seven.md --
-- content/en/_index.md --
-- content/_drafts/x.md --
-- i18n/ja.toml --
new_part_body = "本文。\n"
`,
		req: PartRequest{Series: "long", Number: 8, Slug: "eight"},
		pages: []File{
			{"site/content/en/long/008-eight.md", page(`"Eight"`, "long", "8", enBody, false)},
			{"site/content/ja/long/008-eight.md", page(`"Eight"`, "long", "8", "本文。\n", true)},
		},
	}, {
		name: "a language without strings gets the English text; a series id that YAML would misread is quoted",
		site: `
-- kakehashi.toml --
languages = ["ko", "fr"]
-- content/series/yes.yaml --
id: "yes"
parts:
  - number: 2
`,
		req: PartRequest{Series: "yes", Number: 1, Slug: "un"},
		pages: []File{
			{"site/content/ko/yes/01-un.md", page(`"Un"`, `"yes"`, "1", koBody, false)},
			{"site/content/fr/yes/01-un.md", page(`"Un"`, `"yes"`, "1", enBody, true)},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			site := tc.site
			if site == "" {
				site = partSite
			}
			mem := newSite(t, site)
			tc.req.Date = date
			plan, err := PlanPart(context.Background(), siteView(mem), "site", tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if plan.WasPlanned != tc.planned {
				t.Errorf("WasPlanned = %v, want %v", plan.WasPlanned, tc.planned)
			}
			wantSeries := "site/content/series/" + tc.req.Series + ".yaml"
			if plan.Series != wantSeries {
				t.Errorf("Series = %q, want %q", plan.Series, wantSeries)
			}
			pg, diags := source.ParsePage("", []byte(tc.pages[0].Text))
			if pg == nil || diags.Err() != nil {
				t.Fatalf("the first page does not parse: %v", diags)
			}
			hash := translation.Hash(pg)
			for i := range tc.pages {
				tc.pages[i].Text = strings.ReplaceAll(tc.pages[i].Text, "HASH", hash)
			}
			if !slices.Equal(plan.Files, tc.pages) {
				t.Errorf("pages:\n%q\nwant\n%q", plan.Files, tc.pages)
			}
			before := memTree(t, mem)
			if err := plan.Write(mem); err != nil {
				t.Fatal(err)
			}
			after := memTree(t, mem)
			for _, f := range tc.pages {
				if after[f.Path] != f.Text {
					t.Errorf("%s written as %q, want %q", f.Path, after[f.Path], f.Text)
				}
			}
			if tc.series != "" && after[wantSeries] != tc.series {
				t.Errorf("the series file written:\n%s\nwant\n%s", after[wantSeries], tc.series)
			}
			if len(after) != len(before)+len(tc.pages) {
				t.Errorf("%d files written, want %d", len(after)-len(before), len(tc.pages))
			}
			// The first language's page is kept as the original its
			// translations were marked against.
			if err := plan.KeepOriginals(mem); err != nil {
				t.Fatal(err)
			}
			store := translation.Store{Fs: mem, Dir: "site/.kakehashi-cache/originals"}
			if orig, err := store.Load(hash); err != nil || string(orig.Src) != tc.pages[0].Text {
				t.Errorf("the original kept: %v, %v", orig, err)
			}
		})
	}
}

// TestPlanPartRefusals: what would overwrite or contradict the site is
// refused before anything is written, a UsageError when the author can
// mend it, with the same message as before the refactor.
func TestPlanPartRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		site  string // more files, over partSite's
		req   PartRequest
		want  string
		usage bool
	}{
		{"a number below 1", "", PartRequest{Series: "cka", Number: 0, Slug: "x"}, "part #0: a part's number is a positive whole number", true},
		{"a slug that is a path", "", PartRequest{Series: "cka", Number: 3, Slug: "../up"}, `the slug cannot name a page: "../up" contains '/'`, true},
		{"a hidden slug", "", PartRequest{Series: "cka", Number: 3, Slug: ".x"}, `the slug cannot name a page: ".x" starts with a dot`, true},
		{"an unknown series near one", "", PartRequest{Series: "ckx", Number: 3, Slug: "x"}, `unknown series "ckx"; did you mean "cka"?`, true},
		{"an unknown series", "", PartRequest{Series: "zzzzzz", Number: 3, Slug: "x"}, `unknown series "zzzzzz"; the series are cka, other`, true},
		{"a site without series", "-- content/series/cka.yaml --\n-- content/series/other.yaml --\n", PartRequest{Series: "s", Number: 1, Slug: "x"}, `unknown series "s": site/content/series/ has no series file yet`, true},
		{"a published part", "", PartRequest{Series: "cka", Number: 1, Slug: "x"}, `series "cka" already has part #1, published (site/content/series/cka.yaml:5)`, true},
		{"a published part without a title", "", PartRequest{Series: "cka", Number: 5, Slug: "x"}, `series "cka" already has part #5, published (site/content/series/cka.yaml:12)`, true},
		{"a page that exists", "-- content/ko/cka/03-x.md --\n", PartRequest{Series: "cka", Number: 3, Slug: "x"}, "site/content/ko/cka/03-x.md already exists; nothing was written", true},
		{"a page folder that exists", "-- content/ja/cka/03-x/index.md --\n", PartRequest{Series: "cka", Number: 3, Slug: "x"}, "site/content/ja/cka/03-x/index.md already exists; nothing was written", true},
		{"a title in a language the site has not", "", PartRequest{Series: "cka", Number: 3, Slug: "x", Titles: map[string]string{"ja": "三", "fr": "Trois", "de": "Drei"}}, `--title de=…: "de" is not one of the site's languages (ja, ko)`, true},
		{"a file name too long", "", PartRequest{Series: "cka", Number: 3, Slug: strings.Repeat("a", 253)}, `the page's file name "03-aaaaaaaaaaaaaaaaaaaaaaaaaaaaa"… would be 259 bytes long, more than the 255 a file name may have; choose a shorter SLUG`, true},
		{"a broken series file asked for", "-- content/series/bad.yaml --\nid: [\n", PartRequest{Series: "bad", Number: 1, Slug: "x"}, "site/content/series/bad.yaml:", false},
		{"a series whose parts are in brackets", "-- content/series/flow.yaml --\nid: flow\nparts: [{number: 1}]\n", PartRequest{Series: "flow", Number: 2, Slug: "x"}, `site/content/series/flow.yaml: its "parts" list is written [in brackets]`, false},
		{"a configuration in error", "-- kakehashi.toml --\nlanguages = 3\n", PartRequest{Series: "cka", Number: 3, Slug: "x"}, "site/kakehashi.toml:1:", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := newSite(t, partSite+tc.site)
			before := memTree(t, mem)
			_, err := PlanPart(context.Background(), siteView(mem), "site", tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			var u UsageError
			if errors.As(err, &u) != tc.usage {
				t.Errorf("%v: a UsageError: %v, want %v", err, !tc.usage, tc.usage)
			}
			if d := sameTree(memTree(t, mem), before); d != "" {
				t.Errorf("a refused plan changed %s", d)
			}
		})
	}
}

func TestTitleFromSlug(t *testing.T) {
	for _, tc := range []struct{ slug, want string }{
		{"ha-cluster", "Ha cluster"},
		{"etcd_backup-2", "Etcd backup 2"},
		{"高可用性", "高可用性"},
		{"élan", "Élan"},
		{"--", "--"},
	} {
		if got := titleFromSlug(tc.slug); got != tc.want {
			t.Errorf("titleFromSlug(%q) = %q, want %q", tc.slug, got, tc.want)
		}
	}
}

func TestCheckSlug(t *testing.T) {
	for _, tc := range []struct{ slug, want string }{
		{"scheduling", ""},
		{"ha_cluster-2", ""},
		{"高可用性", ""},
		{"고가용성", ""},
		{"v1.30", ""},
		{strings.Repeat("a", 255), ""},
		{"", "it is empty"},
		{"..", `".." would name a folder above or at the same level`},
		{"two words", `"two words" contains a space: a URL cannot hold one as it is; write "-" instead`},
		{"全角\u3000空白", `contains a space`},
		{" lead", `starts or ends with a space`},
		{"a/b", `"a/b" contains '/': it must be a single name, not a path`},
		{`a\b`, `contains '\\': it must be a single name, not a path`},
		{"what?", `"what?" contains '?': a URL's path ends there`},
		{"no#1", `contains '#': a URL's path ends there`},
		{"100%", `"100%" contains '%': a URL reads it as the start of an escape`},
		{`say"hi"`, `contains '"': a URL segment cannot hold quotes, < or >`},
		{"it's", `contains '\'': a URL segment cannot hold quotes`},
		{"<b>", `contains '<'`},
		{"a:b", `starts with a drive letter`}, {"ab:c", `contains ':', which a file name on Windows cannot hold`},
		{"nul\x00", `contains the control character U+0000`},
		{"tab\tx", `contains the control character U+0009`},
		{"del\x7f", `contains the control character U+007F`},
		{"c1\u0085", `contains the control character U+0085`},
		{"abc\u202egnp.exe", `contains the bidirectional control character U+202E`},
		{"rtl\u200f", `contains the bidirectional control character U+200F`},
		{"iso\u2066x", `contains the bidirectional control character U+2066`},
		{"zero\u200bwidth", `contains the invisible formatting character U+200B`},
		{".hidden", `".hidden" starts with a dot`},
		{"end.", `"end." ends with a dot`},
		{"bad\xffutf8", `is not valid UTF-8`},
		{strings.Repeat("a", 256), `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" is 256 bytes long: a file name or URL segment can be at most 255 bytes`},
		{strings.Repeat("長", 86), `is 258 bytes long`},
	} {
		err := CheckSlug(tc.slug)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckSlug(%q) = %v, want nil", tc.slug, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckSlug(%q) = %v, want %q", tc.slug, err, tc.want)
		}
	}
}
