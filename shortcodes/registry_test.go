package shortcodes

import (
	"context"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"

	"github.com/spf13/afero"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`{{< part 2 >}}`, nil},
		{`{{< calout >}}`, []string{`p.md:1:5: unknown shortcode "calout"; did you mean "callout"?`}},
		{`{{< Part 2 >}}`, []string{`p.md:1:5: unknown shortcode "Part"; did you mean "part"?`}},
		{"{{% callout %}}\nx", []string{`p.md:1:1: unclosed shortcode "callout": expected {{% /callout %}}`}},
		{`{{< callout />}}`, nil},
		{`{{< part 2 >}}x{{< /part >}}`, []string{`p.md:1:1: shortcode "part" takes no inner content`}},
		{`{{< figure alt="a" >}}`, []string{`p.md:1:1: missing required argument "src" for "figure"`}},
		// Hugo's built-ins take what Hugo's templates take.
		{`{{< figure src="a" alt="b" width="10" height=5 >}}`, nil},
		{`{{< figure src="a" alt="b" width="50%" >}}`, []string{`p.md:1:28: argument "width" of "figure" must be an integer (or a string of one), got string "50%"`}},
		{`{{< figure src="a" alt="b" width=1.5 >}}`, []string{`p.md:1:28: argument "width" of "figure" must be an integer (or a string of one), got float 1.5`}},
		{`{{< details summary=true >}}{{< /details >}}`, nil},
		{`{{< details "s" open=1 >}}{{< /details >}}`, nil},
		{`{{< details open=true "s" >}}{{< /details >}}`, nil},
		{`{{< details summary="s" open="0" >}}{{< /details >}}`, []string{`p.md:1:25: warning: argument "open" of "details" must be true or false (or 1 or 0, quoted or not), got string "0"; it keeps its default (false), as in Hugo`}},
		{`{{< youtube id=12345 controls="yes" >}}`, []string{`p.md:1:22: warning: argument "controls" of "youtube" must be true or false (or 1 or 0, quoted or not), got string "yes"; it keeps its default (true), as in Hugo`}},
		// A raw inner text holds no calls.
		{"{{< highlight go >}}\n{{< nope >}}\n{{< /highlight >}}", nil},
		{`{{< comment >}}{{< part >}}{{< /comment >}}`, nil},
		// kakehashi's own keep strict types.
		{`{{< topology controlPlanes=1.5 >}}`, []string{`p.md:1:14: argument "controlPlanes" of "topology" must be an integer, got float 1.5`}},
		{`{{< topology controlPlanes="3" >}}`, []string{`p.md:1:14: argument "controlPlanes" of "topology" must be an integer, got string "3"`}},
		{`{{< callout kind=3 >}}{{< /callout >}}`, []string{`p.md:1:13: argument "kind" of "callout" must be a string, got integer 3`}},
		{`{{< figure x=1 src="a" alt="b" >}}`, []string{`p.md:1:12: unknown argument "x" for "figure"; it takes src, alt, caption, width, height, title, link, target, rel, attr, attrlink, loading, class`}},
		{`{{< tabs x=1 >}}{{< /tabs >}}`, []string{`p.md:1:10: unknown argument "x": "tabs" takes no arguments`}},
		{`{{< figure "a" >}}`, []string{`p.md:1:12: "figure" takes no positional arguments; name them (name="value")`, `p.md:1:1: missing required argument "src" for "figure"`}},
		{`{{< tab "a" >}}{{< /tab >}}`, []string{`p.md:1:1: shortcode "tab" must be directly inside {{< tabs >}}`}},
		{`{{< tabs >}}{{< part 2 >}}{{< /tabs >}}`, []string{`p.md:1:13: only "tab" shortcodes may appear inside {{< tabs >}}`}},
	}
	reg := NewRegistry()
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			calls, errs := Parse("p.md", []byte(tt.src))
			errs = append(errs, reg.Validate("p.md", []byte(tt.src), calls)...)
			var got []string
			for _, d := range errs {
				got = append(got, d.Header())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"callout", "details", "part", "tab", "tabs"}
	for in, want := range map[string]string{
		"calout": "callout", "detials": "details", "prat": "part", "tabss": "tabs", "xyz": "", "a": "", "quorum": "",
	} {
		if got := diag.Suggest(in, names); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSiteTemplates(t *testing.T) {
	fs := afero.NewMemMapFs()
	files := map[string]string{
		"themes/default/shortcodes/callout.html":  `<div class="my-callout {{.Args.kind}}">{{T "callout_note"}}|{{.Lang}}|{{.Inner | markdownify}}</div>`,
		"themes/default/shortcodes/kbd.html":      `<kbd>{{index .Pos 0}}</kbd>`,
		"themes/default/shortcodes/broken.html":   "<p>\n{{ .Args.x \n",
		"themes/default/shortcodes/bad name.html": `x`,
		"themes/default/shortcodes/notes.txt":     `ignored`,
	}
	for p, s := range files {
		if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg := NewRegistry()
	over, errs := reg.LoadTemplates(context.Background(), fs, "themes/default/shortcodes")
	if strings.Join(over, ",") != "callout" {
		t.Errorf("overridden = %q, want [callout]", over)
	}
	var got []string
	for _, d := range errs {
		got = append(got, d.Header())
	}
	want := []string{
		`themes/default/shortcodes/bad name.html: "bad name" is not a valid shortcode name: use letters, digits, "-" and "_"`,
		`themes/default/shortcodes/broken.html:2:1: unclosed action started at broken.html:2`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	res := render(t, reg, "ko", "{{< callout kind=\"x<y\" >}}\n**in**\n{{< /callout >}}\n\nPress {{< kbd \"Ctrl+C\" >}}.\n")
	if len(res.Diags) > 0 {
		t.Fatalf("diagnostics: %v", res.Diags)
	}
	html := string(res.HTML)
	for _, w := range []string{
		`<div class="my-callout x&lt;y">메모|ko|<strong>in</strong></div>`,
		`<p>Press <kbd>Ctrl&#43;C</kbd>.</p>`,
	} {
		if !strings.Contains(html, w) {
			t.Errorf("HTML lacks %q:\n%s", w, html)
		}
	}

	// A missing folder is no error.
	if over, errs := NewRegistry().LoadTemplates(context.Background(), fs, "themes/none/shortcodes"); over != nil || errs != nil {
		t.Errorf("missing dir: %v %v", over, errs)
	}
}

func TestTemplateExecError(t *testing.T) {
	fs := afero.NewMemMapFs()
	_ = afero.WriteFile(fs, "sc/boom.html", []byte("<p>\n{{index .Pos 5}}</p>"), 0o644)
	reg := NewRegistry()
	if _, errs := reg.LoadTemplates(context.Background(), fs, "sc"); len(errs) > 0 {
		t.Fatal(errs)
	}
	got := headers(render(t, reg, "ja", "x {{< boom >}}\n"))
	want := `p.md:1:3: shortcode "boom": sc/boom.html:2:3: executing "boom.html" at <index .Pos 5>: error calling index: index out of range: 5`
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestTemplateExecErrorColumn: an execution error's column counts
// characters, not bytes, after Japanese text.
func TestTemplateExecErrorColumn(t *testing.T) {
	fs := afero.NewMemMapFs()
	_ = afero.WriteFile(fs, "sc/wide.html", []byte("<p>日本語{{index .Pos 5}}</p>"), 0o644)
	reg := NewRegistry()
	if _, errs := reg.LoadTemplates(context.Background(), fs, "sc"); len(errs) > 0 {
		t.Fatal(errs)
	}
	got := headers(render(t, reg, "ja", "x {{< wide >}}\n"))
	if len(got) != 1 || !strings.Contains(got[0], "sc/wide.html:1:9: executing") {
		t.Errorf("got %q, want the error at sc/wide.html:1:9", got)
	}
}
