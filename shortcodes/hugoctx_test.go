package shortcodes

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/spf13/afero"
	"github.com/yuin/goldmark"
)

// templateRegistry is a registry with the site templates files (name →
// source, under sc/).
func templateRegistry(t *testing.T, files map[string]string) *Registry {
	t.Helper()
	fs := afero.NewMemMapFs()
	for name, src := range files {
		if err := afero.WriteFile(fs, "sc/"+name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg := NewRegistry()
	if _, errs := reg.LoadTemplates(context.Background(), fs, "sc"); len(errs) > 0 {
		t.Fatal(errs)
	}
	return reg
}

// pageEnv is testEnv of a page /ja/p/ of a site under
// https://example.org/docs/, with front matter params, the site's, and
// links that resolve to /new/DEST.
func pageEnv() markdown.Env {
	env := testEnv("ja")
	env.Page = &markdown.PageInfo{Title: "頁", Params: map[string]any{"Color": "red", "Nested": map[string]any{"Key": 1}},
		URL: "/ja/p/", Permalink: "https://example.org/docs/ja/p/", SiteTitle: "サイト", SiteParams: map[string]any{"Author": "A"},
		BaseURL: "https://example.org/docs/",
		Rel:     func(p string) string { return "REL(" + p + ")" },
		Abs:     func(p string) string { return "https://example.org/docs" + p }}
	env.Param = func(key string) (any, bool) {
		if key == "color" {
			return "red", true
		}
		return nil, false
	}
	env.Link = func(dest string) markdown.LinkTarget {
		return markdown.LinkTarget{Href: "/new/" + dest, Path: "/ja/" + dest}
	}
	return env
}

// renderPage renders src as p.md with reg and pageEnv.
func renderPage(t *testing.T, reg *Registry, src string) (string, []string) {
	t.Helper()
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(reg)}})
	res := r.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src)}, pageEnv())
	return string(res.HTML), headers(res)
}

