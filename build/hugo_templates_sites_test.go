package build_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// hugoCase is a case of Hugo's tests of shortcode templates, ported as a
// whole site: the templates (layouts/shortcodes/NAME.html, as a txtar
// archive of NAME.html files), a page's body, and the HTML Hugo renders
// for that body (its .Content).
type hugoCase struct {
	name string
	// from names Hugo's test: its file, version and function.
	from      string
	templates string
	body      string
	// hugo is the body's HTML as Hugo 0.111.3 renders it (Debian's
	// /usr/bin/hugo; TestHugoTemplateCasesInHugo checks it). Where
	// v0.169.0's source reads otherwise, the case says so.
	hugo string
	// differs, when set, says why kakehashi renders want instead of
	// hugo: a deliberate difference, which a warning names at its place
	// (diags); without want, kakehashi refuses the page (diags are the
	// errors).
	differs string
	want    string
	// diags are kakehashi's diagnostics for the page, "path:line:col:
	// message" (warnings with "warning: "); for a case Hugo refuses,
	// the build's errors.
	diags []string
	// fails: Hugo refuses the page; hugo holds what its error says.
	fails bool
	// bare: the templates end without a newline, as the v0.90.0 unit
	// cases wrote them (a txtar file ends with one).
	bare bool
}

// files are the templates of c, by their paths in the site.
func (c hugoCase) files() map[string]string {
	fs := map[string]string{}
	for _, f := range txtar.Parse([]byte(c.templates)).Files {
		data := string(f.Data)
		if c.bare {
			data = strings.TrimSuffix(data, "\n")
		}
		fs["layouts/shortcodes/"+f.Name] = data
	}
	return fs
}

