package sitetest_test

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

const site = `
-- content/series/s.yaml --
id: s
title: {ja: S, ko: S}
parts:
  - number: 1
    title: {ja: 一, ko: 일}
    state: published
-- content/ja/s/01-one.md --
---
title: 一
series: s
part: 1
---
最初の回です。
-- content/ko/s/01-one.md --
---
title: 일
series: s
part: 1
---
첫 회입니다.
`

// TestHarness runs each helper once: a build, edits and rebuilds, the
// assertions on files, a failing build and its diagnostics.
func TestHarness(t *testing.T) {
	s := sitetest.Test(t, site)
	s.AssertExists("ja/s/01-one/index.html", "ko/s/01-one/index.html", "sitemap.xml").
		AssertAbsent("ja/s/02-two/index.html").
		AssertContains("ja/s/01-one/index.html", "最初の回です。", `<html lang="ja"`).
		AssertNotContains("ja/s/01-one/index.html", "첫 회입니다.").
		AssertEquals("robots.txt", s.File("robots.txt"))
	if got := s.Read("content/ja/s/01-one.md"); !strings.Contains(got, "最初の回") {
		t.Errorf("Read: %q", got)
	}
	if s.Read("themes/default/layouts/baseof.html") == "" {
		t.Error("the repository's theme is not laid under the site")
	}
	// The UI strings are the embedded ones, as an author's site has them.
	if ok, _ := afero.Exists(s.Fs(), "i18n"); ok {
		t.Error("the repository's i18n/ is laid under the site")
	}
	s.AssertContains("ja/s/01-one/index.html", "目次")

	s.Replace("content/ja/s/01-one.md", "最初の回", "第一回").Build().
		AssertChanged("ja/s/01-one/index.html").
		AssertRendered(1).
		AssertContains("ja/s/01-one/index.html", "第一回です。").
		AssertFresh()

	s.Replace("content/ja/s/01-one.md", "part: 1", "part: one").
		BuildFails(`content/ja/s/01-one.md:4:7: front matter field "part" must be a positive whole number, got string "one"`).
		AssertErrorText("    4 | part: one").
		AssertContains("ja/s/01-one/index.html", "第一回です。") // the last good build

	s.Replace("content/ja/s/01-one.md", "part: one", "part: 1").Build().AssertFresh()

	s.AssertWarnings()
	s.Remove("content/ko/s/01-one.md").Build().
		AssertChanged("ko/s/01-one/index.html").
		AssertContains("ko/s/01-one/index.html", `data-translation-state="missing"`).
		AssertWarnings("content/series/s.yaml:4:5: warning: part #1 is published but has no ko page").
		AssertFresh()
}

// TestOverride: a file of the archive replaces the repository's.
func TestOverride(t *testing.T) {
	sitetest.Test(t, site+"-- themes/default/layouts/404.html --\n{{define \"title\"}}404{{end}}{{define \"main\"}}NOT HERE{{end}}\n").
		AssertContains("404.html", "NOT HERE")
}

// TestOnDisk: a site on disk builds the same as in memory, and its edits
// reach the disk.
func TestOnDisk(t *testing.T) {
	mem := sitetest.Test(t, site)
	disk := sitetest.Test(t, site, sitetest.OnDisk())
	if disk.Root() == "" {
		t.Fatal("no folder")
	}
	if d := sitetest.Diff(mem.Result(), disk.Result()); d != "" {
		t.Fatalf("on disk and in memory differ: %s", d)
	}
	disk.Append("content/ja/s/01-one.md", "追記。\n").Build().
		AssertContains("ja/s/01-one/index.html", "追記。").
		AssertFresh()
}
