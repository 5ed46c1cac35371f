package markdown

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// parts is the CKA series as the tests see it: #2 and #5 published, #4
// planned, nothing else.
func parts(lang string) func(int) (PartLink, bool) {
	return func(n int) (PartLink, bool) {
		switch n {
		case 2:
			return PartLink{Href: "/" + lang + "/cka/02-incidents/", Title: "Part <2>", Published: true}, true
		case 5:
			return PartLink{Href: "/" + lang + "/cka/05-ha-cluster/", Title: "HA", Published: true}, true
		case 4:
			return PartLink{Title: "kubeadm"}, true
		}
		return PartLink{}, false
	}
}

func render(t testing.TB, r *Renderer, src string) Result {
	t.Helper()
	return r.Render(context.Background(), Doc{Path: "doc.md", Src: []byte(src)}, Env{Lang: "ja", Parts: parts("ja")})
}

// The soft break cases are testdata/cases/softbreaks.txt (TestCaseFiles).

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"はじめに", "はじめに"},
		{"HA クラスターの構成", "ha-クラスターの構成"},
		{"고가용성 클러스터 구성", "고가용성-클러스터-구성"},
		{"kubeadm init の流れ (v1.31)", "kubeadm-init-の流れ-v1-31"},
		{"  --Hello,   World!--  ", "hello-world"},
		{"etcd・API サーバー", "etcd-api-サーバー"},
		{"\u1100\u1161\u11a8", "각"}, // decomposed Hangul is composed (NFC)
		{"???", "section"},
	}
	for _, tt := range tests {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHeadingIDsAndTOC(t *testing.T) {
	src := "# タイトル\n\n" +
		"## はじめに\n\n" +
		"### 構成 *図*\n\n" +
		"#### `kubeadm` の設定\n\n" +
		"## はじめに\n\n" +
		"## 고가용성 클러스터\n\n" +
		"### 구성\n\n" +
		"## はじめに {#intro}\n\n" +
		"## はじめに\n\n" +
		"##### 深すぎる\n"
	res := render(t, New(Options{}), src)
	want := []Heading{
		{Level: 2, ID: "はじめに", Text: "はじめに", Children: []Heading{
			{Level: 3, ID: "構成-図", Text: "構成 図", Children: []Heading{
				{Level: 4, ID: "kubeadm-の設定", Text: "kubeadm の設定"},
			}},
		}},
		{Level: 2, ID: "はじめに-1", Text: "はじめに"},
		{Level: 2, ID: "고가용성-클러스터", Text: "고가용성 클러스터", Children: []Heading{
			{Level: 3, ID: "구성", Text: "구성"},
		}},
		{Level: 2, ID: "intro", Text: "はじめに"},
		{Level: 2, ID: "はじめに-2", Text: "はじめに"},
	}
	if got, w := fmt.Sprintf("%+v", res.TOC), fmt.Sprintf("%+v", want); got != w {
		t.Errorf("TOC\n got  %s\n want %s", got, w)
	}
	html := string(res.HTML)
	for _, w := range []string{
		`<h1 id="タイトル">タイトル</h1>`,
		`<h2 id="はじめに">はじめに<a class="anchor" href="#はじめに" aria-label="この見出しへのリンク">#</a></h2>`,
		`<h2 id="intro">はじめに<a class="anchor" href="#intro"`,
		`<h3 id="構成-図">構成 <em>図</em><a class="anchor" href="#構成-図"`,
		`<h5 id="深すぎる">深すぎる</h5>`,
	} {
		if !strings.Contains(html, w) {
			t.Errorf("HTML lacks %s\n%s", w, html)
		}
	}
}

func TestTOCNesting(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"h3 before any h2", "### a\n## b\n### c\n", "[a] [b [c]]"},
		{"h4 under h2", "## a\n#### b\n### c\n", "[a [b] [c]]"},
		{"h1 and h5 left out", "# t\n## a\n##### x\n## b\n", "[a] [b]"},
	}
	var show func([]Heading) string
	show = func(hs []Heading) string {
		var parts []string
		for _, h := range hs {
			s := h.Text
			if len(h.Children) > 0 {
				s += " " + show(h.Children)
			}
			parts = append(parts, "["+s+"]")
		}
		return strings.Join(parts, " ")
	}
	r := New(Options{})
	for _, tt := range tests {
		if got := show(render(t, r, tt.src).TOC); got != tt.want {
			t.Errorf("%s: TOC %s, want %s", tt.name, got, tt.want)
		}
	}
}

