package shortcodes

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// errHeaders returns the "path:line:col: message" lines of a parse.
func errHeaders(src string) []string {
	_, errs := Parse("p.md", []byte(src))
	var out []string
	for _, d := range errs {
		out = append(out, d.Header())
	}
	return out
}

func TestLexErrors(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{`{{< part 7`, `p.md:1:11: unterminated shortcode: expected ">}}"`},
		{`{{% callout`, `p.md:1:12: unterminated shortcode: expected "%}}"`},
		{`{{< >}}`, `p.md:1:5: missing shortcode name`},
		{`{{< "x" >}}`, `p.md:1:5: expected a shortcode name, found '"'`},
		{`{{< part 7 %}}`, `p.md:1:12: shortcode opened with "{{<" must end with ">}}"`},
		{`{{% part 7 >}}`, `p.md:1:12: shortcode opened with "{{%" must end with "%}}"`},
		{`{{< callout title="abc >}}`, `p.md:1:19: unterminated string`},
		{"{{< callout title=\"a\nb\" >}}", "p.md:1:19: unterminated string"},
		{"{{< callout\n  title=\"a\n  b\" >}}", "p.md:2:9: unterminated string"},
		{"{{< callout\n  title=\"a\"\n", `p.md:3:1: unterminated shortcode: expected ">}}"`},
		{"{{< callout title=`abc >}}", `p.md:1:19: unterminated raw string`},
		{"{{< callout title=\"a\\`b\" >}}", "p.md:1:21: invalid escape \"\\`\" in string: only \\\" is an escape"},
		{"{{< callout title=\\`b\\` >}}", "p.md:1:19: invalid escape \"\\`\" in shortcode: a raw string is written `…`, with no backslash"},
		{`{{< callout title=\x >}}`, `p.md:1:19: unexpected "\" in the value of "title": a value that starts with a backslash is a string written \"…\"`},
		{`{{< figure a/b.png >}}`, `p.md:1:13: unexpected "/" in shortcode: a value holding "/" is quoted or named (src=a/b.png), and a self-closing shortcode ends with "/>}}"`},
		{`{{< figure # >}}`, `p.md:1:12: unexpected character '#' in shortcode; a value with characters other than letters, digits, "-", "_" and "." is quoted, or named (name=value)`},
		{`{{< figure .5 >}}`, `p.md:1:12: unexpected character '.' in shortcode; a value with characters other than letters, digits, "-", "_" and "." is quoted, or named (name=value)`},
		{`{{< figure +3 >}}`, `p.md:1:12: unexpected character '+' in shortcode; a value with characters other than letters, digits, "-", "_" and "." is quoted, or named (name=value)`},
		{`{{< figure =3 >}}`, `p.md:1:12: missing argument name before "="`},
		{`{{< fig.ure >}}`, `p.md:1:8: unexpected "." in a shortcode name: only an inline shortcode's name, NAME.inline, holds one`},
		{`{{< -x >}}`, `p.md:1:5: expected a shortcode name, found '-'`},
		{`{{< part n= >}}`, `p.md:1:13: missing value for argument "n"`},
		{`{{< part n=3 n=4 >}}`, `p.md:1:14: warning: argument "n" is given twice; the last value counts, as in Hugo`},
		{`{{< /callout kind=tip >}}`, `p.md:1:14: closing shortcode "callout" takes no arguments`},
		{`{{< /callout tip >}}`, `p.md:1:14: closing shortcode "callout" takes no arguments`},
		{`{{< /callout />}}`, `p.md:1:14: closing shortcode "callout" cannot be self-closing`},
		{`{{< part / 7 >}}`, `p.md:1:10: unexpected "/" in shortcode: a value holding "/" is quoted or named (src=a/b.png), and a self-closing shortcode ends with "/>}}"`},
		{`{{</* part 7 >}}`, `p.md:1:1: unterminated shortcode comment: expected "*/>}}"`},
		{`{{< /callout >}}`, `p.md:1:1: unexpected closing shortcode "/callout": no {{< callout >}} is open`},
		{"日本語 {{< 試験 # >}}", `p.md:1:12: unexpected character '#' in shortcode; a value with characters other than letters, digits, "-", "_" and "." is quoted, or named (name=value)`},
		{"{{< a.inline >}}{{< b >}}{{< /a.inline >}}", `p.md:1:17: shortcode "b" inside the inline shortcode "a.inline": an inline shortcode's inner text is its template, which holds no shortcode (Hugo refuses it too)`},
		{"a\n  {{% x %}}\n{{% /y %}}", `p.md:3:1: unexpected closing shortcode "/y": no {{% y %}} is open`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got := errHeaders(tt.src)
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("errors = %q\nwant     [%q]", got, tt.want)
			}
		})
	}
}

