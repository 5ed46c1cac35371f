package shortcodes

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark"
)

// TestHugoBuiltins renders Hugo's built-ins with Hugo's arguments, the
// calls of Hugo v0.169.0's tpl/tplimpl/shortcodes_integration_test.go
// among them, checking the markup they make and their diagnostics.
func TestHugoBuiltins(t *testing.T) {
	tests := []struct {
		name, lang, src string
		want            []string // in the HTML, in order
		wantNot         []string
		diags           []string // headers, in order
		styles          []string
	}{
		{name: "details without a summary: the UI string's", lang: "ja",
			src:  "{{< details >}}\nA: An _emphasized_ word.\n{{< /details >}}\n",
			want: []string{"<details class=\"details\">\n<summary>詳細</summary>\n<p>A: An <em>emphasized</em> word.</p>\n</details>"}},
		{name: "details in Korean", lang: "ko", src: "{{< details >}}\nx\n{{< /details >}}\n", want: []string{"<summary>자세히</summary>"}},
		{name: "details with Hugo's arguments, over lines", lang: "ja",
			src:  "{{< details\n  class=\"my-class\"\n  name=\"my-name\"\n  open=true\n  summary=\"A **bold** word\"\n  title=\"my-title\"\n>}}\nB\n{{< /details >}}\n",
			want: []string{`<details class="details my-class" name="my-name" open title="my-title">` + "\n<summary>A <strong>bold</strong> word</summary>\n<p>B</p>\n</details>"}},
		{name: "details open=false, kakehashi's positional summary", lang: "ja",
			src: "{{< details \"答え\" open=false >}}\nC\n{{< /details >}}\n", want: []string{"<details class=\"details\">\n<summary>答え</summary>"}},
		{name: "details: Hugo's open, quoted or a number", lang: "ja",
			src: "{{< details open=\"true\" >}}\nA\n{{< /details >}}\n\n{{< details open=1 >}}\nB\n{{< /details >}}\n\n{{< details open=\"false\" >}}\nC\n{{< /details >}}\n\n{{< details open=0.0 >}}\nD\n{{< /details >}}\n",
			want: []string{"<details class=\"details\" open>\n<summary>詳細</summary>\n<p>A</p>", "<details class=\"details\" open>\n<summary>詳細</summary>\n<p>B</p>",
				"<details class=\"details\">\n<summary>詳細</summary>\n<p>C</p>", "<details class=\"details\">\n<summary>詳細</summary>\n<p>D</p>"}},
		{name: "details: another open keeps the default, as in Hugo, with a warning", lang: "ja",
			src:   "{{< details open=\"yes\" summary=2024 >}}\nA\n{{< /details >}}\n",
			want:  []string{"<details class=\"details\">\n<summary>2024</summary>\n<p>A</p>"},
			diags: []string{`p.md:1:13: warning: argument "open" of "details" must be true or false (or 1 or 0, quoted or not), got string "yes"; it keeps its default (false), as in Hugo`}},
		{name: "details, a summary that is text escaped as before", lang: "ja",
			src: "{{< details summary=\"say \\\"hi\\\" & it's\" >}}\nC\n{{< /details >}}\n", want: []string{"<summary>say &#34;hi&#34; &amp; it&#39;s</summary>"}},
		{name: "figure with every argument of Hugo's", lang: "ja",
			src: "{{< figure\n  src=\"a.jpg\"\n  alt=\"alternate text\"\n  width=600\n  height=400\n  loading=\"lazy\"\n  class=\"my-class\"\n  link=\"https://example.org\"\n  target=\"_blank\"\n  rel=\"noopener\"\n  title=\"my-title\"\n  caption=\"a **bold** word\"\n  attr=\"an _emphasized_ word\"\n  attrlink=\"https://example.org/foo\"\n>}}\n",
			want: []string{"<figure class=\"figure my-class\">\n" +
				`<a href="https://example.org" target="_blank" rel="noopener"><img src="a.jpg" alt="alternate text" width="600" height="400" loading="lazy" decoding="async"></a>` + "\n" +
				`<figcaption><h4>my-title</h4><p>a <strong>bold</strong> word <a href="https://example.org/foo">an <em>emphasized</em> word</a></p></figcaption>` + "\n</figure>"}},
		{name: "figure with a caption alone: its text is the alt text, as in Hugo", lang: "ja",
			src:  "{{< figure src=\"b.jpg\" caption=\"only a *caption*\" loading=\"eager\" >}}\n",
			want: []string{"<figure class=\"figure\">\n<img src=\"b.jpg\" alt=\"only a caption\">\n<figcaption>only a <em>caption</em></figcaption>\n</figure>"}},
		{name: "figure without alt or caption: a warning", lang: "ja",
			src:   "{{< figure src=\"b.jpg\" title=\"t\" >}}\n",
			want:  []string{`<img src="b.jpg" alt="">`},
			diags: []string{`p.md:1:12: warning: image "b.jpg" has no alt text: say what it shows, for readers who cannot see it`}},
		{name: "figure with a caption without text: a warning", lang: "ja",
			src:   "{{< figure src=\"b.jpg\" caption=\"<br>\" >}}\n",
			want:  []string{`<img src="b.jpg" alt="">`},
			diags: []string{`p.md:1:12: warning: image "b.jpg" has no alt text: say what it shows, for readers who cannot see it`}},
		{name: "figure: an attribution alone, a link kept safe", lang: "ja",
			src:  "{{< figure src=\"c.png\" alt=\"c\" attr=\"[me](javascript:alert(1))\" link=\"javascript:alert(2)\" >}}\n",
			want: []string{`<a href="#ZgotmplZ"><img src="c.png" alt="c"></a>`, `<figcaption><p><a href="">me</a></p></figcaption>`}},
		{name: "figure: Hugo's sizes as strings, a title that is a number", lang: "ja",
			src:  "{{< figure src=\"d.png\" alt=\"d\" width=\"600\" height=\"400\" title=2024 >}}\n",
			want: []string{`<img src="d.png" alt="d" width="600" height="400">`, `<figcaption><h4>2024</h4>`}},
		{name: "figure: a size that is no integer", lang: "ja", src: "{{< figure src=\"d.png\" alt=\"d\" width=\"50%\" >}}\n",
			diags: []string{`p.md:1:32: argument "width" of "figure" must be an integer (or a string of one), got string "50%"`}},
		{name: "figure: a bad loading", lang: "ja", src: "{{< figure src=\"c.png\" alt=\"c\" loading=\"soon\" >}}\n",
			diags: []string{`p.md:1:32: argument "loading" of "figure" must be one of lazy, eager, got "soon"`}},
		{name: "highlight: a code figure with Hugo's options", lang: "ja",
			src: "{{< highlight go \"linenos=table,hl_lines=2 3\" >}}\nfunc main() {\n\tx()\n\ty()\n}\n{{< /highlight >}}\n",
			want: []string{`<figure class="code" data-lang="go">`, `<table class="lntable" role="presentation">`,
				`<span class="hl"><span class="lnt">2`, `<span class="hl"><span class="lnt">3`, `<span class="lnt">4` + "\n</span></pre>",
				`<span class="line"><span class="cl"><span class="kd">func</span>`},
			styles: []string{"/css/linenos.css"}},
		{name: "highlight without options, deindented in a list, its code no markdown", lang: "ja",
			src:     "- item\n\n  {{< highlight sh >}}\n  # not a heading\n  echo \"[x](y.md) #3 {{</* part 2 */>}}\"\n  {{< /highlight >}}\n",
			want:    []string{`<figure class="code" data-lang="sh">`, `<span class="c1"># not a heading</span>`, `&#34;[x](y.md) #3 {{&lt; part 2 &gt;}}&#34;`},
			wantNot: []string{"<h1", "<a href", "part-ref", "<table"}},
		{name: "highlight: its inner text is code as written, fences, comments and calls too", lang: "ja",
			src: "{{< highlight md >}}\n# title\n\n```go\nx := `{{< part 2 >}}` {{< nope >}}\n<!-- c -->\n{{< /highlight >}}\n\nafter\n",
			want: []string{`<figure class="code" data-lang="md">`, `<span class="gh"># title`, "\n</span>\n``<span class=\"sb\">`go\n",
				"{{&lt; part 2 &gt;}}` {{&lt; nope &gt;}}\n", `&lt;!-- c --&gt;`, "</figure>\n<p>after</p>"},
			wantNot: []string{"part-ref", "<h1"},
			diags:   []string{`p.md:1:1: warning: shortcode {{< part >}} in code is shown as written: kakehashi expands no shortcode in code, where Hugo expands it; write {{</* part */>}} to show it in Hugo too`}},
		{name: "highlight: its closing tag ends a line of code", lang: "ja",
			src:  "{{< highlight text >}}\nx := 1 {{< /highlight >}}\nafter\n",
			want: []string{`<code>x := 1 </code></pre>` + "\n</figure>\n<p>after</p>"}},
		{name: "highlight: text after its closing tag", lang: "ja",
			src:   "{{< highlight text >}}\nx\n{{< /highlight >}} after\n",
			want:  []string{`<code>x</code></pre>`},
			diags: []string{`p.md:3:19: text after {{< /highlight >}} is lost: the closing tag of "highlight" ends its line`}},
		{name: "highlight unclosed", lang: "ja", src: "{{< highlight go >}}\nx := 1\n\n# not a heading\n",
			wantNot: []string{"<h1"},
			diags:   []string{`p.md:1:1: unclosed shortcode "highlight": expected {{< /highlight >}}`}},
		{name: "highlight: a problem of its options, at its place", lang: "ja",
			src:  "{{< highlight go \"linenos=table,bogus=1\" >}}\nx\n{{< /highlight >}}\n",
			want: []string{`<figure class="code" data-lang="go">`}, styles: []string{"/css/linenos.css"},
			diags: []string{`p.md:1:33: code block: attribute "bogus" is not allowed (the highlight shortcode takes title, hl_lines, linenos, linenostart, anchorlinenos, lineanchors and linenumbersintable)`}},
		{name: "highlight in a line", lang: "ja", src: "a {{< highlight go >}}x{{< /highlight >}} b\n",
			diags: []string{`p.md:1:3: shortcode "highlight" must stand alone on its line ({{< highlight >}} … on a line of its own)`}},
		{name: "highlight with Hugo's hl_inline: a code span, warned of", lang: "ja",
			src:   "An {{< highlight go \"hl_inline=true\" >}}x := `<b>`{{< /highlight >}} here.\n",
			want:  []string{"<p>An <code class=\"code-inline language-go\">x := `&lt;b&gt;`</code> here.</p>"},
			diags: []string{`p.md:1:4: warning: highlight with hl_inline=true is a code span here, as in Hugo, but without colours: kakehashi colours the code of code blocks only`}},
		{name: "highlight with hl_inline=false in a line", lang: "ja", src: "An {{< highlight go \"hl_inline=false\" >}}x{{< /highlight >}} here.\n",
			diags: []string{`p.md:1:4: shortcode "highlight" must stand alone on its line ({{< highlight >}} … on a line of its own)`}},
		{name: "youtube by position", lang: "ja", src: "{{< youtube 0RKpf3rK57I >}}\n",
			want: []string{"<div class=\"video\">\n" +
				`<iframe src="https://www.youtube-nocookie.com/embed/0RKpf3rK57I?autoplay=0&amp;controls=1&amp;end=0&amp;loop=0&amp;mute=0&amp;start=0" title="YouTube 動画" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share; fullscreen" referrerpolicy="strict-origin-when-cross-origin" loading="eager" allowfullscreen></iframe>` + "\n" +
				`<a class="video-link" href="https://www.youtube.com/watch?v=0RKpf3rK57I">YouTube で見る</a>` + "\n</div>"},
			styles: []string{"/css/video.css"}},
		{name: "youtube with Hugo's arguments", lang: "ko",
			src: "{{< youtube\n  id=\"0RKpf3rK57I\"\n  allowFullScreen=false\n  autoplay=true\n  class=\"my-class\"\n  controls=false\n  end=42\n  loading=\"lazy\"\n  loop=true\n  mute=true\n  start=6\n  title=\"my title\"\n>}}\n",
			want: []string{`<div class="video my-class">`,
				`src="https://www.youtube-nocookie.com/embed/0RKpf3rK57I?autoplay=1&amp;controls=0&amp;end=42&amp;loop=1&amp;mute=1&amp;playlist=0RKpf3rK57I&amp;start=6" title="my title" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" loading="lazy"></iframe>`,
				`href="https://www.youtube.com/watch?v=0RKpf3rK57I&amp;t=6s">YouTube에서 보기</a>`},
			wantNot: []string{"allowfullscreen", "style="}, styles: []string{"/css/video.css"}},
		{name: "youtube: Hugo's flags and times as strings, an id of digits", lang: "ja",
			src:    "{{< youtube id=12345678901 controls=\"false\" autoplay=1 start=\"30\" end=\"45\" allowFullScreen=0 >}}\n",
			want:   []string{`src="https://www.youtube-nocookie.com/embed/12345678901?autoplay=1&amp;controls=0&amp;end=45&amp;loop=0&amp;mute=1&amp;start=30"`, `href="https://www.youtube.com/watch?v=12345678901&amp;t=30s"`},
			styles: []string{"/css/video.css"}, wantNot: []string{"allowfullscreen"}},
		{name: "youtube: a bad id", lang: "ja", src: "{{< youtube \"x?y=1\" >}}\n", styles: []string{"/css/video.css"},
			diags: []string{`p.md:1:1: youtube: "x?y=1" is no video id: an id is letters, digits, "-" and "_" (the v= of the video's address)`}},
		{name: "youtube: no id", lang: "ja", src: "{{< youtube >}}\n", diags: []string{`p.md:1:1: missing required argument "id" for "youtube"`}},
		{name: "comment in a line, warned of as Hugo warns", lang: "ja", src: "a{{< comment >}}b{{< /comment >}}c\n", want: []string{"<p>ac</p>"},
			diags: []string{"p.md:1:2: warning: " + commentWarning}},
		{name: "comment: its inner text is not read, in a line", lang: "ja",
			src: "a {{< comment >}}`b {{< nope >}} {{< /comment >}} c` d\n", want: []string{"<p>a  c` d</p>"},
			diags: []string{"p.md:1:3: warning: " + commentWarning}},
		{name: "comment: its inner text is not read, on lines of its own", lang: "ja",
			src: "- a\n\n  {{< comment >}}\n  ```\n  {{< nope >}}\n  {{< /comment >}}\n- b\n", want: []string{"<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>"},
			diags: []string{"p.md:3:3: warning: " + commentWarning}},
		{name: "comment unclosed in a line", lang: "ja", src: "a {{< comment >}} b\n\nc\n",
			diags: []string{"p.md:1:3: warning: " + commentWarning, `p.md:1:3: unclosed shortcode "comment": expected {{< /comment >}}`}},
		{name: "comment on lines of its own, with arguments", lang: "ja",
			src: "x\n\n{{< comment \"why\" >}}\n**not shown**\n{{< /comment >}}\n\ny\n", want: []string{"<p>x</p>\n<p>y</p>"}, wantNot: []string{"not shown"},
			diags: []string{"p.md:3:1: warning: " + commentWarning}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := render(t, NewRegistry(), tt.lang, tt.src)
			h := string(res.HTML)
			at := 0
			for _, w := range tt.want {
				i := strings.Index(h[at:], w)
				if i < 0 {
					t.Errorf("HTML lacks, from %d on, %q:\n%s", at, w, h)
					continue
				}
				at += i + len(w)
			}
			for _, w := range tt.wantNot {
				if strings.Contains(h, w) {
					t.Errorf("HTML holds %q:\n%s", w, h)
				}
			}
			if got := headers(res); strings.Join(got, "\n") != strings.Join(tt.diags, "\n") {
				t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.diags, "\n"))
			}
			if !slices.Equal(res.Styles, tt.styles) {
				t.Errorf("styles %v, want %v", res.Styles, tt.styles)
			}
		})
	}
}

