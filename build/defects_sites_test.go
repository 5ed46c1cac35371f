package build_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/check"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// defects is the site of testdata/sites/defects.txtar, one defect of
// every kind kakehashi check finds.
func defects(t *testing.T) *sitetest.Site {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sites", "defects.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return sitetest.New(t, string(b))
}

// defectsFound is what one run of check finds in the defects site: each
// kind, and each message at its file:line:col, sorted by file and line.
var defectsFound = []struct{ code, header string }{
	{"missing-translation", `content/ja/about.md: warning: no ko translation: the page is published in ja only`},
	{"link", `content/ja/cka/01-intro.md:9:1: link to "09-missing.md": no such page (content/ja/cka/09-missing.md)`},
	{"fragment", `content/ja/cka/01-intro.md:9:24: link to "02-inside.md#nowhere": page /ja/cka/02-inside/ has no section "nowhere"`},
	{"image", `content/ja/cka/01-intro.md:11:1: image "missing.png" not found: only a page folder (content/ja/cka/01-intro/index.md) holds files beside its page; or put the image in static/ and write "/missing.png"`},
	{"shortcode", `content/ja/cka/01-intro.md:13:12: argument "members" of "quorum" must be an integer, got string "x"`},
	{"part", `content/ja/cka/04-extra.md:4:1: part 4 is not in series "cka" (content/series/cka.yaml lists #1, #2, #3)`},
	{"front-matter", `content/ja/notes.md:3:7: front matter field "date" must be a date like 2026-11-02 or 2026-11-02T09:00:00+09:00, got string "someday"`},
	{"unmarked-translation", `content/ko/_index.md: warning: translation of content/ja/_index.md is not marked: once it is up to date, run kakehashi translations mark content/ko/_index.md`},
	{"stale-translation", `content/ko/cka/01-intro.md:6:1: warning: stale translation: content/ja/cka/01-intro.md changed since this was marked on 2026-10-01; update the translation, then run kakehashi translations mark content/ko/cka/01-intro.md`},
	{"glossary", `content/ko/cka/01-intro.md:8:29: warning: glossary: "컨트롤플레인" is written "컨트롤 플레인" in ko (glossary entry control-plane)`},
	{"unmarked-translation", `content/ko/cka/02-inside.md: warning: translation of content/ja/cka/02-inside.md is not marked: once it is up to date, run kakehashi translations mark content/ko/cka/02-inside.md`},
	{"twin", `content/ko/cka/02-inside.md:9:1: warning: code block 1 differs from content/ja/cka/02-inside.md:9:1`},
	{"series", `content/series/cka.yaml:12:12: part "state" must be "published" or "planned", got "publshed"`},
	{"ui-string", `i18n/ja.toml:1:1: key "extra" is missing from i18n/ko.toml`},
	{"unused-string", `i18n/ja.toml:1:1: warning: UI string "extra" is not used`},
	{"ui-string", `layouts/shortcodes/note.html:1:25: UI string "note_label" is missing from i18n/ja.toml`},
	{"ui-string", `layouts/shortcodes/note.html:1:25: UI string "note_label" is missing from i18n/ko.toml`},
}

// TestSiteCheckFindsEverything: one run of check on a site with a defect
// of every kind reports all of them, errors and warnings, sorted by file
// and line: a missing UI string does not stop the content's checks, a
// page in error does not stop the site-wide checks of the others (nor is
// it reported again where it is linked to or translated), and a series
// file with a bad entry still lists the parts its pages are checked
// against.
func TestSiteCheckFindsEverything(t *testing.T) {
	s := defects(t)
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	ds, err := b.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, d := range ds {
		got = append(got, d.Code+" "+d.Header())
	}
	for _, f := range defectsFound {
		want = append(want, f.code+" "+f.header)
	}
	if !slices.Equal(got, want) {
		t.Errorf("check found:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestSiteBuildFindsWhatCheckFinds: build, in memory and to disk,
// reports the same errors and warnings as check, and writes nothing.
func TestSiteBuildFindsWhatCheckFinds(t *testing.T) {
	var want []string
	for _, f := range defectsFound {
		want = append(want, f.header)
	}
	ctx := context.Background()
	s := defects(t)
	for _, disk := range []bool{false, true} {
		b, err := build.New(s.Fs(), s.Options())
		if err != nil {
			t.Fatal(err)
		}
		out := afero.NewMemMapFs()
		var berr error
		if disk {
			stage, err := output.Stage(ctx, out, "/public")
			if err != nil {
				t.Fatal(err)
			}
			_, berr = b.BuildTo(ctx, stage)
			stage.Abort()
		} else {
			_, berr = b.Build(ctx)
		}
		var f *check.Failure
		if !errors.As(berr, &f) {
			t.Fatalf("disk %v: the build's error is %T: %v", disk, berr, berr)
		}
		all := slices.Concat(f.Errors, f.Warnings)
		all.Sort()
		if got := headers(all); !slices.Equal(got, want) {
			t.Errorf("disk %v: build found:\n\t%s\nwant what check finds:\n\t%s", disk, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
		if got := sitetest.Headers(berr); len(got) != len(f.Errors) {
			t.Errorf("disk %v: as a diag.List the error holds %d diagnostics, want its %d errors", disk, len(got), len(f.Errors))
		}
		afero.Walk(out, "/", func(p string, info fs.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				t.Errorf("disk %v: the failed build wrote %s", disk, p)
			}
			return nil
		})
	}
}
