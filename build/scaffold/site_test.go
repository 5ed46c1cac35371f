package scaffold

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// TestPlanSite: the starter site's files, in a new folder or an empty
// one, its translations marked up to date with their originals, kept in
// the store of marked originals.
func TestPlanSite(t *testing.T) {
	ctx := context.Background()
	for _, dir := range []string{"new/course", "empty"} {
		t.Run(dir, func(t *testing.T) {
			mem := afero.NewMemMapFs()
			mem.MkdirAll("empty", 0o755)
			opts := SiteOptions{Date: time.Date(2026, 3, 4, 23, 0, 0, 0, time.UTC), Ignore: []string{"public-offline", "public-single"}}
			plan, err := PlanSite(ctx, mem, dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, f := range plan.Files {
				paths = append(paths, f.Path)
			}
			want := []string{"kakehashi.toml", ".gitignore", "content/series/course.yaml", "content/ja/_index.md", "content/ko/_index.md", "content/ja/course/01-intro.md", "content/ko/course/01-intro.md"}
			for i := range want {
				want[i] = path.Join(dir, want[i])
			}
			if !slices.Equal(paths, want) {
				t.Errorf("files %q, want %q", paths, want)
			}
			if plan.Series != "" || plan.WasPlanned {
				t.Errorf("a new site edits a series file: %q, %v", plan.Series, plan.WasPlanned)
			}
			if err := plan.Write(mem); err != nil {
				t.Fatal(err)
			}
			if err := plan.KeepOriginals(mem); err != nil {
				t.Fatal(err)
			}
			read := func(p string) string {
				t.Helper()
				b, err := afero.ReadFile(mem, path.Join(dir, p))
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			if got := read(".gitignore"); got != "/public/\n/public-offline/\n/public-single/\n/.kakehashi-cache/\n" {
				t.Errorf(".gitignore: %q", got)
			}
			if got := read("content/ja/course/01-intro.md"); !strings.Contains(got, "\ndate: 2026-03-04\n") {
				t.Errorf("the page is not dated 2026-03-04:\n%s", got)
			}
			// The configuration lists the languages the marking went by.
			cfg, diags := config.Load(ctx, afero.NewBasePathFs(mem, dir), config.File)
			if len(diags.Errors()) > 0 {
				t.Fatal(diags)
			}
			langs, _ := starterSite("", "")
			if !slices.Equal(cfg.Languages, langs) {
				t.Fatalf("kakehashi.toml lists %q, the starter marks by %q", cfg.Languages, langs)
			}
			store := translation.Store{Fs: mem, Dir: path.Join(dir, ".kakehashi-cache/originals")}
			for _, p := range []string{"_index.md", "course/01-intro.md"} {
				orig := read("content/" + langs[0] + "/" + p)
				pg, _ := source.ParsePage(p, []byte(orig))
				h := translation.Hash(pg)
				for _, l := range langs[1:] {
					tr, _ := source.ParsePage(p, []byte(read("content/"+l+"/"+p)))
					if tr.Meta.Translated.String() != "2026-03-04 "+h {
						t.Errorf("content/%s/%s: translated %q, want %q", l, p, tr.Meta.Translated, "2026-03-04 "+h)
					}
				}
				if kept, err := store.Load(h); err != nil || string(kept.Src) != orig {
					t.Errorf("the original of %s kept: %v", p, err)
				}
			}
			if pg, _ := source.ParsePage("x", []byte(read("content/"+langs[0]+"/_index.md"))); !pg.Meta.Translated.IsZero() {
				t.Errorf("an original is marked as a translation: %v", pg.Meta.Translated)
			}
		})
	}
}

// TestPlanSiteRefusals: a folder name that is empty, a file, or a folder
// that is not empty is refused, a UsageError, and nothing is written.
func TestPlanSiteRefusals(t *testing.T) {
	for _, tc := range []struct{ dir, want string }{
		{"", `the folder name "" is empty; name a new folder`},
		{" ", `the folder name " " is empty; name a new folder`},
		{"plain.txt", "plain.txt exists and is not a folder"},
		{"full", "full is not empty; choose a new folder or an empty one"},
	} {
		mem := afero.NewMemMapFs()
		afero.WriteFile(mem, "plain.txt", []byte("x"), 0o644)
		afero.WriteFile(mem, "full/notes.txt", []byte("x"), 0o644)
		before := memTreeAt(t, mem, ".")
		if len(before) != 2 {
			t.Fatalf("the test's files: %q", before)
		}
		_, err := PlanSite(context.Background(), mem, tc.dir, SiteOptions{})
		var u UsageError
		if err == nil || err.Error() != tc.want || !errors.As(err, &u) {
			t.Errorf("PlanSite(%q) = %v, want the UsageError %q", tc.dir, err, tc.want)
		}
		if d := sameTree(memTreeAt(t, mem, "."), before); d != "" {
			t.Errorf("PlanSite(%q) changed %s", tc.dir, d)
		}
	}
}
