package build_test

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// TestSiteNameRule: a slug, a tag or an alias that cannot be a clean URL
// segment fails the build at its value, naming the field, the value and
// the rule it breaks; every one is reported.
func TestSiteNameRule(t *testing.T) {
	long := strings.Repeat("a", 256)
	const slugMsg = `front matter field "slug" cannot be a URL segment: `
	for _, tc := range []struct {
		name     string
		old, new string // the edit of jaIntro
		want     []string
	}{
		{"slug with ?", "slug: intro", `slug: "a?b"`,
			[]string{jaIntro + `:5:7: ` + slugMsg + `"a?b" contains '?': a URL's path ends there, so no link would reach it`}},
		{"slug with #", "slug: intro", `slug: "a#b"`,
			[]string{jaIntro + `:5:7: ` + slugMsg + `"a#b" contains '#': a URL's path ends there, so no link would reach it`}},
		{"slug with an escaped ..", "slug: intro", `slug: "%2e%2e"`,
			[]string{jaIntro + `:5:7: ` + slugMsg + `"%2e%2e" contains '%': a URL reads it as the start of an escape (%2e is ".")`}},
		{"slug with a space", "slug: intro", `slug: "my intro"`,
			[]string{jaIntro + `:5:7: ` + slugMsg + `"my intro" contains a space: a URL cannot hold one as it is; write "-" instead`}},
		{"slug of 255 bytes", "slug: intro", "slug: " + long[:255], nil},
		{"slug of 256 bytes", "slug: intro", "slug: " + long,
			[]string{jaIntro + `:5:7: ` + slugMsg + `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" is 256 bytes long: a file name or URL segment can be at most 255 bytes`}},
		{"tag with #", "control plane", "C#",
			[]string{jaIntro + `:10:20: tag "C#" cannot be a URL segment: "c#" contains '#': a URL's path ends there, so no link would reach it`}},
		{"tag of 256 bytes", "control plane", long,
			[]string{jaIntro + `:10:20: tag "` + long + `" cannot be a URL segment: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" is 256 bytes long: a file name or URL segment can be at most 255 bytes`}},
		{"tag with a space is its slug's", "control plane", "control   plane", nil},
		{"aliases with quotes, <>, NUL and a bidi control", "  - 01-intro\n",
			"  - 01-intro\n  - /ja/it's/\n  - \"/ja/<b>/\"\n  - \"/ja/a\\0b/\"\n  - \"/ja/x\\u202Ey/\"\n",
			[]string{
				jaIntro + `:14:5: alias "/ja/it's/" cannot be published: "it's" contains '\'': a URL segment cannot hold quotes, < or >`,
				jaIntro + `:15:5: alias "/ja/<b>/" cannot be published: "<b>" contains '<': a URL segment cannot hold quotes, < or >`,
				jaIntro + `:16:5: alias "/ja/a\x00b/" cannot be published: "a\x00b" contains the control character U+0000`,
				jaIntro + `:17:5: alias "/ja/x\u202ey/" cannot be published: "x\u202ey" contains the bidirectional control character U+202E: the name would read otherwise than it is`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sitetest.New(t, twoSeries(t)).Replace(jaIntro, tc.old, tc.new)
			if tc.want == nil {
				s.Build()
				return
			}
			s.BuildFails(tc.want...)
		})
	}
}

// TestSiteNameRuleFiles: page files, page folders and the files a page
// folder holds follow the same rule as slugs, at their paths.
func TestSiteNameRuleFiles(t *testing.T) {
	page := "---\ntitle: x\n---\n"
	sitetest.New(t, twoSeries(t)).
		WriteFile("content/ja/what?.md", page).
		WriteFile("content/ja/50%/index.md", page).
		BuildFails(
			`content/ja/50%: this folder name cannot be published: "50%" contains '%': a URL reads it as the start of an escape (%2e is ".")`,
			`content/ja/what?.md: this file name cannot be published: "what?.md" contains '?': a URL's path ends there, so no link would reach it`)
	// A file of a page folder is published, so its name is checked
	// there, when the site is resolved.
	sitetest.New(t, twoSeries(t)).
		WriteFile("content/ja/shots/index.md", page).
		WriteFile("content/ja/shots/screen shot.png", "png").
		WriteFile("content/ja/shots/it's.png", "png").
		WriteFile("content/ja/elsewhere/it's.png", "png").
		BuildFails(
			`content/ja/shots/it's.png: this file name cannot be published: "it's.png" contains '\'': a URL segment cannot hold quotes, < or >`,
			`content/ja/shots/screen shot.png: this file name cannot be published: "screen shot.png" contains a space: a URL cannot hold one as it is; write "-" instead`)
}

