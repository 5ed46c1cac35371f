package shortcodes

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// uiText is a stand-in for the i18n bundle: a few keys per language, so
// the tests see that env.T wins over the package defaults.
var uiText = map[string]map[string]string{
	"ja": {"callout_exam": "試験ポイント", "planned": "準備中"},
	"ko": {"callout_exam": "시험 포인트", "planned": "준비 중"},
}

var partTitles = map[string]map[int]string{
	"ja": {2: "コントロールプレーン", 4: "kubeadm クラスターのインストール", 7: "etcd のバックアップ"},
	"ko": {2: "컨트롤 플레인", 4: "kubeadm 클러스터 설치", 7: "etcd 백업"},
}

func testEnv(lang string) markdown.Env {
	return markdown.Env{
		Lang: lang,
		T:    func(k string) string { return uiText[lang][k] },
		Parts: func(n int) (markdown.PartLink, bool) {
			title, ok := partTitles[lang][n]
			if !ok {
				return markdown.PartLink{}, false
			}
			if n == 2 {
				return markdown.PartLink{Href: "/" + lang + "/cka/02-control-plane/", Title: title, Published: true}, true
			}
			return markdown.PartLink{Title: title}, true
		},
	}
}

// render renders src as a page of lang with reg.
func render(t *testing.T, reg *Registry, lang, src string) markdown.Result {
	t.Helper()
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(reg)}})
	return r.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src)}, testEnv(lang))
}