// Hugo's tests of shortcode templates come from hugolib/shortcode_test.go:
// v0.90.0 had the unit cases (TestNonSC … TestShortcodesInSite), v0.152.2
// the site cases (TestShortcodePreserveOrder … TestShortcodeInCodeFenceHyphen),
// and v0.153.0 removed the file (v0.169.0's holds only a benchmark); the
// errors of a template come from v0.169.0's
// hugolib/hugo_sites_build_errors_test.go, their call indented 3 spaces,
// not 9 (a line indented 4 is code in kakehashi, which calls no shortcode
// in code). Cases of output formats other
// than HTML, of .md shortcode templates and of Hugo's configuration
// (markup.goldmark.renderer.unsafe, $_hugo_config) are left out.
var hugoCases = []hugoCase{
	{name: "literal", from: "v0.90.0 TestNonSC",
		body: "{{%/* movie 47238zzb */%}}\n",
		hugo: "<p>{{% movie 47238zzb %}}</p>\n"},
	{name: "hyphenated name", from: "v0.90.0 TestHyphenatedSC", bare: true,
		templates: "-- hyphenated-video.html --\nPlaying Video {{ .Get 0 }}",
		body:      "{{< hyphenated-video 47238zzb >}}\n",
		hugo:      "Playing Video 47238zzb\n"},
	{name: "no trailing newline", from: "v0.90.0 TestNoTrailingNewline", bare: true,
		templates: "-- a.html --\n{{ .Get 0 }}",
		body:      "ab{{< a c >}}d\n",
		hugo:      "<p>abcd</p>\n"},
	{name: "positional", from: "v0.90.0 TestPositionalParamSC", bare: true,
		templates: "-- video.html --\nPlaying Video {{ .Get 0 }}",
		body:      "{{< video 47238zzb >}}\n\n{{< video 47238zzb 132 >}}\n\n{{<video 47238zzb>}}\n\n{{<video 47238zzb    >}}\n\n{{<   video   47238zzb    >}}\n",
		hugo:      "Playing Video 47238zzb\nPlaying Video 47238zzb\nPlaying Video 47238zzb\nPlaying Video 47238zzb\nPlaying Video 47238zzb\n"},
	{name: "positional out of bounds", from: "v0.90.0 TestPositionalParamIndexOutOfBounds", bare: true,
		templates: "-- video.html --\nPlaying Video {{ with .Get 1 }}{{ . }}{{ else }}Missing{{ end }}",
		body:      "{{< video 47238zzb >}}\n",
		hugo:      "Playing Video Missing\n"},
	{name: "named", from: "v0.90.0 TestNamedParamSC", bare: true,
		templates: "-- img.html --\n<img{{ with .Get \"src\" }} src=\"{{.}}\"{{end}}{{with .Get \"class\"}} class=\"{{.}}\"{{end}}>",
		body:      "{{< img src=\"one\" >}}\n\n{{< img class=\"aspen\" >}}\n\n{{< img src= \"one\" >}}\n\n{{< img src =\"one\" >}}\n\n{{< img src = \"one\" >}}\n\n{{< img src = \"one\" class = \"aspen grove\" >}}\n",
		hugo:      "<img src=\"one\">\n<img class=\"aspen\">\n<img src=\"one\">\n<img src=\"one\">\n<img src=\"one\">\n<img src=\"one\" class=\"aspen grove\">\n"},
	{name: "is named params", from: "v0.90.0 TestIsNamedParamsSC", bare: true,
		templates: "-- bynameorposition.html --\n{{ with .Get \"id\" }}Named: {{ . }}{{ else }}Pos: {{ .Get 0 }}{{ end }}" +
			"\n-- ifnamedparams.html --\n<div id=\"{{ if .IsNamedParams }}{{ .Get \"id\" }}{{ else }}{{ .Get 0 }}{{end}}\">",
		body: "{{< ifnamedparams id=\"name\" >}}\n\n{{< ifnamedparams position >}}\n\n{{< bynameorposition id=\"name\" >}}\n\n{{< bynameorposition position >}}\n",
		hugo: "<div id=\"name\">\n<div id=\"position\">\nNamed: name\nPos: position\n"},
	{name: "inner", from: "v0.90.0 TestInnerSC", bare: true,
		templates: "-- inside.html --\n<div{{with .Get \"class\"}} class=\"{{.}}\"{{end}}>{{ .Inner }}</div>",
		body:      "{{< inside class=\"aspen\" />}}\n\n{{< inside class=\"aspen\" >}}More Here{{< /inside >}}\n\n{{< inside >}}More Here{{< /inside >}}\n",
		hugo:      "<div class=\"aspen\"></div>\n<div class=\"aspen\">More Here</div>\n<div>More Here</div>\n"},
	{name: "inner of {{< >}} is not markdown", from: "v0.90.0 TestInnerSC", bare: true,
		templates: "-- inside.html --\n<div>{{ .Inner }}</div>",
		body:      "{{< inside >}}\n**More** _Here_\n\n- a\n{{< /inside >}}\n\nA {{< inside >}}**in**{{< /inside >}} B\n",
		hugo:      "<div>\n**More** _Here_\n\n- a\n</div>\n<p>A <div>**in**</div> B</p>\n"},
	{name: "inner with markdown", from: "v0.90.0 TestInnerSCWithMarkdown", bare: true,
		templates: "-- wrapper.html --\n<div{{with .Get \"class\"}} class=\"{{.}}\"{{end}}>{{ .Inner }}</div>\n-- inside.html --\n{{ .Inner }}",
		body:      "{{< wrapper >}}{{% inside %}}\n# More Here\n\n[link](http://spf13.com) and text\n\n{{% /inside %}}{{< /wrapper >}}\n",
		hugo:      "<div><h1 id=\"more-here\">More Here</h1>\n<p><a href=\"http://spf13.com\">link</a> and text</p>\n</div>\n",
		differs:   "kakehashi refuses a pair whose tags share a line with another pair's and whose inner text spans blocks: a pair opened in a paragraph closes in it",
		diags: []string{
			`content/ja/p1.md:4:1: unclosed shortcode "wrapper": expected {{< /wrapper >}}`,
			`content/ja/p1.md:4:16: unclosed shortcode "inside": expected {{% /inside %}}`,
			`content/ja/p1.md:9:1: unexpected closing shortcode "/inside": no {{% inside %}} is open`,
			`content/ja/p1.md:9:16: unexpected closing shortcode "/wrapper": no {{< wrapper >}} is open`}},
	{name: "inner with markdown, a tag a line", from: "v0.90.0 TestInnerSCWithMarkdown", bare: true,
		templates: "-- wrapper.html --\n<div{{with .Get \"class\"}} class=\"{{.}}\"{{end}}>{{ .Inner }}</div>\n-- inside.html --\n{{ .Inner }}",
		body:      "{{< wrapper >}}\n{{% inside %}}\n# More Here\n\n[link](http://spf13.com) and text\n\n{{% /inside %}}\n{{< /wrapper >}}\n",
		hugo:      "<div>\n<h1 id=\"more-here\">More Here</h1>\n<p><a href=\"http://spf13.com\">link</a> and text</p>\n\n</div>\n"},
	{name: "inner markup", from: "v0.90.0 TestShortcodeInnerMarkup", bare: true,
		templates: "-- a.html --\n<div>{{ .Inner }}</div>\n-- b.html --\n**Bold**: <div>{{ .Inner }}</div>",
		body:      "{{< a >}}B: <div>{{% b %}}**Bold**{{% /b %}}</div>{{< /a >}}\n",
		hugo:      "<div>B: <div>**Bold**: <div><strong>Bold</strong></div></div></div>\n",
		differs:   "raw HTML written in the inner text of a {{< >}} call is omitted, as in the rest of a page",
		want:      "<div>B: <!-- raw HTML omitted -->**Bold**: <div><strong>Bold</strong></div><!-- raw HTML omitted --></div>",
		diags: []string{
			"content/ja/p1.md:4:13: warning: raw HTML in the inner text of {{< a >}} is omitted: kakehashi lets no raw HTML through from a page, where Hugo's {{< >}} does",
			"content/ja/p1.md:4:45: warning: raw HTML in the inner text of {{< a >}} is omitted: kakehashi lets no raw HTML through from a page, where Hugo's {{< >}} does"}},
	{name: "inner markup, {{% %}} outside", from: "v0.90.0 TestShortcodeInnerMarkup", bare: true,
		templates: "-- b.html --\n**Bold**: <div>{{ .Inner }}</div>",
		body:      "{{% b %}}This is **B**: {{< b >}}This is B{{< /b>}}{{% /b %}}\n",
		hugo:      "<p><strong>Bold</strong>: <!-- raw HTML omitted -->This is <strong>B</strong>: <strong>Bold</strong>: <!-- raw HTML omitted -->This is B<!-- raw HTML omitted --><!-- raw HTML omitted --></p>\n",
		diags:     []string{"content/ja/p1.md:4:1: warning: the output of {{% b %}} holds raw HTML, which its markdown omits, as Hugo's does: call it {{< b >}} for its HTML"}},
	{name: "nested missing param", from: "v0.90.0 TestNestedNamedMissingParam", bare: true,
		templates: "-- acc.html --\n<div class=\"acc\">{{ .Inner }}</div>\n-- div.html --\n<div {{with .Get \"class\"}} class=\"{{ . }}\"{{ end }}>{{ .Inner }}</div>\n-- div2.html --\n<div {{with .Get 0}} class=\"{{ . }}\"{{ end }}>{{ .Inner }}</div>",
		body:      "{{< acc >}}{{% div %}}d1{{% /div %}}{{% div2 %}}d2{{% /div2 %}}{{< /acc >}}\n",
		hugo:      "<div class=\"acc\"><div >d1</div><div >d2</div></div>\n"},
	{name: "nested", from: "v0.90.0 TestNestedSC", bare: true,
		templates: "-- scn1.html --\n<div>Outer, inner is {{ .Inner }}</div>\n-- scn2.html --\n<div>SC2</div>",
		body:      "{{< scn1 >}}{{% scn2 %}}{{< /scn1 >}}\n",
		hugo:      "<div>Outer, inner is <div>SC2</div></div>\n"},
	{name: "nested, {{% %}} outside", from: "v0.90.0 TestNestedSC", bare: true,
		templates: "-- scn1.html --\n<div>Outer, inner is {{ .Inner }}</div>\n-- scn2.html --\n<div>SC2</div>",
		body:      "{{% scn1 %}}{{% scn2 %}}{{% /scn1 %}}\n",
		hugo:      "<!-- raw HTML omitted -->\n",
		diags:     []string{"content/ja/p1.md:4:1: warning: the output of {{% scn1 %}} holds raw HTML, which its markdown omits, as Hugo's does: call it {{< scn1 >}} for its HTML"}},
	{name: "nested complex", from: "v0.90.0 TestNestedComplexSC", bare: true,
		templates: nestedComplex,
		body:      "{{< row >}}1-s{{% column %}}2-**s**{{< aside >}}3-**s**{{< /aside >}}4-s{{% /column %}}5-s{{< /row >}}6-s\n",
		hugo:      "<p>-row-1-s-col-2-<strong>s</strong>-aside-3-<strong>s</strong>-asideStop-4-s-colStop-5-s-rowStop-6-s</p>\n"},
	{name: "nested complex, markup turned around", from: "v0.90.0 TestNestedComplexSC", bare: true,
		templates: nestedComplex,
		body:      "{{% row %}}1-s{{< column >}}2-**s**{{% aside %}}3-**s**{{% /aside %}}4-s{{< /column >}}5-s{{% /row %}}6-s\n",
		hugo:      "<p>-row-1-s-col-2-<strong>s</strong>-aside-3-<!-- raw HTML omitted -->s<!-- raw HTML omitted -->-asideStop-4-s-colStop-5-s-rowStop-6-s</p>\n",
		diags:     []string{"content/ja/p1.md:4:1: warning: the output of {{% row %}} holds raw HTML, which its markdown omits, as Hugo's does: call it {{< row >}} for its HTML"}},
	{name: "parent", from: "v0.90.0 TestParentShortcode", bare: true,
		templates: "-- r1.html --\n1: {{ .Get \"pr1\" }} {{ .Inner }}\n-- r2.html --\n2: {{ .Parent.Get \"pr1\" }}{{ .Get \"pr2\" }} {{ .Inner }}\n-- r3.html --\n3: {{ .Parent.Parent.Get \"pr1\" }}{{ .Parent.Get \"pr2\" }}{{ .Get \"pr3\" }} {{ .Inner }}",
		body:      "{{< r1 pr1=\"p1\" >}}1: {{< r2 pr2=\"p2\" >}}2: {{< r3 pr3=\"p3\" >}}{{< /r3 >}}{{< /r2 >}}{{< /r1 >}}\n",
		hugo:      "1: p1 1: 2: p1p2 2: 3: p1p2p3 \n"},
	{name: "wrapped in p", from: "v0.90.0 TestShortcodeWrappedInPIssue", bare: true,
		templates: "-- bug.html --\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		body:      "\n{{< bug >}}\n\n{{< bug >}}\n",
		hugo:      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"},
	{name: "in a paragraph", from: "v0.90.0 TestShortcodesInSite doc1", bare: true,
		templates: siteBCD,
		body:      "a{{< b >}}c\n",
		hugo:      "<p>abc</p>\n"},
	{name: "paragraph lines", from: "v0.90.0 TestShortcodesInSite doc4", bare: true,
		templates: siteBCD,
		body:      "a\n{{< b >}}\n{{< b >}}\n{{< b >}}\n{{< b >}}\n{{< b >}}\n\n\n\n",
		hugo:      "<p>a\nb\nb\nb\nb\nb</p>\n"},
	{name: "in headings", from: "v0.90.0 TestShortcodesInSite doc5", bare: true,
		templates: siteBCD,
		body:      "# {{< b >}}\n## {{% c %}}\n",
		hugo:      "<h1 id=\"hahahugoshortcodes0hbhb\">b</h1>\n<h2 id=\"c\">c</h2>\n",
		differs:   "a call gives a heading's id no text: it is a node of the page, not a placeholder (Hugo's {{< >}} gives its placeholder's, its {{% %}} its output's)",
		want:      "<h1 id=\"section\">b</h1>\n<h2 id=\"section-1\">c<a class=\"anchor\" href=\"#section-1\" aria-label=\"この見出しへのリンク\">#</a></h2>\n"},
	{name: "preserve order", from: "v0.152.2 TestShortcodePreserveOrder",
		templates: "-- nested.html --\nouter ordinal: {{ .Ordinal }} inner: {{ .Inner }}\n-- ordinal.html --\nordinal: {{ .Ordinal }}{{ .Page.Scratch.Set \"ordinal\" .Ordinal }}" +
			"\n-- scratch.html --\nscratch ordinal: {{ .Ordinal }} scratch get ordinal: {{ .Page.Scratch.Get \"ordinal\" }}" +
			"\n-- s1.html --\nv1: {{ .Ordinal }} sgo: {{ .Page.Scratch.Get \"o2\" }}{{ .Page.Scratch.Set \"o2\" .Ordinal }}|" +
			"\n-- s2.html --\nv2: {{ .Ordinal }} sgo: {{ .Page.Scratch.Get \"o2\" }}{{ .Page.Scratch.Set \"o2\" .Ordinal }}|" +
			"\n-- s3.html --\nv3: {{ .Ordinal }} sgo: {{ .Page.Scratch.Get \"o2\" }}{{ .Page.Scratch.Set \"o2\" .Ordinal }}|",
		body: "{{< s1 >}}{{< s2 >}}{{< s3 >}}\n\n{{< nested >}}\n{{< ordinal >}} {{< scratch >}}\n{{< ordinal >}} {{< scratch >}}\n{{< ordinal >}} {{< scratch >}}\n{{< /nested >}}\n",
		hugo: "<p>v1: 0 sgo: |\nv2: 1 sgo: 0|\nv3: 2 sgo: 1|\n</p>\nouter ordinal: 3 inner: \nordinal: 0\n scratch ordinal: 1 scratch get ordinal: 0\n\nordinal: 2\n scratch ordinal: 3 scratch get ordinal: 2\n\nordinal: 4\n scratch ordinal: 5 scratch get ordinal: 4\n\n\n\n"},
	{name: "variables", from: "v0.152.2 TestShortcodeVariables",
		templates: "-- s1.html --\nName: {{ .Name }}\n{{ with .Position }}Line: {{ .LineNumber }}\nColumn: {{ .ColumnNumber }}\nString: {{ . | safeHTML }}\n{{ end }}",
		body:      "# doc\n\n   {{< s1 >}}\n",
		hugo:      "<h1 id=\"doc\">doc</h1>\nName: s1\n   Line: 6\n   Column: 4\n   String: \"/SITE/content/p1.md:6:4\"\n   \n\n",
		differs:   "a position prints as kakehashi's diagnostics do, the site's path without quotes",
		want:      "<h1 id=\"doc\">doc</h1>\nName: s1\nLine: 6\nColumn: 4\nString: content/ja/p1.md:6:4\n"},
	{name: "namespaced", from: "v0.152.2 TestShortcodeNamespaced",
		templates: "-- hello.html --\nhello\n-- test/hello.html --\ntest/hello",
		body:      "hello: {{< hello >}}\n\ntest/hello: {{< test/hello >}}\n",
		hugo:      "<p>hello: hello\n</p>\n<p>test/hello: test/hello\n</p>\n"},
	{name: "params", from: "v0.152.2 TestShortcodeParams",
		templates: "-- hello.html --\n{{ range $i, $v := .Params }}{{ printf \"- %v: %v (%T) \" $i $v $v -}}{{ end }}",
		body:      "types positional: {{< hello true false 33 3.14 >}}\n\ntypes named: {{< hello b1=true b2=false i1=33 f1=3.14 >}}\n\ntypes string: {{< hello \"true\" trues \"33\" \"3.14\" >}}\n\nescaped quote: {{< hello \"hello \\\"world\\\".\" >}}\n",
		hugo:      "<p>types positional: - 0: true (bool) - 1: false (bool) - 2: 33 (int) - 3: 3.14 (float64) \n</p>\n<p>types named: - b1: true (bool) - b2: false (bool) - f1: 3.14 (float64) - i1: 33 (int) \n</p>\n<p>types string: - 0: true (string) - 1: trues (string) - 2: 33 (string) - 3: 3.14 (string) \n</p>\n<p>escaped quote: - 0: hello &#34;world&#34;. (string) \n</p>\n"},
	{name: "closing tag, no .Inner", from: "v0.152.2 TestShortcodeNoInner",
		templates: "-- noinner.html --\nNo inner here.",
		body:      "{{< noinner >}}{{< /noinner >}}\n",
		hugo:      `failed to extract shortcode: shortcode "noinner" does not evaluate .Inner or .InnerDeindent, yet a closing tag was provided`,
		fails:     true,
		diags:     []string{`content/ja/p1.md:4:16: unexpected closing shortcode "/noinner": "noinner" takes no inner content (its template uses no .Inner; Hugo refuses its closing tag too)`}},
	{name: "self-closing, no .Inner", from: "v0.152.2 TestShortcodeNoInner",
		templates: "-- noinner.html --\nNo inner here.",
		body:      "{{< noinner />}}\n",
		hugo:      `failed to extract shortcode: shortcode ">}}" does not evaluate .Inner or .InnerDeindent, yet a closing tag was provided`,
		fails:     true,
		differs:   "kakehashi renders the call, with a warning",
		want:      "No inner here.",
		diags:     []string{`content/ja/p1.md:4:1: warning: shortcode "noinner" takes no inner content (its template uses no .Inner): write {{< noinner >}}, as Hugo refuses {{< noinner />}}`}},
	{name: "inner empty when not closed", from: "v0.152.2 TestShortcodeInnerShouldBeEmptyWhenNotClosed",
		templates: "-- sc.html --\nInner: {{ .Get 0 }}: {{ len .Inner }}\nInnerDeindent: {{ .Get 0 }}: {{ len .InnerDeindent }}",
		body:      "{{< sc \"self-closing\" />}}\n\nText.\n\n{{< sc \"closing-no-newline\" >}}{{< /sc >}}\n",
		hugo:      "Inner: self-closing: 0\nInnerDeindent: self-closing: 0\n\n<p>Text.</p>\nInner: closing-no-newline: 0\nInnerDeindent: closing-no-newline: 0\n\n"},
	{name: "should be closed", from: "v0.152.2 TestShortcodeErrorWhenItShouldBeClosed",
		templates: "-- sc.html --\nInner: {{ .Get 0 }}: {{ len .Inner }}",
		body:      "{{< sc >}}\n\nText.\n",
		hugo:      `p1.md:4:1": failed to extract shortcode: shortcode "sc" must be closed or self-closed`,
		fails:     true,
		diags:     []string{`content/ja/p1.md:4:1: unclosed shortcode "sc": expected {{< /sc >}}`}},
	{name: "escaped quote, a built-in replaced", from: "v0.152.2 TestShortcodeParamEscapedQuote",
		templates: "-- figure.html --\nTitle: {{ .Get \"title\" | safeHTML }}",
		body:      "{{< figure src=\"/media/spf13.jpg\" title=\"Steve \\\"Francia\\\".\" >}}\n",
		hugo:      "Title: Steve \"Francia\".\n\n"},
	{name: "nested in a template, two formats", from: "v0.152.2 TestShortcodeMultipleOutputFormats",
		templates: "-- myShort.html --\nShortHTML\n-- onlyHTML.html --\nShortOnlyHTML\n-- myInner.html --\nmyInner:--{{- .Inner -}}--",
		body:      "# Doc\n\n{{< myShort >}}\n{{% onlyHTML %}}\n\n{{< myInner >}}{{< myShort >}}{{< /myInner >}}\n",
		hugo:      "<h1 id=\"doc\">Doc</h1>\n<p>ShortHTML\n\nShortOnlyHTML</p>\nmyInner:--ShortHTML\n--\n\n",
		differs:   "a call alone on its line stands apart, not in a paragraph with the lines around it",
		want:      "<h1 id=\"doc\">Doc</h1>\nShortHTML\n<p>ShortOnlyHTML</p>\nmyInner:--ShortHTML\n--"},
	{name: "nested {{% %}} in templates named like built-ins", from: "v0.152.2 TestNestedShortcodeCustomOutputFormat",
		templates: "-- tabs.html --\n<div>\n  <div class=\"tab-content\">{{ .Inner }}</div>\n</div>\n-- tab.html --\n<div>{{ .Inner }}</div>",
		body:      "### More information\n\n{{< tabs >}}\n{{% tab \"Test\" %}}\n\nIt's a test\n\n{{% /tab %}}\n{{< /tabs >}}\n",
		hugo:      "<h3 id=\"more-information\">More information</h3>\n<div>\n  <div class=\"tab-content\">\n<div><p>It&rsquo;s a test</p>\n</div>\n\n</div>\n</div>\n\n",
		differs:   "kakehashi's markdown has no typographer: ' stays as written",
		want:      "<h3 id=\"more-information\">More information<a class=\"anchor\" href=\"#more-information\" aria-label=\"この見出しへのリンク\">#</a></h3>\n<div>\n  <div class=\"tab-content\">\n<div><p>It's a test</p>\n</div>\n</div>\n</div>"},
	{name: "inline shortcode in a template's inner", from: "v0.152.2 TestInlineShortcodes",
		templates: "-- outer.html --\nInner: {{ .Inner }}",
		body:      "INLINE IN INNER: {{< outer >}}{{< n2.inline >}}W2: {{ seq 4 }}{{< /n2.inline >}}{{< /outer >}}:END:\n",
		hugo:      "<p>INLINE IN INNER: Inner: \n:END:</p>\n",
		diags:     []string{`content/ja/p1.md:4:31: warning: inline shortcode "n2.inline" renders nothing: kakehashi runs no template written in a page, as Hugo without enableInlineShortcodes; make it a site template, shortcodes/n2.html, and call it {{< n2 >}}`}},
	{name: "execute failed", from: "v0.169.0 hugo_sites_build_errors_test.go TestSiteBuildErrors, Shortcode execute failed",
		templates: "-- sc.html --\nSHORTCODE L1\nSHORTCODE L2\nSHORTCODE L3:\nSHORTCODE L4: {{ .Page.Titles }}",
		body:      "Some content.\n\n   {{< sc >}}\n\nSome more text.\n",
		hugo:      `"/SITE/content/p1.md:6:4": failed to render shortcode "sc": failed to process shortcode: "/SITE/layouts/shortcodes/sc.html:4:22": execute of template failed: template: shortcodes/sc.html:4:22: executing "shortcodes/sc.html" at <.Page.Titles>: can't evaluate field Titles in type page.Page`,
		fails:     true,
		diags:     []string{`content/ja/p1.md:6:4: shortcode "sc": layouts/shortcodes/sc.html:4:23: executing "sc.html" at <.Page.Titles>: can't evaluate field Titles in type *shortcodes.TemplatePage`}},
	{name: "does not exist", from: "v0.169.0 hugo_sites_build_errors_test.go TestSiteBuildErrors, Shortode does not exist",
		templates: "-- sc.html --\nSHORTCODE",
		body:      "Some content.\n\n   {{< nono >}}\n",
		hugo:      `"/SITE/content/p1.md:6:4": failed to extract shortcode: template for shortcode "nono" not found`,
		fails:     true,
		diags:     []string{`content/ja/p1.md:6:8: unknown shortcode "nono"`}},
}

const (
	nestedComplex = "-- row.html --\n-row-{{ .Inner}}-rowStop-\n-- column.html --\n-col-{{.Inner    }}-colStop-\n-- aside.html --\n-aside-{{    .Inner  }}-asideStop-"
	siteBCD       = "-- b.html --\nb\n-- c.html --\nc\n-- d.html --\nd"
)

// hugoConfig is the Hugo site of every case: the page's language is
// kakehashi's, in a folder of its own as kakehashi puts it (Hugo wants a
// second language for that).
const hugoConfig = `baseURL = "https://example.org/docs/"
defaultContentLanguage = "ja"
defaultContentLanguageInSubdir = true
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404", "home", "section"]
[languages.ja]
title = "Site"
[languages.ko]
title = "Site"
`

// kakehashiSite is the kakehashi site of case c, not built yet: its
// templates in layouts/shortcodes/, its page content/ja/p1.md.
func kakehashiSite(t *testing.T, c hugoCase) *sitetest.Site {
	s := sitetest.New(t, "-- kakehashi.toml --\nbaseURL = \"https://example.org/docs/\"\n[title]\nja = \"Site\"\n"+
		"-- content/ja/p1.md --\n---\ntitle: P1\n---\n"+c.body)
	for p, data := range c.files() {
		s.WriteFile(p, data)
	}
	return s
}

// space is a run of white space, between tags or in text.
var space = regexp.MustCompile(`\s+`)

// normalHTML is h with its white space made one space, and none between
// tags: what a reader sees does not change, and the cases need not
// count the newlines a template ends with.
func normalHTML(h string) string {
	h = strings.TrimSpace(space.ReplaceAllString(h, " "))
	return strings.ReplaceAll(h, "> <", "><")
}

// TestSiteHugoTemplateCases builds each of Hugo's cases as a kakehashi
// site and compares the page's HTML with Hugo's (normalHTML), but where
// the case names a deliberate difference, which its diagnostics warn of;
// a page Hugo refuses, kakehashi refuses too. It counts the cases that
// agree: HTML as Hugo's, or refused as by Hugo.
func TestSiteHugoTemplateCases(t *testing.T) {
	agree := 0
	for _, c := range hugoCases {
		t.Run(c.name, func(t *testing.T) {
			s := kakehashiSite(t, c)
			err := s.BuildE()
			if err != nil {
				refuses := !c.fails && c.differs != "" && c.want == "" // kakehashi refuses what Hugo renders
				if c.fails && c.differs == "" {
					agree++
				}
				if !refuses && (!c.fails || c.differs != "") {
					t.Fatalf("%s: the build fails:\n%v", c.from, err)
				}
				s.AssertErrors(c.diags...)
				return
			}
			if c.fails && c.differs == "" {
				t.Fatalf("%s: the build succeeds, where Hugo says %s", c.from, c.hugo)
			}
			got := ""
			for _, p := range s.Result().Pages {
				if p.URL == "/ja/p1/" {
					got = string(p.Content)
				}
			}
			same := !c.fails && normalHTML(got) == normalHTML(c.hugo)
			if same {
				agree++
			}
			switch {
			case c.differs == "" && !same:
				t.Errorf("%s:\n%s\nwant (Hugo's)\n%s", c.from, got, c.hugo)
			case c.differs != "" && same:
				t.Errorf("%s: listed as a difference (%s), but reads as Hugo's", c.from, c.differs)
			case c.differs != "" && normalHTML(got) != normalHTML(c.want):
				t.Errorf("%s (%s):\n%s\nwant\n%s", c.from, c.differs, got, c.want)
			}
			var diags []string
			for _, w := range s.Warnings() {
				if strings.HasPrefix(w, "content/ja/p1.md:") {
					diags = append(diags, w)
				}
			}
			if strings.Join(diags, "\n") != strings.Join(c.diags, "\n") {
				t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(diags, "\n"), strings.Join(c.diags, "\n"))
			}
		})
	}
	t.Logf("%d of %d of Hugo's shortcode template cases agree with Hugo", agree, len(hugoCases))
}