// The "#N" cases are testdata/cases/partrefs.txt (TestCaseFiles).

func TestPartRefsNotInCodeOrHeadings(t *testing.T) {
	src := "## #2 の復習\n\n```bash\necho #2\n```\n\n    #2 indented\n"
	res := render(t, New(Options{}), src)
	html := string(res.HTML)
	if strings.Contains(html, "part-ref") {
		t.Errorf("#2 linked inside a heading or code:\n%s", html)
	}
	if res.TOC[0].Text != "#2 の復習" || res.TOC[0].ID != "2-の復習" {
		t.Errorf("heading TOC entry %+v", res.TOC[0])
	}
}

func TestPartRefsOutsideSeries(t *testing.T) {
	res := New(Options{}).Render(context.Background(), Doc{Path: "p.md", Src: []byte("#2 and #9")}, Env{Lang: "ja"})
	if got := string(res.HTML); got != "<p>#2 and #9</p>\n" || len(res.Diags) != 0 {
		t.Errorf("outside a series: %q %v", got, res.Diags)
	}
}

func TestDiagnosticPositions(t *testing.T) {
	src := "---\ntitle: テスト\n---\n\n本文 #9 です。\n\n```bash {title=\"x.sh\" hl_lines=\"1 3-2 7\" colour=red}\necho a\necho b\n```\n\n```go {oops}\n```\n"
	body := strings.Index(src, "\n\n本文") + 1
	res := New(Options{}).Render(context.Background(), Doc{Path: "content/ja/cka/05.md", Src: []byte(src), BodyStart: body}, Env{Lang: "ja", Parts: parts("ja")})
	var got []string
	for _, d := range res.Diags {
		// "#N" to a part the series does not list and an attribute a
		// fence does not take are errors, the rest warnings.
		if (d.Severity == diag.Error) != (strings.Contains(d.Msg, "the series has no part") || strings.Contains(d.Msg, "not allowed")) {
			t.Errorf("wrong severity: %s", d.Header())
		}
		got = append(got, d.Header())
	}
	want := []string{
		"content/ja/cka/05.md:5:4: #9: the series has no part 9",
		`content/ja/cka/05.md:7:35: warning: code block: hl_lines: bad line or range "3-2"`,
		`content/ja/cka/05.md:7:39: warning: code block: hl_lines: "7" is past the end of the block (2 lines)`,
		`content/ja/cka/05.md:7:42: code block: attribute "colour" is not allowed (a fence takes title, hl_lines, linenos, linenostart, anchorlinenos, lineanchors and linenumbersintable)`,
		`content/ja/cka/05.md:12:8: warning: code block: expected key="value" in the attributes`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics\n got:\n%s\n want:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(string(res.HTML), `<span class="line hl"><span class="cl"><span class="nb">echo</span> a`) {
		t.Errorf("valid hl_lines entries not applied:\n%s", res.HTML)
	}
}

func TestCodeFigure(t *testing.T) {
	h, err := highlight.New("", "")
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{Highlighter: h})
	src := "```console {title=\"setup.sh\"}\n$ kubeadm init\n[init] ok\n```\n"
	tr := func(k string) string { return map[string]string{"copy": "Copy", "copied": "Done!"}[k] }
	ja := r.Render(context.Background(), Doc{Path: "ja.md", Src: []byte(src)}, Env{Lang: "ja", T: tr})
	ko := r.Render(context.Background(), Doc{Path: "ko.md", Src: []byte(src)}, Env{Lang: "ko"})
	pre := h.Block(highlight.Block{Lang: "console", Code: "$ kubeadm init\n[init] ok"}).HTML
	wantJa := "<figure class=\"code\" data-lang=\"console\" data-copy=\"kubeadm init\">\n" +
		"<figcaption class=\"code-head\"><span class=\"code-title\">setup.sh</span><span class=\"code-lang\">console</span>" +
		"<button type=\"button\" class=\"code-copy\" data-label-copied=\"Done!\">Copy</button></figcaption>\n" +
		pre + "\n</figure>\n"
	if string(ja.HTML) != wantJa {
		t.Errorf("ja figure\n got  %q\n want %q", ja.HTML, wantJa)
	}
	if !strings.Contains(string(ko.HTML), `data-label-copied="복사됨">복사</button>`) {
		t.Errorf("ko labels: %s", ko.HTML)
	}
	// The ja render highlights the block; the ko render and the direct
	// call above reuse it.
	if hits, misses := h.Stats(); misses != 1 || hits != 2 {
		t.Errorf("Stats() = %d hits, %d misses; want 2, 1", hits, misses)
	}
	if ja.CodeText != "$ kubeadm init\n[init] ok" || strings.Contains(ja.Text, "kubeadm") {
		t.Errorf("Text %q, CodeText %q", ja.Text, ja.CodeText)
	}

	plain := string(render(t, r, "    indented <b>\n").HTML)
	if !strings.HasPrefix(plain, "<figure class=\"code\" data-lang=\"text\">\n") || !strings.Contains(plain, "indented &lt;b&gt;") {
		t.Errorf("indented block: %s", plain)
	}
}