// TestHugoContext: what a site template reads of its call, its page and
// its site, with Hugo's names, and Hugo's functions, each case a page
// and the HTML it renders, exactly, with its diagnostics.
func TestHugoContext(t *testing.T) {
	tests := []struct {
		name      string
		templates map[string]string
		src, html string
		diags     []string
	}{
		{"Get by position and by name, missing ones",
			map[string]string{"g.html": `[{{ .Get 0 }}|{{ .Get 1 }}|{{ printf "%#v" (.Get 5) }}|{{ printf "%#v" (.Get "x") }}|{{ printf "%T" (.Get 1) }}]`},
			"{{< g a 2 >}}\n\n{{< g x=\"v\" >}}\n", "[a|2|&#34;&#34;|&lt;nil&gt;|int]\n[||&lt;nil&gt;|&#34;v&#34;|&lt;nil&gt;]\n", nil},
		{"Params and IsNamedParams, kakehashi's Args and Pos beside them",
			map[string]string{"p.html": `{{ .Params }} {{ .IsNamedParams }} {{ .Args }} {{ .Pos }} {{ printf "%T" .Params }}`},
			"{{< p 1 true >}}\n\n{{< p k=1.5 >}}\n\n{{< p >}}\n",
			"[1 true] false map[] [1 true] []interface {}\nmap[k:1.5] true map[k:1.5] [] map[string]interface {}\n[] false map[] [] []string\n", nil},
		{"the page and the site",
			map[string]string{"pg.html": `{{ .Page.Title }}|{{ .Page.Params.color }}|{{ .Page.Params.nested.key }}|{{ .Page.Param "color" }}|{{ .Page.Lang }}|{{ .Page.Language.Lang }}|` +
				`{{ .Page.RelPermalink }}|{{ .Page.Permalink }}|{{ .Site.Title }}|{{ .Site.Params.author }}|{{ .Site.BaseURL }}|{{ .Site.Language.Lang }}|{{ .Page.Site.Title }}|{{ .Lang }}`},
			"{{< pg >}}\n", "頁|red|1|red|ja|ja|REL(/ja/p/)|https://example.org/docs/ja/p/|サイト|A|https://example.org/docs/|ja|サイト|ja\n", nil},
		{"Name, Position, Ordinal, Parent",
			map[string]string{"o.html": `[{{ .Name }} {{ .Ordinal }} {{ .Position }} {{ .Position.Offset }} {{ with .Parent }}{{ .Name }}/{{ .Ordinal }}/{{ .Get "kind" }}{{ end }}]`},
			"{{< o >}}\n\n{{% callout kind=\"tip\" %}}\n  {{< o >}} {{< o >}}\n{{% /callout %}}\n\n{{< test/o >}}\n",
			"[o 0 p.md:1:1 0 ]\n<aside class=\"callout callout-tip\" role=\"note\">\n<p class=\"callout-title\">ヒント</p>\n" +
				"<p>[o 0 p.md:4:3 40 callout/1/tip] [o 1 p.md:4:13 50 callout/1/tip]</p>\n</aside>\n[test/o 2 p.md:7:1 78 ]\n", nil},
		{"Ordinal among the calls of a template's inner text",
			map[string]string{"w.html": `<w{{ .Ordinal }}>{{ .Inner }}</w>`, "o.html": `{{ .Ordinal }}{{ with .Parent }}@{{ .Name }}{{ end }}`},
			"{{< o >}}\n\n{{< w >}}\n{{< o >}} and {{< o >}}\n\n- {{< o >}}\n{{< /w >}}\n",
			"0\n<w1>\n0@w and 1@w\n\n- 2@w\n</w>\n", nil},
		{"InnerDeindent",
			map[string]string{"i.html": `[{{ .Inner }}]({{ .InnerDeindent }})`},
			"- a\n\n  {{< i >}}\n  one\n    two\n  {{< /i >}}\n",
			"<ul>\n<li>\n<p>a</p>\n[\n  one\n    two\n  ](\none\n  two\n)\n</li>\n</ul>\n", nil},
		{"Scratch, of the call and of the page",
			map[string]string{"s.html": `{{ .Scratch.Set "a" 1 }}{{ .Scratch.Add "a" 2 }}{{ .Scratch.Get "a" }}{{ .Page.Scratch.Add "n" 1 }}/{{ .Page.Scratch.Get "n" }}`},
			"{{< s >}} {{< s >}}\n", "<p>3/1 3/2</p>\n", nil},
		{"T and i18n, with a count",
			map[string]string{"t.html": `{{ T "callout_exam" }} {{ i18n "planned" }} {{ T "tag_articles" 1 }} {{ T "tag_articles" (dict "Count" 3) }} {{ T "planned" "x" }}`},
			"{{< t >}}\n", "試験ポイント 準備中 1 件の記事 3 件の記事 準備中\n",
			[]string{`p.md:1:1: warning: T "planned": the argument after the key is not used: it is Hugo's count, a number or a map with Count, or nothing`}},
		{"errorf and warnf at the call",
			map[string]string{"e.html": `{{ if not (.Get "src") }}{{ errorf "%s: missing src at %s" .Name .Position }}{{ end }}{{ warnf "look at %q" "x" }}ok`},
			"text\n\n  {{< e >}}\n", "<p>text</p>\nok\n",
			[]string{`p.md:3:3: e: missing src at p.md:3:3`, `p.md:3:3: warning: look at "x"`}},
		{"markdownify, safeHTML, urlize, default, printf, htmlEscape",
			map[string]string{"f.html": `{{ .Get "a" | markdownify }}|{{ "<b>x</b>" | safeHTML }}|{{ "Hello World/Ä b" | urlize }}|{{ .Get "none" | default "dflt" }}|{{ printf "%03d" 7 }}|{{ htmlEscape "<" }}`},
			"{{< f a=\"**b** [l](x.md)\" >}}\n", "<strong>b</strong> <a href=\"/new/x.md\">l</a>|<b>x</b>|hello-world/%C3%A4-b|dflt|007|&amp;lt;\n", nil},
		{"markdownify of blocks, and its shortcodes called",
			map[string]string{"f.html": `{{ "# H\n\nsee {{< part 2 >}}" | markdownify }}`},
			"{{< f >}}\n",
			"<h1 id=\"h\">H</h1>\n<p>see <a class=\"part-ref\" href=\"/ja/cka/02-control-plane/\">#2 コントロールプレーン</a></p>\n\n", nil},
		{"markdownify of an inner text with a call: the call's HTML is raw HTML to the markdown, as in Hugo",
			map[string]string{"f.html": `{{ .Inner | markdownify }}`},
			"{{< f >}}see *{{< part 2 >}}*{{< /f >}}\n",
			"see <em><!-- raw HTML omitted --><a class=\"part-ref\" href=\"/ja/cka/02-control-plane/\" title=\"コントロールプレーン\">#2</a> コントロールプレーン<!-- raw HTML omitted --></em>\n", nil},
		{"relURL and absURL",
			map[string]string{"u.html": `{{ relURL "css/a.css" }} {{ absURL "a" }} {{ relURL "https://x.org/" }} {{ absURL "/b" }}`},
			"{{< u >}}\n", "REL(/css/a.css) https://example.org/docs/a https://x.org/ https://example.org/docs/b\n",
			[]string{`p.md:1:1: warning: absURL "/b" is read from the site's root, /docs/, as every site path in kakehashi; Hugo reads a leading "/" from the host's root (write "b" for both)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for name, src := range tt.templates {
				files[name] = src
				if name == "o.html" {
					files["test/o.html"] = src
				}
			}
			html, diags := renderPage(t, templateRegistry(t, files), tt.src)
			if html != tt.html {
				t.Errorf("HTML:\n%q\nwant\n%q", html, tt.html)
			}
			if strings.Join(diags, "\n") != strings.Join(tt.diags, "\n") {
				t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(diags, "\n"), strings.Join(tt.diags, "\n"))
			}
		})
	}
}

// TestHugoInner: a site template's inner text is Hugo's .Inner, as
// written, with its calls rendered in their places, literal tags shown
// as Hugo shows them; what kakehashi does not let through (raw HTML) or
// does not call (a call in code) is warned of at its place; a {{% %}}
// call's output is read as markdown.
func TestHugoInner(t *testing.T) {
	reg := templateRegistry(t, map[string]string{
		"a.html":  `<a>{{ .Inner }}</a>`,
		"md.html": `{{ .Inner }}`,
		"h.html":  "## Made\n\n<b>x</b>",
		"no.html": `no`,
	})
	tests := []struct {
		name, src, html string
		diags           []string
	}{
		{"raw, markdown left as written", "{{< a >}}\n## Not a heading\n\n[not a link](x.md)\n{{< /a >}}\n",
			"<a>\n## Not a heading\n\n[not a link](x.md)\n</a>\n", nil},
		{"a literal tag, a built-in, a ref", "{{< a >}}{{</* x */>}} {{< part 2 >}} {{< ref \"q.md\" >}}{{< /a >}}\n",
			"<a>{{< x >}} <a class=\"part-ref\" href=\"/ja/cka/02-control-plane/\">#2 コントロールプレーン</a> /new/q.md</a>\n", nil},
		{"raw HTML omitted", "A {{< a >}}x <i>y</i>{{< /a >}}\n", "<p>A <a>x <!-- raw HTML omitted -->y<!-- raw HTML omitted --></a></p>\n",
			[]string{
				"p.md:1:14: warning: raw HTML in the inner text of {{< a >}} is omitted: kakehashi lets no raw HTML through from a page, where Hugo's {{< >}} does",
				"p.md:1:18: warning: raw HTML in the inner text of {{< a >}} is omitted: kakehashi lets no raw HTML through from a page, where Hugo's {{< >}} does"}},
		{"a call in code", "{{< a >}}\n`{{< no >}}`\n{{< /a >}}\n", "<a>\n`{{< no >}}`\n</a>\n",
			[]string{"p.md:2:2: warning: shortcode {{< no >}} in code is shown as written: kakehashi expands no shortcode in code, where Hugo expands it; write {{</* no */>}} to show it in Hugo too"}},
		{"{{% %}} reads its output as markdown, its inner text raw", "{{% md %}}\n*em* <b>x</b>\n{{% /md %}}\n",
			"<p><em>em</em> <!-- raw HTML omitted -->x<!-- raw HTML omitted --></p>\n",
			[]string{"p.md:1:1: warning: the output of {{% md %}} holds raw HTML, which its markdown omits, as Hugo's does: call it {{< md >}} for its HTML"}},
		{"{{% %}} in a paragraph, a paragraph's content", "A {{% md %}}*em*{{% /md %}} B\n", "<p>A <em>em</em> B</p>\n", nil},
		{"a heading it outputs is not in the table of contents", "{{% h %}}\n",
			"<h2 id=\"made\">Made<a class=\"anchor\" href=\"#made\" aria-label=\"この見出しへのリンク\">#</a></h2>\n<p><!-- raw HTML omitted -->x<!-- raw HTML omitted --></p>\n",
			[]string{
				"p.md:1:1: warning: the output of {{% h %}} holds raw HTML, which its markdown omits, as Hugo's does: call it {{< h >}} for its HTML",
				"p.md:1:1: warning: a heading in the output of {{% h %}} is no part of the page's table of contents, where Hugo's is"}},
		{"{{% %}} inside a template's inner text: its inner text is markdown, its output HTML", "{{< a >}}{{% md %}}*em*{{% /md %}}{{< /a >}}\n",
			"<a><em>em</em></a>\n", nil},
		{"a shortcode a template outputs with {{% %}} is text", "{{% md %}}{{</* part 2 */>}}{{% /md %}}\n", "<p>{{&lt; part 2 &gt;}}</p>\n", nil},
		{"self-closing without .Inner", "{{< no />}}\n", "no\n",
			[]string{`p.md:1:1: warning: shortcode "no" takes no inner content (its template uses no .Inner): write {{< no >}}, as Hugo refuses {{< no />}}`}},
		{"a closing tag without .Inner", "{{< no >}}{{< /no >}}\n", "",
			[]string{`p.md:1:11: unexpected closing shortcode "/no": "no" takes no inner content (its template uses no .Inner; Hugo refuses its closing tag too)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html, diags := renderPage(t, reg, tt.src)
			if tt.html != "" && html != tt.html {
				t.Errorf("HTML:\n%q\nwant\n%q", html, tt.html)
			}
			if strings.Join(diags, "\n") != strings.Join(tt.diags, "\n") {
				t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(diags, "\n"), strings.Join(tt.diags, "\n"))
			}
		})
	}
}