func TestErrorKeepsScanning(t *testing.T) {
	src := "{{< a # >}} and {{< b \"x >}}\n{{< c >}}"
	calls, errs := Parse("p.md", []byte(src))
	if len(errs) != 2 {
		t.Fatalf("want 2 errors, got %v", errs)
	}
	if len(calls) != 1 || calls[0].Name != "c" {
		t.Errorf("calls = %+v, want only c", calls)
	}
}

func str(s string) Value          { return Value{Kind: String, Str: s} }
func integer(n int64) Value       { return Value{Kind: Int, Int: n} }
func float(f float64) Value       { return Value{Kind: Float, Float: f} }
func boolean(b bool) Value        { return Value{Kind: Bool, Bool: b} }
func named(n string, v Value) Arg { return Arg{Name: n, Value: v} }
func pos(v Value) Arg             { return Arg{Value: v} }

// shape prints a call tree without byte offsets.
func shape(calls []Call) string {
	var b strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&b, "%s", c.Name)
		if c.Markdown {
			b.WriteString("%")
		}
		if c.SelfClosing {
			b.WriteString("/")
		}
		if c.Paired {
			fmt.Fprintf(&b, "[%q", c.Inner)
			if len(c.Children) > 0 {
				b.WriteString(" " + shape(c.Children))
			}
			b.WriteString("]")
		}
		b.WriteString(" ")
	}
	return strings.TrimSpace(b.String())
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		src  string
		args []Arg
	}{
		{`{{< x >}}`, nil},
		{`{{< x 7 >}}`, []Arg{pos(integer(7))}},
		{`{{< x -7 >}}`, []Arg{pos(integer(-7))}},
		{`{{< x a=+3 b=-7 c=007 >}}`, []Arg{named("a", integer(3)), named("b", integer(-7)), named("c", integer(7))}},
		{`{{< x 1.5 2e3 1.2e3 >}}`, []Arg{pos(float(1.5)), pos(str("2e3")), pos(str("1.2e3"))}},
		{`{{< x a=.5 b=1. c=-0.25 d=0x10 >}}`, []Arg{named("a", float(.5)), named("b", str("1.")), named("c", float(-.25)), named("d", str("0x10"))}},
		{`{{< x 99999999999999999999 >}}`, []Arg{pos(str("99999999999999999999"))}},
		{`{{< x true false True >}}`, []Arg{pos(boolean(true)), pos(boolean(false)), pos(str("True"))}},
		{`{{< x warning v1.2 1.2.3 >}}`, []Arg{pos(str("warning")), pos(str("v1.2")), pos(str("1.2.3"))}},
		{`{{< x "a b" >}}`, []Arg{pos(str("a b"))}},
		{`{{< x "a\nb\\c\u00e9\q" >}}`, []Arg{pos(str(`a\nb\\c\u00e9\q`))}},
		{`{{< x "Hello \"World\"" >}}`, []Arg{pos(str(`Hello "World"`))}},
		{`{{< x "C:\dir \"x\"" >}}`, []Arg{pos(str(`C:dir "x"`))}},
		{`{{< x \"esc\" a >}}`, []Arg{pos(str("esc")), pos(str("a"))}},
		{`{{< x t=\"esc\" >}}`, []Arg{named("t", str("esc"))}},
		{"{{< x `raw \\n \"` >}}", []Arg{pos(str(`raw \n "`))}},
		{"{{< x `a``b`\"c\" >}}", []Arg{pos(str("a")), pos(str("b")), pos(str("c"))}},
		{"{{< x `one\ntwo` >}}", []Arg{pos(str("one\ntwo"))}},
		{`{{< x a="x"b="y" >}}`, []Arg{named("a", str("x")), named("b", str("y"))}},
		{`{{< figure src=a/b.png url=https://example.com/?q=1#top alt=@x >}}`, []Arg{named("src", str("a/b.png")), named("url", str("https://example.com/?q=1#top")), named("alt", str("@x"))}},
		{`{{< x 9x=1 a.b-c=2 >}}`, []Arg{named("9x", integer(1)), named("a.b-c", integer(2))}},
		{"{{< figure\n  src=\"a.png\"\r\n  alt=`A`\n>}}", []Arg{named("src", str("a.png")), named("alt", str("A"))}},
		{`{{< x n=3 m=1 n=4 >}}`, []Arg{named("m", integer(1)), named("n", integer(4))}},
		{`{{< x a=b/>}}`, []Arg{named("a", str("b"))}},
		{`{{< x a="x" n=3 ok=true f=0.25 >}}`, []Arg{named("a", str("x")), named("n", integer(3)), named("ok", boolean(true)), named("f", float(0.25))}},
		{`{{< x a = "x" b=` + "`y`" + ` >}}`, []Arg{named("a", str("x")), named("b", str("y"))}},
		{`{{< x label="日本語 한국어" >}}`, []Arg{named("label", str("日本語 한국어"))}},
		{`{{< x "true" >}}`, []Arg{pos(str("true"))}},
		{`{{<x n=1>}}`, []Arg{named("n", integer(1))}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			calls, errs := Parse("p.md", []byte(tt.src))
			for _, d := range errs {
				if d.Severity != diag.Warning {
					t.Fatalf("calls %v, errors %v", calls, errs)
				}
			}
			if len(calls) != 1 {
				t.Fatalf("calls %v, errors %v", calls, errs)
			}
			got := calls[0].Args
			for i := range got {
				got[i].Pos = 0
			}
			if !reflect.DeepEqual(got, tt.args) {
				t.Errorf("args = %+v\nwant   %+v", got, tt.args)
			}
		})
	}
}