func TestRawHTML(t *testing.T) {
	src := "<script>alert(1)</script>\n\ntext <b onclick=\"x()\">bold</b>\n"
	safe := string(render(t, New(Options{}), src).HTML)
	if strings.Contains(safe, "<script") || strings.Contains(safe, "<b") || strings.Contains(safe, "onclick") {
		t.Errorf("raw HTML leaked in safe mode:\n%s", safe)
	}
	unsafe := string(render(t, New(Options{Unsafe: true}), src).HTML)
	if !strings.Contains(unsafe, "<script>alert(1)</script>") || !strings.Contains(unsafe, "<b onclick") {
		t.Errorf("raw HTML dropped in unsafe mode:\n%s", unsafe)
	}
}

func TestGFM(t *testing.T) {
	src := "| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~ https://example.org\n\n- [x] done\n\nnote[^n]\n\n[^n]: 脚注\n"
	html := string(render(t, New(Options{}), src).HTML)
	for _, w := range []string{
		"<div class=\"table-wrap\">\n<table>", "</table>\n</div>\n",
		"<del>old</del>", `<a href="https://example.org">https://example.org</a>`,
		`<input checked="" disabled="" type="checkbox"> done`,
		`class="footnote-ref"`, "脚注",
	} {
		if !strings.Contains(html, w) {
			t.Errorf("HTML lacks %q:\n%s", w, html)
		}
	}
}

func TestText(t *testing.T) {
	src := "## 見出し\n\n本文の\n**強調**と`code`。\n\n```\nhidden code\n```\n\n- 項目 #2\n"
	res := render(t, New(Options{}), src)
	if want := "見出し\n本文の強調とcode。\n項目 #2"; res.Text != want {
		t.Errorf("Text = %q, want %q", res.Text, want)
	}
	if res.CodeText != "hidden code" {
		t.Errorf("CodeText = %q", res.CodeText)
	}
}

// The reading time tests are in reading_test.go.

// reporter is an extension in the style of the shortcodes package: it
// reads the Env from the parser context and reports at a body offset.
type reporter struct{}

func (reporter) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(reporter{}, 1)))
}

func (reporter) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	if env == nil {
		panic("no Env in the parser context")
	}
	off := strings.Index(string(env.Source()), "{{<")
	env.Report(diag.Error, off, "unknown shortcode in %s (%s, %v)", env.Path(), env.Lang, env.T("k"))
}

func TestEnvForExtensions(t *testing.T) {
	r := New(Options{Extenders: []goldmark.Extender{reporter{}}})
	src := "---\nt: 1\n---\nline\n  x {{< nope >}}\n"
	res := r.Render(context.Background(), Doc{Path: "a.md", Src: []byte(src), BodyStart: 12}, Env{Lang: "ko", T: func(string) string { return "7" }})
	if len(res.Diags) != 1 {
		t.Fatalf("diags: %v", res.Diags)
	}
	if got, want := res.Diags[0].Header(), "a.md:5:5: unknown shortcode in a.md (ko, 7)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if EnvFrom(parser.NewContext()) != nil || EnvFrom(nil) != nil {
		t.Error("EnvFrom of a foreign context is not nil")
	}
	var nilEnv *Env
	nilEnv.Report(diag.Error, 0, "dropped") // must not panic
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := New(Options{}).Render(ctx, Doc{Path: "a.md", Src: []byte("text")}, Env{})
	if len(res.Diags.Errors()) != 1 || res.HTML != nil {
		t.Errorf("cancelled render: %q %v", res.HTML, res.Diags)
	}
}