// TestLoadTemplatesInOrder: a template of a later folder replaces one of
// the same name of an earlier, a built-in replaced in two is named once.
func TestLoadTemplatesInOrder(t *testing.T) {
	fs := afero.NewMemMapFs()
	for p, src := range map[string]string{
		"theme/shortcodes/x.html":             "theme x",
		"theme/shortcodes/figure.html":        "theme figure",
		"theme/shortcodes/only.html":          "theme only",
		"site/layouts/shortcodes/x.html":      "site x {{ .Inner }}",
		"site/layouts/shortcodes/figure.html": "site figure",
	} {
		if err := afero.WriteFile(fs, p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg := NewRegistry()
	over, errs := reg.LoadTemplates(context.Background(), fs, "theme/shortcodes", "none", "site/layouts/shortcodes")
	if len(errs) > 0 || strings.Join(over, ",") != "figure" {
		t.Fatalf("overridden %q, errors %v", over, errs)
	}
	for name, want := range map[string]string{"x": "site/layouts/shortcodes/x.html", "figure": "site/layouts/shortcodes/figure.html", "only": "theme/shortcodes/only.html"} {
		if s, ok := reg.Lookup(name); !ok || s.Source != want {
			t.Errorf("%s: %+v, want the template %s", name, s, want)
		}
	}
	if s, _ := reg.Lookup("x"); !s.Inner {
		t.Errorf("the site's x uses .Inner")
	}
}

// TestTemplateFuncs pins Hugo's functions a template may call with
// nothing of a page: urlize, default, the Scratch's Add.
func TestTemplateFuncs(t *testing.T) {
	for in, want := range map[string]string{"Hello World": "hello-world", "a  b": "a-b", "https://x.org/a": "https//x.org/a", "日本 語": "%E6%97%A5%E6%9C%AC-%E8%AA%9E", "a%20b": "a%20b"} {
		if got := urlize(in); got != want {
			t.Errorf("urlize(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		given any
		set   bool
	}{{"", false}, {"x", true}, {0, false}, {3, true}, {false, true}, {nil, false}, {[]any{}, false}, {0.0, false}} {
		got, err := hugoDefault("d", c.given)
		var want any = "d"
		if c.set {
			want = c.given
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("default %#v = %#v, %v; want %#v", c.given, got, err, want)
		}
	}
	var s Scratch
	s.Add("n", 1)
	s.Add("n", 2.5)
	s.Add("s", "a")
	s.Add("s", "b")
	s.Add("l", []any{1})
	s.Add("l", 2)
	if s.Get("n") != 3.5 || s.Get("s") != "ab" || len(s.Get("l").([]any)) != 2 {
		t.Errorf("scratch: %v", s.Values())
	}
	if _, err := s.Add("s", 1); err == nil {
		t.Errorf("adding a number to a string: no error")
	}
}

// TestMarkdownifyDeep: a template whose markdownify calls itself stops
// MaxNesting renderings deep, with one error at the call.
func TestMarkdownifyDeep(t *testing.T) {
	reg := templateRegistry(t, map[string]string{"x.html": `<{{ "{{< x >}}" | markdownify }}>`})
	_, diags := renderPage(t, reg, "{{< x >}}\n")
	want := `p.md:1:1: shortcode "x": markdown rendered inside markdown more than 100 deep`
	if len(diags) != 1 || diags[0] != want {
		t.Errorf("diagnostics %q, want [%s]", diags, want)
	}
}