var recordHugo = flag.Bool("record-hugo", false, "print what Hugo renders for each of hugoCases")

// TestHugoTemplateCasesInHugo builds each case with Hugo, when it is
// installed, and checks that the case holds what Hugo renders (or, for
// a page Hugo refuses, what its error says). Without hugo the test is
// skipped, but under CI=true, where that is a failure.
func TestHugoTemplateCasesInHugo(t *testing.T) {
	hugo, err := exec.LookPath("hugo")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("hugo not found: the shortcode template cases are checked against what Hugo renders (apt-get install hugo)")
		}
		t.Skip("hugo not found: the shortcode template cases are checked against what Hugo renders (apt-get install hugo)")
	}
	for _, c := range hugoCases {
		t.Run(c.name, func(t *testing.T) {
			src := t.TempDir()
			files := map[string]string{
				"config.toml":                  hugoConfig,
				"layouts/_default/single.html": "{{ .Content }}",
				"content/p1.md":                "---\ntitle: P1\n---\n" + c.body,
			}
			for p, data := range c.files() {
				files[p] = data
			}
			for p, data := range files {
				p = filepath.Join(src, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			public := filepath.Join(t.TempDir(), "public")
			cmd := exec.Command(hugo, "--source", src, "--destination", public, "--cacheDir", t.TempDir(), "--quiet")
			out, err := cmd.CombinedOutput()
			site := strings.ReplaceAll(string(out), src, "/SITE")
			if c.fails {
				if err == nil || !strings.Contains(site, c.hugo) {
					t.Errorf("%s: Hugo says\n%s\nwant an error saying\n%s", c.from, site, c.hugo)
				}
				return
			}
			if err != nil {
				t.Fatalf("hugo: %v\n%s", err, out)
			}
			got, err := os.ReadFile(filepath.Join(public, "ja", "p1", "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			h := strings.ReplaceAll(string(got), src, "/SITE")
			if *recordHugo {
				fmt.Printf("%s:\n\t\t%q\n", c.name, h)
			}
			if normalHTML(h) != normalHTML(c.hugo) {
				t.Errorf("%s: Hugo renders\n%s\nthe case says\n%s", c.from, h, c.hugo)
			}
		})
	}
}