func TestConcurrentRender(t *testing.T) {
	r := New(Options{})
	docs := goldenDocs(t)
	want := map[string]string{}
	for _, d := range docs {
		want[d.name] = string(r.Render(context.Background(), d.doc, d.env).HTML)
	}
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		for _, d := range docs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got := string(r.Render(context.Background(), d.doc, d.env).HTML); got != want[d.name] {
					t.Errorf("%s: concurrent render differs", d.name)
				}
			}()
		}
	}
	wg.Wait()
}

type goldenDoc struct {
	name string
	doc  Doc
	env  Env
}

func goldenDocs(t testing.TB) []goldenDoc {
	t.Helper()
	files, err := filepath.Glob("testdata/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	var out []goldenDoc
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lang := strings.SplitN(filepath.Base(f), "-", 2)[0]
		body := 0
		if strings.HasPrefix(string(src), "---\n") {
			if i := strings.Index(string(src[4:]), "\n---\n"); i >= 0 {
				body = 4 + i + len("\n---\n")
			}
		}
		out = append(out, goldenDoc{
			name: strings.TrimSuffix(filepath.Base(f), ".md"),
			doc:  Doc{Path: filepath.ToSlash(f), Src: src, BodyStart: body},
			env:  Env{Lang: lang, Parts: parts(lang)},
		})
	}
	return out
}

// TestGolden renders testdata/*.md and compares with the .html, .toc and
// .diag files beside them; -update rewrites those.
func TestGolden(t *testing.T) {
	r := New(Options{})
	for _, d := range goldenDocs(t) {
		t.Run(d.name, func(t *testing.T) {
			res := r.Render(context.Background(), d.doc, d.env)
			var meta strings.Builder
			var dump func([]Heading, string)
			dump = func(hs []Heading, indent string) {
				for _, h := range hs {
					fmt.Fprintf(&meta, "%sh%d #%s %s\n", indent, h.Level, h.ID, h.Text)
					dump(h.Children, indent+"  ")
				}
			}
			meta.WriteString("# toc\n")
			dump(res.TOC, "")
			meta.WriteString("# diagnostics\n")
			for _, dg := range res.Diags {
				meta.WriteString(dg.String() + "\n")
			}
			fmt.Fprintf(&meta, "# reading minutes: %d\n# text\n%s\n# code\n%s\n", ReadingMinutes(d.env.Lang, res.Text), res.Text, res.CodeText)
			check(t, filepath.Join("testdata", d.name+".html"), res.HTML)
			check(t, filepath.Join("testdata", d.name+".meta"), []byte(meta.String()))
		})
	}
}

func check(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the output (run go test -update to accept):\n%s", path, got)
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"#2 で見たように\n日本語の\n文章",
		"```bash {title=\"x\" hl_lines=\"1-3,5\"}\n$ a\n```\n",
		"## はじめに {#x}\n\n| a |\n|---|\n| #4 |\n",
		"[#2](u) `#9` C#7 &#35;2 #99999999999",
		"```go {hl_lines=\"0-\" title=\"\n```",
		"---\nx: 1\n---\n",
	} {
		f.Add(s, 3)
	}
	r := New(Options{})
	f.Fuzz(func(t *testing.T, src string, bodyStart int) {
		res := r.Render(context.Background(), Doc{Path: "f.md", Src: []byte(src), BodyStart: bodyStart}, Env{Lang: "ja", Parts: parts("ja")})
		body := []byte(src)[min(max(bodyStart, 0), len(src)):]
		if !utf8.Valid(body) {
			return
		}
		if !utf8.Valid(res.HTML) {
			t.Errorf("invalid UTF-8 output for %q", src)
		}
		for _, d := range res.Diags {
			// The only errors markdown may report of any text: "#N" to a
			// part the series does not list, an attribute that an
			// attribute block or a fence may not set, and nesting too
			// deep to render.
			if d.Severity == diag.Error && !strings.Contains(d.Msg, "the series has no part") && !strings.HasPrefix(d.Msg, "heading: attribute ") && !strings.HasPrefix(d.Msg, "code block: attribute ") && !strings.HasPrefix(d.Msg, "lists and block quotes nested deeper than") {
				t.Errorf("error diagnostic: %s", d)
			}
		}
	})
}
