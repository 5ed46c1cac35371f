package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/highlight"
)

func TestMathErrors(t *testing.T) {
	for _, ok := range []string{
		`a{top:calc(100% + .25rem)}`,
		`h1{font-size:clamp(1.6rem,1.2rem + 1.6vw,2.1rem)}`,
		`h1{font-size:clamp(1.6rem, 1.2rem + 1.6vw, 2.1rem)}`,
		`a{width:calc(100% - -1px);height:calc(-1px + 2px*3);margin:calc(1rem/2) CALC( 1px + 2px )}`,
		`a{width:calc(1px + (2px - 3px) * 2);height:min(10px + var(--x),5vw)}`,
		`a{width:calc(var(--a) - var(--b));top:max(1px,2px)}`,
		`@media (min-width:calc(40rem + 1px)){a{b:c}}`,
		`li+li{margin:-1px +2px}`, // outside math functions + and signs are free
		`a{b:calc(1px +`,          // cut short: nothing wrong yet
	} {
		if errs := MathErrors([]byte(ok)); len(errs) > 0 {
			t.Errorf("MathErrors(%q) = %q, want none", ok, errs)
		}
	}
	for _, bad := range []string{
		`a{top:calc(100%+.25rem)}`,                        // "+.25rem" is a number
		`h1{font-size:clamp(1.6rem,1.2rem+1.6vw,2.1rem)}`, // "+1.6vw" too
		`a{top:calc(100%.25rem)}`,                         // the operator gone
		`a{top:calc(100% +.25rem)}`,
		`a{top:calc(100%+ .25rem)}`,
		`a{top:calc(100% -3px)}`,
		`a{top:calc(1px + (2px -3px))}`,
		`a{top:calc(1px+var(--x))}`,
		`a{top:calc(- 1px)}`,
		"a{b:c}\n@media (min-width:calc(40rem+1px)){a{b:c}}",
	} {
		if errs := MathErrors([]byte(bad)); len(errs) == 0 {
			t.Errorf("MathErrors(%q) found nothing", bad)
		} else if !strings.HasPrefix(errs[0], "line ") {
			t.Errorf("MathErrors(%q) = %q, want line numbers", bad, errs)
		}
	}
	if errs := MathErrors([]byte("a{b:c}\n\nd{top:calc(100%+.25rem)}")); len(errs) != 1 || !strings.HasPrefix(errs[0], "line 3: calc(100%+.25rem)") {
		t.Errorf("MathErrors = %q, want one at line 3", errs)
	}
}

// mathCallRe finds the opening of a math function, to count them.
var mathCallRe = regexp.MustCompile(`(?i)\b(calc|clamp|min|max)\(`)

// TestThemeCSSMinified minifies the default theme's stylesheets and the
// highlight stylesheet as a build publishes them and checks that every
// calculation stays valid CSS: + and - with whitespace on both sides, an
// operator between two values, none lost.
func TestThemeCSSMinified(t *testing.T) {
	files, err := loadDefault(t).Static()
	if err != nil {
		t.Fatal(err)
	}
	sheets := map[string][]byte{}
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".css") {
			sheets[f.Path] = f.Data
		}
	}
	hl, err := highlight.New("", "")
	if err != nil {
		t.Fatal(err)
	}
	sheets["/css/chroma.css"] = hl.CSS()
	for _, p := range []string{"/css/main.css", "/css/calc.css", "/css/print.css"} {
		if sheets[p] == nil {
			t.Errorf("default theme has no %s", p)
		}
	}
	min := NewMinifier()
	for p, src := range sheets {
		for _, e := range MathErrors(src) {
			t.Errorf("%s (the theme's source): %s", p, e)
		}
		out := min.Minify(p, src)
		if len(out) >= len(src) {
			t.Errorf("%s was not minified (%d bytes, from %d)", p, len(out), len(src))
		}
		for _, e := range MathErrors(out) {
			t.Errorf("%s minified: %s", p, e)
		}
		if n, m := len(mathCallRe.FindAll(src, -1)), len(mathCallRe.FindAll(out, -1)); n != m {
			t.Errorf("%s: %d math functions in the source, %d minified", p, n, m)
		}
	}
	main := min.Minify("main.css", sheets["/css/main.css"])
	for _, want := range []string{"top:calc(100% + .25rem)", "font-size:clamp(1.6rem,1.2rem + 1.6vw,2.1rem)"} {
		if !bytes.Contains(main, []byte(want)) {
			t.Errorf("minified main.css lacks %s", want)
		}
	}
	printSheet := string(min.Minify("print.css", sheets["/css/print.css"]))
	for _, want := range []string{"@page{size:A4;", "@bottom-center{content:counter(page)"} {
		if !strings.Contains(printSheet, want) {
			t.Errorf("minified print.css lacks %s:\n%s", want, printSheet)
		}
	}
}

// TestMinifyKeepsWellFormedMath publishes a stylesheet as written when
// its minified form would break a calculation the source has right.
func TestMinifyKeepsWellFormedMath(t *testing.T) {
	min := NewMinifier()
	src := []byte("a {\n  top: calc(100% + .25rem);\n  color: #ffffff;\n}\n")
	if out := min.Minify("a.css", src); string(out) != "a{top:calc(100% + .25rem);color:#fff}" {
		t.Errorf("Minify = %q", out)
	}
	// Already wrong in the source: minified all the same (the check of
	// the theme's sources above catches it).
	bad := []byte("a {\n  top: calc(100%+.25rem);\n}\n")
	if out := min.Minify("b.css", bad); len(out) >= len(bad) {
		t.Errorf("Minify(%q) = %q, not minified", bad, out)
	}
}
