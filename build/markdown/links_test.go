package markdown_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// TestLinksThroughEnv: every link's destination, inline or by reference,
// in prose, tables and a shortcode's inner markdown, goes through
// Env.Link, which rewrites it and reports at the link's '[' (columns in
// characters, lines of the whole file); links in code are not links.
// Fragments of the page itself are checked against its ids.
func TestLinksThroughEnv(t *testing.T) {
	src := "---\ntitle: x\n---\n日本語の [一](a.md) と [二][r]。\n\n" +
		"{{< callout >}}\n中の [三](b.md#見出し)\n{{< /callout >}}\n\n" +
		"| 表 |\n|---|\n| [四](/ja/x/) |\n\n`[コード](c.md)`\n\n```\n[塊](d.md)\n```\n\n" +
		"## 見出し {#midashi}\n\n[五](#midashi) [六](#無い) [七](#midasi)[^1]\n\n[^1]: 注。\n\n[r]: ref.md\n"
	body := strings.Index(src, "日本語")
	var seen []string
	env := markdown.Env{Lang: "ja", Link: func(dest string) markdown.LinkTarget {
		seen = append(seen, dest)
		if strings.HasPrefix(dest, "#") {
			return markdown.LinkTarget{Path: "/ja/p/", Fragment: markdown.UnescapeFragment(dest[1:]), Self: true}
		}
		return markdown.LinkTarget{Href: "/new/" + dest, Path: "/ja/" + dest, Problem: "saw " + dest, Severity: diag.Warning}
	}}
	md := markdown.New(markdown.Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	res := md.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src), BodyStart: body}, env)
	if got, want := strings.Join(seen, " "), "a.md ref.md b.md#見出し /ja/x/ #midashi #無い #midasi"; got != want {
		t.Errorf("Env.Link saw %s\nwant %s", got, want)
	}
	var got []string
	for _, d := range res.Diags {
		got = append(got, d.Header())
	}
	want := []string{
		`p.md:4:6: warning: saw a.md`,
		`p.md:4:18: warning: saw ref.md`,
		`p.md:7:4: warning: saw b.md#見出し`,
		`p.md:12:3: warning: saw /ja/x/`,
		`p.md:22:15: warning: link to "#無い": this page has no section "無い"`,
		`p.md:22:24: warning: link to "#midasi": this page has no section "midasi"; did you mean "midashi"?`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	html := string(res.HTML)
	for _, w := range []string{`<a href="/new/a.md">一</a>`, `<a href="/new/ref.md">二</a>`, `<a href="/new/b.md#%E8%A6%8B%E5%87%BA%E3%81%97">三</a>`,
		`<a href="/new//ja/x/">四</a>`, `<code>[コード](c.md)</code>`, `[塊](d.md)`, `<h2 id="midashi">`, `<a href="#midashi">五</a>`} {
		if !strings.Contains(html, w) {
			t.Errorf("HTML lacks %s:\n%s", w, html)
		}
	}
	var links []string
	for _, l := range res.Links {
		links = append(links, fmt.Sprintf("%s:%d:%d %s %s#%s | %s", l.At.Path, l.At.Line, l.At.Col, l.Dest, l.Path, l.Fragment, l.At.Source))
	}
	wantLinks := []string{
		"p.md:4:6 a.md /ja/a.md# | 日本語の [一](a.md) と [二][r]。",
		"p.md:4:18 ref.md /ja/ref.md# | 日本語の [一](a.md) と [二][r]。",
		"p.md:7:4 b.md#見出し /ja/b.md#見出し# | 中の [三](b.md#見出し)",
		"p.md:12:3 /ja/x/ /ja//ja/x/# | | [四](/ja/x/) |",
		"p.md:22:1 #midashi /ja/p/#midashi | [五](#midashi) [六](#無い) [七](#midasi)[^1]",
		"p.md:22:15 #無い /ja/p/#無い | [五](#midashi) [六](#無い) [七](#midasi)[^1]",
		"p.md:22:24 #midasi /ja/p/#midasi | [五](#midashi) [六](#無い) [七](#midasi)[^1]",
	}
	if strings.Join(links, "\n") != strings.Join(wantLinks, "\n") {
		t.Errorf("links:\n\t%s\nwant:\n\t%s", strings.Join(links, "\n\t"), strings.Join(wantLinks, "\n\t"))
	}
	if got, want := strings.Join(res.IDs, " "), "midashi fnref:1 fn:1"; got != want {
		t.Errorf("ids %q, want %q", got, want)
	}
}

// TestLinksWithoutEnv: without Env.Link links stay as written and none
// is listed; the ids and the outline are there all the same.
func TestLinksWithoutEnv(t *testing.T) {
	src := "# 題 {#top-title}\n\n[a](b.md) [c](#nowhere)\n\n    indented\n\n```bash {title=\"x\"}\necho 1  \n```\n\n### 小見出し\n"
	res := markdown.New(markdown.Options{}).Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src)}, markdown.Env{Lang: "ja"})
	if !strings.Contains(string(res.HTML), `<a href="b.md">a</a>`) || len(res.Links) > 0 || len(res.Diags) > 0 {
		t.Errorf("links changed without Env.Link: %v %v\n%s", res.Links, res.Diags, res.HTML)
	}
	var got []string
	for _, b := range res.Outline {
		switch b.Kind {
		case markdown.BlockHeading:
			got = append(got, fmt.Sprintf("%d:%d h%d #%s %s", b.Line, b.Col, b.Level, b.ID, b.Text))
		case markdown.BlockCode:
			got = append(got, fmt.Sprintf("%d:%d code %q %x", b.Line, b.Col, b.Info, b.CodeSum))
		}
	}
	want := []string{
		`1:1 h1 #top-title 題`,
		fmt.Sprintf(`5:5 code "" %x`, markdown.CodeSum("indented")),
		fmt.Sprintf(`7:1 code "bash {title=\"x\"}" %x`, markdown.CodeSum("echo 1")),
		`11:1 h3 #小見出し 小見出し`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("outline:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if got := strings.Join(res.IDs, " "); got != "top-title 小見出し" {
		t.Errorf("ids %q", got)
	}
}

func TestHTMLIDs(t *testing.T) {
	got := markdown.HTMLIDs([]byte(`<main id="main"><p data-id="no">id="no" <a id="a&amp;b" href="#x">` + "<span\nid=\"nl\"></span>"))
	if strings.Join(got, "|") != "main|a&b" {
		t.Errorf("HTMLIDs = %q", got)
	}
}