// TestSiteCaseCollision: two pages whose names differ only in case are
// one error naming both files; a slug whose URL differs only in case
// from another page's is an error at the slug.
func TestSiteCaseCollision(t *testing.T) {
	sitetest.New(t, twoSeries(t)).WriteFile("content/ja/ckad/01-Pods.md", "---\ntitle: x\n---\n").
		BuildFails(jaPods + ": the name of this file differs only in case from content/ja/ckad/01-Pods.md: on a case-insensitive or normalizing file system (macOS, Windows) the two are one, and their URLs collide; rename one")
	sitetest.New(t, twoSeries(t)).WriteFile("content/ja/ckad/pods.md", "---\ntitle: x\nslug: 01-Pods\n---\n").
		BuildFails("content/ja/ckad/pods.md:3:7: page URL /ja/ckad/01-Pods/ differs only in case from /ja/ckad/01-pods/, the URL of " + jaPods + ": on a case-insensitive file system or server the two are one; change one")
}

// TestSiteWebURLs: a baseURL or editURL that is not an http(s) address
// fails the build at its value in kakehashi.toml.
func TestSiteWebURLs(t *testing.T) {
	sitetest.New(t, twoSeries(t)).
		WriteFile("kakehashi.toml", "baseURL = \"javascript:alert(1)//\"\neditURL = \"data:text/html,{path}\"\n").
		BuildFails(
			`kakehashi.toml:1:11: "baseURL" must be an http:// or https:// URL, not javascript:, such as https://example.org/course/`,
			`kakehashi.toml:2:11: "editURL" must be an http:// or https:// URL, not data:, such as https://github.com/me/course/edit/main/{path}`)
	sitetest.New(t, twoSeries(t)).
		WriteFile("kakehashi.toml", "editURL = \"file:///home/me/course/{path}\"\n").
		BuildFails(`kakehashi.toml:1:11: "editURL" must be an http:// or https:// URL, not file:, such as https://github.com/me/course/edit/main/{path}`)
}

// TestSiteUntitledPage: the empty file a failed kakehashi new part
// leaves is a warning at the file, so that check --strict fails on it;
// the build still succeeds.
func TestSiteUntitledPage(t *testing.T) {
	const empty = "content/ja/cka/02-next.md"
	want := empty + ": warning: the page is empty: it has no front matter, so no title; write it (title: … between --- lines) or delete it"
	s := sitetest.New(t, twoSeries(t)).WriteFile(empty, "").Build()
	if !slices.Contains(s.Warnings(), want) {
		t.Errorf("warnings:\n\t%s\nwant among them:\n\t%s", strings.Join(s.Warnings(), "\n\t"), want)
	}
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	ds, err := b.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(headers(ds.Warnings()), want) {
		t.Errorf("check's warnings:\n\t%s\nwant among them:\n\t%s", strings.Join(headers(ds.Warnings()), "\n\t"), want)
	}
}

// TestSiteNamesCheckMatchesBuild: kakehashi check and kakehashi build (to
// disk) report the same errors for bad names, the configuration's, the
// front matter's (every field at once) and those of the whole site's
// names, in one run; and the build writes nothing.
func TestSiteNamesCheckMatchesBuild(t *testing.T) {
	s := sitetest.New(t, twoSeries(t))
	s.Replace(jaIntro, "slug: intro", "slug: "+strings.Repeat("長", 86), "control plane", `"a?b"`, "  - 01-intro\n", "  - \"x\\u200Fy\"\n").
		WriteFile("content/ja/ckad/01-Pods.md", "---\ntitle: x\n---\n").
		WriteFile("kakehashi.toml", "editURL = \"javascript:x/{path}\"\n")
	ctx := context.Background()
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	checked, err := b.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := afero.NewMemMapFs()
	stage, err := output.Stage(ctx, out, "/public")
	if err != nil {
		t.Fatal(err)
	}
	b, err = build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	_, berr := b.BuildTo(ctx, stage)
	if berr == nil {
		t.Fatal("the build succeeded")
	}
	stage.Abort()
	got, want := sitetest.Headers(berr), headers(checked.Errors())
	if !slices.Equal(got, want) {
		t.Errorf("build's errors:\n\t%s\ncheck's:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	wantErrs := []string{
		jaIntro + `:5:7: front matter field "slug" cannot be a URL segment: "` + strings.Repeat("長", 32) + `…" is 258 bytes long: a file name or URL segment can be at most 255 bytes`,
		jaIntro + `:10:20: tag "a?b" cannot be a URL segment: "a?b" contains '?': a URL's path ends there, so no link would reach it`,
		jaIntro + `:13:5: alias "x\u200fy" cannot be published: "x\u200fy" contains the bidirectional control character U+200F: the name would read otherwise than it is`,
		`content/ja/ckad/01-pods.md: the name of this file differs only in case from content/ja/ckad/01-Pods.md: on a case-insensitive or normalizing file system (macOS, Windows) the two are one, and their URLs collide; rename one`,
		`kakehashi.toml:1:11: "editURL" must be an http:// or https:// URL, not javascript:, such as https://github.com/me/course/edit/main/{path}`,
	}
	if !slices.Equal(got, wantErrs) {
		t.Errorf("errors:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(wantErrs, "\n\t"))
	}
	afero.Walk(out, "/", func(p string, info fs.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			t.Errorf("the failed build wrote %s", p)
		}
		return nil
	})
}