func headers(res markdown.Result) []string {
	var out []string
	for _, d := range res.Diags {
		out = append(out, d.Header())
	}
	return out
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

var builtinCases = []struct{ name, src string }{
	{"part", "前回 {{< part 2 >}} と予定の {{< part n=7 >}}。\n"},
	{"callout", "{{% callout exam %}}\n**etcd** のクォーラム。\n{{% /callout %}}\n\n{{% callout kind=\"tip\" title=\"自分で\" %}}\nA\n{{% /callout %}}\n\n{{< callout />}}\n"},
	{"details", "{{% details summary=\"答え\" %}}\n- a\n- b\n{{% /details %}}\n\n{{% details summary=\"開いた\" open=true %}}\nx\n{{% /details %}}\n"},
	{"tabs", "{{< tabs >}}\n{{% tab \"kubeadm\" %}}\n```sh\nkubeadm init\n```\n{{% /tab %}}\n{{% tab label=\"<手動>\" %}}\n手で *書く*\n{{% /tab %}}\n{{< /tabs >}}\n\n{{< tabs >}}\n{{% tab \"one\" %}}\n1\n{{% /tab %}}\n{{< /tabs >}}\n"},
	{"figure", "{{< figure src=\"img/ha.png\" alt=\"HA の図\" caption=\"図 1\" width=800 height=450 >}}\n\n{{< figure src=\"javascript:alert(1)\" alt=\"x\" />}}\n"},
	{"quorum-table", "{{< quorum-table max=5 >}}\n"},
	{"topology", "{{< topology type=\"external\" controlPlanes=2 etcd=3 workers=1 down=\"cp-1,etcd-2\" caption=\"外部 etcd\" >}}\n"},
}

func TestBuiltinsGolden(t *testing.T) {
	for _, tc := range builtinCases {
		for _, lang := range []string{"ja", "ko"} {
			t.Run(tc.name+"."+lang, func(t *testing.T) {
				res := render(t, NewRegistry(), lang, tc.src)
				if len(res.Diags) > 0 {
					t.Fatalf("diagnostics:\n%v", res.Diags)
				}
				golden(t, tc.name+"."+lang+".html", res.HTML)
			})
		}
	}
}

// Shortcodes in code stay text: testdata/cases/literal.txt (TestCaseFiles).

func TestNothingLeaksIntoHeadings(t *testing.T) {
	src := "## 前提 {{< part 2 >}}\n\n### {{< part 7 >}} の準備\n\n## Tips {{< unknownthing >}}\n"
	res := render(t, NewRegistry(), "ja", src)
	var texts, ids []string
	var walk func(hs []markdown.Heading)
	walk = func(hs []markdown.Heading) {
		for _, h := range hs {
			texts = append(texts, h.Text)
			ids = append(ids, h.ID)
			walk(h.Children)
		}
	}
	walk(res.TOC)
	if len(texts) != 3 {
		t.Fatalf("TOC = %+v", res.TOC)
	}
	for i, s := range append(texts, ids...) {
		if strings.Contains(s, "{") || strings.Contains(s, "part") || strings.Contains(s, "unknown") {
			t.Errorf("TOC entry %d leaks the shortcode: %q", i, s)
		}
	}
	if !strings.Contains(string(res.HTML), `<a class="part-ref" href="/ja/cka/02-control-plane/">#2 コントロールプレーン</a>`) {
		t.Errorf("part not rendered in the heading:\n%s", res.HTML)
	}
}

// The places a call works: testdata/cases/places.txt (TestCaseFiles).

func TestPageErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"unknown", "a {{< calout >}}\n", []string{`p.md:1:7: unknown shortcode "calout"; did you mean "callout"?`}},
		{"unknown far", "{{< zzzzzz >}}\n", []string{`p.md:1:5: unknown shortcode "zzzzzz"`}},
		{"unclosed block", "# T\n\n{{% callout %}}\ntext\n", []string{`p.md:3:1: unclosed shortcode "callout": expected {{% /callout %}}`}},
		{"unclosed inline", "a {{% details \"s\" %}} b\n", []string{
			`p.md:1:3: shortcode "details" must stand alone on its line ({{% details %}} … on a line of its own)`,
			`p.md:1:3: unclosed shortcode "details": expected {{% /details %}}`}},
		{"stray closing", "x\n\n{{% /callout %}}\n", []string{`p.md:3:1: unexpected closing shortcode "/callout": no {{% callout %}} is open`}},
		{"mismatched", "{{% callout %}}\n{{% details \"s\" %}}\nx\n{{% /callout %}}\n", []string{`p.md:2:1: unclosed shortcode "details": expected {{% /details %}}`}},
		{"unknown argument", "{{% callout titel=\"x\" %}}\n{{% /callout %}}\n", []string{`p.md:1:13: unknown argument "titel" for "callout"; did you mean "title"?`}},
		{"missing required", "{{< figure alt=\"a\" >}}\n", []string{`p.md:1:1: missing required argument "src" for "figure"`}},
		{"no alt text, as Hugo takes it", "{{< figure src=\"a.png\" >}}\n", []string{`p.md:1:12: warning: image "a.png" has no alt text: say what it shows, for readers who cannot see it`}},
		{"wrong type", "see {{< part n=\"x\" >}}\n", []string{`p.md:1:14: argument "n" of "part" must be an integer, got string "x"`}},
		{"wrong type positional", "see {{< part x >}}\n", []string{`p.md:1:14: argument "n" of "part" must be an integer, got string "x"`}},
		{"one of", "{{% callout danger %}}\n{{% /callout %}}\n", []string{`p.md:1:13: argument "kind" of "callout" must be one of note, tip, warning, exam, got "danger"`}},
		{"one of suggestion", "{{% callout kind=tpi %}}\n{{% /callout %}}\n", []string{`p.md:1:13: argument "kind" of "callout" must be one of note, tip, warning, exam, got "tpi"; did you mean "tip"?`}},
		{"too many positional", "{{< part 2 3 >}}\n", []string{`p.md:1:12: "part" takes at most 1 positional argument`}},
		{"given twice", "{{< part 2 n=3 >}}\n", []string{`p.md:1:12: argument "n" of "part" is given twice, by position and by name`}},
		{"given twice, name first", "{{< part n=3 2 >}}\n", []string{`p.md:1:14: argument "n" of "part" is given twice, by position and by name`}},
		{"unterminated string", "日本 {{< figure src=\"a.png >}}\n", []string{`p.md:1:19: unterminated string`}},
		{"unexpected character", "{{< figure src=a.png @ >}}\n", []string{`p.md:1:22: unexpected character '@' in shortcode; a value with characters other than letters, digits, "-", "_" and "." is quoted, or named (name=value)`}},
		{"tab outside tabs", "{{% tab \"a\" %}}\nx\n{{% /tab %}}\n", []string{`p.md:1:1: shortcode "tab" must be directly inside {{% tabs %}}`}},
		{"text inside tabs", "{{< tabs >}}\nloose text\n{{< /tabs >}}\n", []string{`p.md:2:1: only "tab" shortcodes may appear inside {{< tabs >}}`}},
		{"part not in series", "{{< part 99 >}}\n", []string{`p.md:1:1: part 99 is not in this series`}},
		{"topology", "{{< topology controlPlanes=12 >}}\n", []string{`p.md:1:1: topology: controlPlanes must be between 1 and 9, got 12`}},
		{"several at once", "{{< part x >}} {{< nope >}}\n\n{{< figure >}}\n", []string{
			`p.md:1:10: argument "n" of "part" must be an integer, got string "x"`,
			`p.md:1:20: unknown shortcode "nope"`,
			`p.md:3:1: missing required argument "src" for "figure"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := headers(render(t, NewRegistry(), "ja", tt.src))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestDiagnosticHasCaret(t *testing.T) {
	res := render(t, NewRegistry(), "ja", "本文 {{< calout >}}\n")
	if len(res.Diags) != 1 {
		t.Fatal(res.Diags)
	}
	want := "p.md:1:8: unknown shortcode \"calout\"; did you mean \"callout\"?\n    1 | 本文 {{< calout >}}\n      |          ^"
	if got := res.Diags[0].String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFrontMatterOffsets(t *testing.T) {
	src := "---\ntitle: x\n---\n{{< nope >}}\n"
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(NewRegistry())}})
	res := r.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(src), BodyStart: 16}, testEnv("ja"))
	if got := headers(res); len(got) != 1 || got[0] != `p.md:4:5: unknown shortcode "nope"` {
		t.Errorf("diagnostics = %q", got)
	}
}

// TestNestingDepth: pairs nest up to MaxNesting; a deeper one is one
// error at its opening tag, the pairs past it are read as single tags,
// and a mistake inside is still reported, once.
func TestNestingDepth(t *testing.T) {
	nested := func(n int, open, mistake, inner, close, sep string) string {
		return strings.Repeat(open+sep, n/2) + mistake + sep + strings.Repeat(open+sep, n-n/2-1) + inner + sep + strings.Repeat(close+sep, n)
	}
	deep := func(line, col int, name string) string {
		return fmt.Sprintf("p.md:%d:%d: shortcode %q is nested deeper than 100 pairs: nest shortcodes less deeply (pairs past that depth are read as single tags)", line, col, name)
	}
	mistake := `p.md:%d:%d: argument "kind" of "callout" must be one of note, tip, warning, exam, got "oops"`
	tests := []struct {
		name   string
		src    string
		want   []string
		asides int // rendered callouts
	}{
		{"blocks at the limit", nested(MaxNesting, "{{% callout %}}", "{{% callout %}}", "x", "{{% /callout %}}", "\n"), nil, MaxNesting},
		{"blocks past it", nested(MaxNesting+1, "{{% callout %}}", "{{% callout %}}", "x", "{{% /callout %}}", "\n"),
			[]string{deep(MaxNesting+1, 1, "callout")}, MaxNesting},
		{"ten thousand blocks and one mistake", nested(10000, "{{% callout %}}", `{{% callout kind="oops" %}}`, "x", "{{% /callout %}}", "\n"),
			[]string{deep(MaxNesting+1, 1, "callout"), fmt.Sprintf(mistake, 5001, 13)}, MaxNesting},
		{"ten thousand inline pairs and one mistake", "a " + nested(10000, "{{< span >}}", "{{< span >}}{{< part oops >}}", "x", "{{< /span >}}", ""),
			[]string{deep(1, 3+12*MaxNesting, "span"), `p.md:1:60024: argument "n" of "part" must be an integer, got string "oops"`}, 0},
		{"nested inline pairs are closed", "a {{< span >}}{{< span >}}x{{< /span >}}{{< /span >}}\n", nil, 0},
	}
	reg := NewRegistry()
	reg.Add(&Shortcode{Name: "span", Inner: true, AnyArgs: true, Render: func(w io.Writer, c *Context) error {
		_, err := fmt.Fprintf(w, "<span>%s</span>", c.Inner())
		return err
	}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := render(t, reg, "ja", tt.src)
			got := headers(res)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if n := strings.Count(string(res.HTML), "<aside"); n != tt.asides {
				t.Errorf("%d callouts rendered, want %d", n, tt.asides)
			}
		})
	}
}

// TestDiagramStyleOncePerPage: a page's diagrams share one stylesheet,
// carried by the first.
func TestDiagramStyleOncePerPage(t *testing.T) {
	src := "{{< topology >}}\n\n{{< topology type=\"external\" >}}\n\n{{< ha-sim >}}\n"
	res := render(t, NewRegistry(), "ja", src)
	if len(res.Diags) > 0 {
		t.Fatal(res.Diags)
	}
	html := string(res.HTML)
	if n := strings.Count(html, "<svg"); n < 3 {
		t.Fatalf("%d diagrams", n)
	}
	if n := strings.Count(html, "<style>"); n != 1 {
		t.Fatalf("%d <style> elements, want 1", n)
	}
	if strings.Index(html, "<style>") > strings.Index(html, "</svg>") {
		t.Fatal("the stylesheet is not in the first diagram")
	}
}

// TestSiteShortcodeArgs: a site template takes named or positional
// arguments, as in Hugo, never both in one call; a built-in takes both.
func TestSiteShortcodeArgs(t *testing.T) {
	reg := NewRegistry()
	reg.Add(&Shortcode{Name: "badge", AnyArgs: true, Render: func(w io.Writer, c *Context) error {
		_, err := fmt.Fprintf(w, "<b>%v %v</b>", c.Positional, c.Args)
		return err
	}})
	tests := []struct{ src, html, diag string }{
		{`{{< badge "a" 2 >}}`, "<b>[a 2] map[]</b>", ""},
		{`{{< badge kind="a" >}}`, "<b>[] map[kind:a]</b>", ""},
		{`{{< badge kind="a" 2 >}}`, "", `p.md:1:22: positional and named arguments cannot be mixed in "badge"`},
		{`{{< badge 2 kind="a" >}}`, "", `p.md:1:15: positional and named arguments cannot be mixed in "badge"`},
	}
	for _, tt := range tests {
		res := render(t, reg, "ja", "x "+tt.src+"\n")
		got := strings.Join(headers(res), "\n")
		if got != tt.diag {
			t.Errorf("%s: diagnostics %q, want %q", tt.src, got, tt.diag)
		}
		if tt.html != "" && !strings.Contains(string(res.HTML), tt.html) {
			t.Errorf("%s: %s lacks %s", tt.src, res.HTML, tt.html)
		}
	}
}