func TestParseForms(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{`{{< part 7 >}}`, `part`},
		{`{{< figure src="a" />}}`, `figure/`},
		{`{{% callout %}}*hi*{{% /callout %}}`, `callout%["*hi*"]`},
		{"{{< tabs >}}\n{{% tab label=\"a\" %}}A{{% /tab %}}\n{{% tab %}}B{{% /tab %}}\n{{< /tabs >}}",
			`tabs["\n{{% tab label=\"a\" %}}A{{% /tab %}}\n{{% tab %}}B{{% /tab %}}\n" tab%["A"] tab%["B"]]`},
		{`{{< a >}}{{< b >}}{{< /a >}}`, `a["{{< b >}}" b]`},
		{`{{< a >}}{{< a >}}x{{< /a >}}{{< /a >}}`, `a["{{< a >}}x{{< /a >}}" a["x"]]`},
		{`{{< a >}} {{< b >}}`, `a b`},
		{`{{</* part 7 */>}} and {{%/* x */%}}`, ``},
		{"{{</* part\n  7 */>}}", ``},
		{`{{< test/hello >}}x{{< /test/hello >}}`, `test/hello["x"]`},
		{`{{< a/b/c />}} {{< x/>}}`, `a/b/c/ x/`},
		{"{{< a\n  n=1 >}}\nx\n{{< /a\n>}}", `a["\nx\n"]`},
		{`{{< a.inline >}}{{ .Get 0 }}{{< /a.inline >}}`, `a.inline["{{ .Get 0 }}"]`},
		{`{{ .Go }} {x} {{<`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			calls, errs := Parse("p.md", []byte(tt.src))
			if tt.src == `{{ .Go }} {x} {{<` {
				if len(errs) != 1 {
					t.Errorf("want one error, got %v", errs)
				}
			} else if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if got := shape(calls); got != tt.want {
				t.Errorf("shape = %s\nwant    %s", got, tt.want)
			}
		})
	}
}

func TestParsePositions(t *testing.T) {
	src := "前文 {{< callout kind=\"tip\" >}}中{{< /callout >}}"
	calls, errs := Parse("p.md", []byte(src))
	if len(errs) > 0 || len(calls) != 1 {
		t.Fatal(calls, errs)
	}
	c := calls[0]
	if got := src[c.Pos:c.End]; got != `{{< callout kind="tip" >}}中{{< /callout >}}` {
		t.Errorf("Pos:End = %q", got)
	}
	if got := src[c.Pos:c.TagEnd]; got != `{{< callout kind="tip" >}}` {
		t.Errorf("Pos:TagEnd = %q", got)
	}
	if got := src[c.NamePos:]; !strings.HasPrefix(got, "callout ") {
		t.Errorf("NamePos at %q", got)
	}
	if got := src[c.Args[0].Pos:]; !strings.HasPrefix(got, "kind=") {
		t.Errorf("arg Pos at %q", got)
	}
	if src[c.InnerPos:c.InnerPos+len(c.Inner)] != "中" {
		t.Errorf("InnerPos wrong")
	}
}