// commentWarning is the warning of each call of comment.
const commentWarning = `the "comment" shortcode was deprecated in Hugo v0.143.0, which will remove it, as Hugo warns: write an HTML comment, <!-- … -->, which kakehashi and Hugo leave out too`

// asText is the warning of a call of ref or relref at column col of the
// first line, standing as text.
func asText(col int, name, path, href, tag string) string {
	hugo := "its permalink (https://…)"
	if name == "relref" {
		hugo = "its path from the site's root (/…)"
	}
	return fmt.Sprintf("content/ja/notes/a.md:1:%d: warning: %s %q stands as text, %s: kakehashi writes the page's URL relative to this page, where Hugo's %s writes %s; as a link's destination, [text](%s), it links to the page in both",
		col, name, path, href, name, hugo, tag)
}

// TestHugoRefs: ref and relref ask the page's links for the page they
// name (Hugo's forms of a path turned into a link's), and stand in their
// place as its link, or, as a link's destination, make that link one to
// the page; param shows what Env.Param finds.
func TestHugoRefs(t *testing.T) {
	pages := map[string]string{"b.md": "../b/", "b.md#x": "../b/#x", "/content/ja/notes/b.md": "../b/", "/content/ko/notes/b.md": "../../../ko/notes/b/"}
	var asked []string
	env := testEnv("ja")
	env.Link = func(dest string) markdown.LinkTarget {
		asked = append(asked, dest)
		if h, ok := pages[dest]; ok {
			return markdown.LinkTarget{Href: h, Path: "/ja/notes/b/"}
		}
		return markdown.LinkTarget{Problem: "link to " + strconv.Quote(dest) + ": no such page", Severity: diag.Warning}
	}
	env.Param = func(key string) (any, bool) {
		v, ok := map[string]any{"color": "青", "n": int64(3), "f": 1.5, "list": []any{"a", "b"}}[key]
		return v, ok
	}
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(NewRegistry())}})
	tests := []struct {
		src, want string
		asked     []string
		diags     []string
	}{
		{src: "{{< ref \"b.md\" >}} {{< relref \"b.md#x\" >}}", want: "<p>../b/ ../b/#x</p>", asked: []string{"b.md", "b.md#x"},
			diags: []string{asText(1, "ref", "b.md", "../b/", `{{< ref "b.md" >}}`), asText(20, "relref", "b.md#x", "../b/#x", `{{< relref "b.md#x" >}}`)}},
		{src: "[x]({{< ref \"b.md\" >}})", want: `<p><a href="../b/">x</a></p>`, asked: []string{"b.md", "b.md"}},
		{src: "see [the *HA* part]({{% relref \"b.md#x\" %}}) now", want: `<p>see <a href="../b/#x">the <em>HA</em> part</a> now</p>`, asked: []string{"b.md#x", "b.md#x"}},
		{src: "[a] and [b]({{< ref \"b.md\" >}}).", want: `<p>[a] and <a href="../b/">b</a>.</p>`, asked: []string{"b.md", "b.md"}},
		{src: "[x]({{< ref \"b.md\" >}} \"title\")", want: `<p>[x](../b/ &quot;title&quot;)</p>`, asked: []string{"b.md"},
			diags: []string{asText(5, "ref", "b.md", "../b/", `{{< ref "b.md" >}}`)}},
		{src: "{{< ref \"b\" >}}", want: "<p>../b/</p>", asked: []string{"b.md"}, diags: []string{asText(1, "ref", "b", "../b/", `{{< ref "b" >}}`)}},
		{src: "{{< ref \"/notes/b.md\" >}} {{< ref \"b.md\" lang=\"ko\" >}}", want: "<p>../b/ ../../../ko/notes/b/</p>", asked: []string{"/content/ja/notes/b.md", "/content/ko/notes/b.md"},
			diags: []string{asText(1, "ref", "/notes/b.md", "../b/", `{{< ref "/notes/b.md" >}}`), asText(27, "ref", "b.md", "../../../ko/notes/b/", `{{< ref "b.md" lang="ko" >}}`)}},
		{src: "{{< ref \"nope\" >}}", want: "<p></p>", asked: []string{"nope.md", "nope/index.md", "nope/_index.md", "nope"},
			diags: []string{`content/ja/notes/a.md:1:1: ref "nope": link to "nope.md": no such page`}},
		{src: "{{< relref \"b.md\" outputFormat=\"json\" >}}", want: "",
			diags: []string{`content/ja/notes/a.md:1:19: argument "outputFormat" of "relref" must be one of html, got "json"`}},
		{src: "{{< param \"color\" >}}, {{% param n %}}, {{< param f >}}, {{< param list >}}", want: "<p>青, 3, 1.5, [a b]</p>"},
		{src: "{{< param \"color\" >}}\n", want: "<p>青</p>"},
		{src: "a {{< param \"none\" >}} b", want: "<p>a  b</p>",
			diags: []string{`content/ja/notes/a.md:1:3: param "none": neither the page's front matter params nor the site's [params] have it`}},
	}
	for _, tt := range tests {
		asked = nil
		res := r.Render(context.Background(), markdown.Doc{Path: "content/ja/notes/a.md", Src: []byte(tt.src)}, env)
		if got := strings.TrimSpace(string(res.HTML)); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.src, got, tt.want)
		}
		if !slices.Equal(asked, tt.asked) {
			t.Errorf("%s: asked the links for %q, want %q", tt.src, asked, tt.asked)
		}
		if got := headers(res); strings.Join(got, "\n") != strings.Join(tt.diags, "\n") {
			t.Errorf("%s: diagnostics\n%s\nwant\n%s", tt.src, strings.Join(got, "\n"), strings.Join(tt.diags, "\n"))
		}
	}
}

