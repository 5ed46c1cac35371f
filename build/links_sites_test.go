package build_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// contentChecks checks the site's input afresh, as kakehashi check does,
// and returns what the whole-site checks of links' sections and of twins
// found.
func contentChecks(t *testing.T, s *sitetest.Site) []string {
	t.Helper()
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	ds, err := b.Check(context.Background())
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	var out []string
	for _, d := range ds {
		if d.Code == "fragment" || d.Code == "twin" {
			out = append(out, d.Header())
		}
	}
	return out
}

func assertLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// linkBody is part 1's body with links of each kind: to a page's source
// file (relative, from the site root as on GitHub, with a fragment), to
// pages and files by URL, to a section of its own.
const linkBody = "次は [#2](02-inside.md) と [仕組みの一覧](02-inside.md#ノード一覧)。\n" +
	"[ルート](/content/ja/cka/02-inside.md) [韓国語](../../ko/cka/02-inside.md) [URL](/ja/cka/02-inside/) [相対](../02-inside/)\n" +
	"[地図](/sitemap.xml) [CSS](/css/main.css) [外](https://example.org/x.md) [上](#はじめに) [参照][r]\n\n" +
	"## はじめに\n\n## 別名 {#alias}\n\n[別名へ](#alias) `[コード](03-missing.md)`\n\n[r]: 02-inside.md\n"

// TestSiteLinksToSourceFiles: a link to a page's markdown file links to
// the page, relative from the site root as the page's other links are
// (render.Link), keeping its fragment; a site-absolute link becomes
// relative the same way; the rest stay as written. In an export, links to folders
// name their index.html.
func TestSiteLinksToSourceFiles(t *testing.T) {
	for _, explicit := range []bool{false, true} {
		s := sitetest.New(t, twoParts(t), sitetest.WithOptions(func(o *build.Options) { o.ExplicitIndex = explicit }))
		// The sections linked to are there, and the twins have the
		// headings of their originals.
		s.Replace(ja1, "次は #2 、その次は #3 です。\n", linkBody).Append(ko1, "\n## 시작\n\n## 별명\n").
			Append(ja2, "\n## ノード一覧\n").Append(ko2, "\n## 노드 목록\n").Build().AssertWarnings()
		idx := ""
		if explicit {
			idx = "index.html"
		}
		s.AssertContains("ja/cka/01-intro/index.html",
			`<a href="../../../ja/cka/02-inside/`+idx+`">#2</a>`,
			`<a href="../../../ja/cka/02-inside/`+idx+`#%E3%83%8E%E3%83%BC%E3%83%89%E4%B8%80%E8%A6%A7">仕組みの一覧</a>`,
			`<a href="../../../ja/cka/02-inside/`+idx+`">ルート</a>`,
			`<a href="../../../ko/cka/02-inside/`+idx+`">韓国語</a>`,
			`<a href="../../../ja/cka/02-inside/`+idx+`">URL</a>`,
			`<a href="../02-inside/`+idx+`">相対</a>`,
			`<a href="../../../sitemap.xml">地図</a>`,
			`<a href="../../../css/main.css">CSS</a>`,
			`<a href="https://example.org/x.md">外</a>`,
			`<a href="#%E3%81%AF%E3%81%98%E3%82%81%E3%81%AB">上</a>`,
			`<a href="../../../ja/cka/02-inside/`+idx+`">参照</a>`,
			`<h2 id="alias">別名`, `<a href="#alias">別名へ</a>`,
			`<code>[コード](03-missing.md)</code>`)
	}
}

// TestSiteBrokenLinks: a link to a markdown file that is no page is an
// error, at the link's '[' (its column in characters); a link to a URL of
// the site that names nothing, or to a section the page lacks, a warning.
func TestSiteBrokenLinks(t *testing.T) {
	s := sitetest.New(t, twoParts(t))
	s.Replace(ja1, "次は #2 、その次は #3 です。\n", "次は [第三回](03-missing.md#x)。\n\n{{< callout >}}\n中でも [参照][m]\n{{< /callout >}}\n\n[m]: ../cka/04-gone.md\n")
	s.BuildFails(
		ja1+`:7:4: link to "03-missing.md#x": no such page (content/ja/cka/03-missing.md)`,
		ja1+`:10:5: link to "../cka/04-gone.md": no such page (content/ja/cka/04-gone.md)`,
	).AssertErrorText("    7 | 次は [第三回](03-missing.md#x)。", "      |      ^")
	s.Replace(ja1, "[第三回](03-missing.md#x)", "[第三回](/ja/cka/99-x/) と [節](#無い節) と [近い](#はじめ)\n\n## はじめに", "[m]: ../cka/04-gone.md", "[m]: ../02-inside/nope.png").
		Append(ko1, "\n## 시작\n").Build().
		AssertWarnings(
			ja1+`:7:4: warning: link to "/ja/cka/99-x/": no such page or file`,
			ja1+`:7:27: warning: link to "#無い節": this page has no section "無い節"`,
			ja1+`:7:39: warning: link to "#はじめ": this page has no section "はじめ"; did you mean "はじめに"?`,
			ja1+`:12:5: warning: link to "../02-inside/nope.png": no such page or file`,
		)
}

// TestSitePartNotListed: "#N" to a part the series does not list is an
// error, as {{< part N >}} is.
func TestSitePartNotListed(t *testing.T) {
	s := sitetest.New(t, twoParts(t))
	s.Replace(ja1, "その次は #3 です。", "その次は #99 と {{< part 98 >}} です。").
		BuildFails(ja1+`:7:13: #99: the series has no part 99`, ja1+`:7:19: part 98 is not in this series`)
}

// TestSiteContentChecks: the whole-site checks report a link to a
// section another page lacks, and translations whose code blocks or
// headings differ from the original's, at the translation.
func TestSiteContentChecks(t *testing.T) {
	s := sitetest.New(t, twoParts(t))
	if got := contentChecks(t, s); len(got) > 0 {
		t.Fatalf("a clean site: %v", got)
	}
	s.Replace(ja1, "その次は #3 です。", "その次は #3 です。[一覧](02-inside.md#ノードの一覧) [上](02-inside.md#main) [脚注](02-inside.md#fn:1)")
	s.Append(ja2, "\n## ノード一覧\n\n脚注[^1]。\n\n[^1]: 注。\n")
	s.Append(ko2, "\n### 노드 목록\n\n```console\n$ kubectl get pods\n```\n")
	s.Replace(ko2, "cp-1   Ready", "cp-1   NotReady  # 설명")
	assertLines(t, "checks", contentChecks(t, s),
		ja1+`:7:19: link to "02-inside.md#ノードの一覧": page /ja/cka/02-inside/ has no section "ノードの一覧"; did you mean "ノード一覧"?`,
		ko2+`:9:1: warning: code block 1 differs from `+ja2+`:9:1`,
		ko2+`:15:1: warning: heading structure differs from `+ja2+`: heading 1 is h3 here, h2 there (ja:15:1)`,
	)
}

// TestSiteCourseLinksClean: the bundled course has no broken link, and
// its translations no drift the checks see.
func TestSiteCourseLinksClean(t *testing.T) {
	s := sitetest.Test(t, "", sitetest.Course())
	for _, w := range s.Warnings() {
		if strings.Contains(w, "link to") || strings.Contains(w, "differs") {
			t.Errorf("course: %s", w)
		}
	}
	if got := contentChecks(t, s); len(got) > 0 {
		t.Errorf("course checks:\n\t%s", strings.Join(got, "\n\t"))
	}
}