// TestParsePositionsOnLaterLines: in a tag over several lines, arguments
// and errors are placed on their own lines.
func TestParsePositionsOnLaterLines(t *testing.T) {
	src := "前文\n{{< callout\n  kind=\"tip\"\n\t日本=`a\nb` >}}\n"
	calls, errs := Parse("p.md", []byte(src))
	if len(errs) > 0 || len(calls) != 1 {
		t.Fatal(calls, errs)
	}
	var got []string
	for _, a := range calls[0].Args {
		l, c := diag.Position([]byte(src), a.Pos)
		got = append(got, fmt.Sprintf("%s@%d:%d", a.Name, l, c))
	}
	if want := "kind@3:3 日本@4:2"; strings.Join(got, " ") != want {
		t.Errorf("argument positions %q, want %q", strings.Join(got, " "), want)
	}
	if h := errHeaders("a\n{{< x\n  n=1\n  m=# >}}\n{{< y\n  \"z\n  \" >}}"); strings.Join(h, "\n") != "p.md:6:3: unterminated string" {
		t.Errorf("errors %q", h)
	}
}

func TestLiteral(t *testing.T) {
	src := []byte(`{{</* part 7 */>}}`)
	tg, err := parseTag(src, 0, len(src))
	if err != nil || !tg.literal || tg.text != "{{< part 7 >}}" || tg.end != len(src) {
		t.Errorf("tag = %+v, %v", tg, err)
	}
	src = []byte(`{{%/* /callout */%}}`)
	tg, err = parseTag(src, 0, len(src))
	if err != nil || tg.text != "{{% /callout %}}" {
		t.Errorf("tag = %+v, %v", tg, err)
	}
}

func TestNumberKind(t *testing.T) {
	for w, want := range map[string]Kind{
		"1": Int, "-1": Int, "+1": Int, "007": Int, ".5": Float, "-.5": Float, "1.25": Float, "+0.5": Float,
		"1.": String, "1e5": String, "1E-5": String, "1.5e3": String,
		"-": String, ".": String, "1e": String, "1.2.3": String, "e5": String, "1x": String, "inf": String, "１": String,
	} {
		if got := numberKind(w); got != want {
			t.Errorf("numberKind(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestParseNesting: Parse pairs up to MaxNesting deep; one error where a
// pair goes deeper, the pairs past it left out with their closing tags,
// the calls inside kept. Many single calls in a row are not nesting.
func TestParseNesting(t *testing.T) {
	depth := func(calls []Call) int {
		d := 0
		for len(calls) > 0 {
			d++
			next := calls[0].Children
			for _, c := range calls {
				if len(c.Children) > 0 {
					next = c.Children
				}
			}
			calls = next
		}
		return d
	}
	pairs := func(n int, inner string) string {
		return strings.Repeat("{{< span >}}\n", n) + inner + strings.Repeat("{{< /span >}}\n", n)
	}
	tests := []struct {
		name  string
		src   string
		depth int
		errs  []string
	}{
		{"at the limit", pairs(MaxNesting, "x\n"), MaxNesting, nil},
		{"past it", pairs(MaxNesting+1, "{{< part 1 >}}\n"), MaxNesting + 1,
			[]string{`p.md:101:1: shortcode "span" is nested deeper than 100 pairs: nest shortcodes less deeply (pairs past that depth are read as single tags)`}},
		{"ten thousand", pairs(10000, "{{< part 1 >}}\n"), MaxNesting + 1,
			[]string{`p.md:101:1: shortcode "span" is nested deeper than 100 pairs: nest shortcodes less deeply (pairs past that depth are read as single tags)`}},
		{"single calls in a row", strings.Repeat("{{< part 1 >}}\n", 3*MaxNesting) + pairs(3, "x\n"), 3, nil},
		{"single calls inside pairs", pairs(MaxNesting-1, strings.Repeat("{{< part 1 >}}", 3*MaxNesting)+"{{< span >}}x{{< /span >}}\n"), MaxNesting, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, errs := Parse("p.md", []byte(tt.src))
			var got []string
			for _, d := range errs {
				got = append(got, d.Header())
			}
			if strings.Join(got, "\n") != strings.Join(tt.errs, "\n") {
				t.Errorf("errors %q, want %q", got, tt.errs)
			}
			if d := depth(calls); d != tt.depth {
				t.Errorf("calls nest %d deep, want %d", d, tt.depth)
			}
		})
	}
}