// TestHugoBuiltinsNotHad: a call of one of Hugo's built-ins that
// kakehashi does not have is an error that names it as Hugo's, says why
// and what to write instead.
func TestHugoBuiltinsNotHad(t *testing.T) {
	for name, why := range map[string]string{
		"gist":             "Hugo removed it in v0.156.0; link to the gist, or copy its code into a code block",
		"twitter":          "Hugo removed it in v0.156.0, for x; link to the post, or quote it",
		"tweet":            "Hugo removed it in v0.156.0, for x; link to the post, or quote it",
		"twitter_simple":   "Hugo removed it in v0.156.0, for x; link to the post, or quote it",
		"x":                "it embeds a post from x.com, fetched when the site is built; link to the post, or quote it",
		"x_simple":         "it embeds a post from x.com, fetched when the site is built; link to the post, or quote it",
		"instagram":        "it embeds an Instagram post, fetched when the site is built; link to the post",
		"instagram_simple": "it embeds an Instagram post, fetched when the site is built; link to the post",
		"vimeo":            "it embeds a Vimeo player; link to the video",
		"vimeo_simple":     "it embeds a Vimeo player; link to the video",
		"qr":               "it makes a QR code image when the site is built; make the image, and show it with figure",
	} {
		res := render(t, NewRegistry(), "ja", "{{< "+name+" 19899678 >}}\n")
		want := fmt.Sprintf("p.md:1:5: shortcode %q is one of Hugo's built-ins, which kakehashi does not have: %s; or write a site template of that name, layouts/shortcodes/%s.html", name, why, name)
		if got := headers(res); len(got) != 1 || got[0] != want {
			t.Errorf("%s: diagnostics\n%s\nwant\n%s", name, strings.Join(got, "\n"), want)
		}
	}
}
