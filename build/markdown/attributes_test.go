package markdown

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// TestAttributeBlocks: an attribute block sets id and class and nothing
// else; every other attribute is an error at its position and never
// reaches the HTML.
func TestAttributeBlocks(t *testing.T) {
	tests := []struct {
		name, src string
		wantHTML  string   // a fragment the HTML holds
		wantDiags []string // headers, in order
	}{
		{
			name:     "id and class",
			src:      "## 見出し {#midashi .note .wide}\n",
			wantHTML: `<h2 id="midashi" class="note wide">`,
		},
		{
			name:      "a calculator's script",
			src:       "## x {data-calc=\"quorum\" data-wasm-exec=\"https://evil.example/x.js\"}\n",
			wantHTML:  `<h2 id="x">`,
			wantDiags: []string{`doc.md:1:7: heading: attribute "data-calc" is not allowed: an attribute block sets only {#id} and {.class}`, `doc.md:1:26: heading: attribute "data-wasm-exec" is not allowed: an attribute block sets only {#id} and {.class}`},
		},
		{
			name:      "search's script beside a class",
			src:       "## 検索 {.search data-script=\"https://evil.example/x.js\"}\n",
			wantHTML:  `<h2 class="search" id="検索">`,
			wantDiags: []string{`doc.md:1:16: heading: attribute "data-script" is not allowed: an attribute block sets only {#id} and {.class}`},
		},
		{
			name:      "setext heading with a handler and an upper-case id",
			src:       "Setext {onclick=\"alert(1)\" ID=\"q\"}\n----\n",
			wantHTML:  `<h2 id="setext">`,
			wantDiags: []string{`doc.md:1:9: heading: attribute "onclick" is not allowed: an attribute block sets only {#id} and {.class}`, `doc.md:1:28: heading: attribute "ID" must be written "id"`},
		},
		{
			name:      "style and an id that is a number",
			src:       "# z {style=\"color:red\" id=3}\n",
			wantHTML:  `<h1 id="z">`,
			wantDiags: []string{`doc.md:1:6: heading: attribute "style" is not allowed: an attribute block sets only {#id} and {.class}`, `doc.md:1:24: heading: attribute "id" must be a quoted string, not a number`},
		},
		{
			name:      "a name inside another's value is not where it is reported",
			src:       "## t {title=\"data-x\" data-x=1}\n",
			wantHTML:  `<h2 id="t">`,
			wantDiags: []string{`doc.md:1:7: heading: attribute "title" is not allowed: an attribute block sets only {#id} and {.class}`, `doc.md:1:22: heading: attribute "data-x" is not allowed: an attribute block sets only {#id} and {.class}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := render(t, New(Options{}), tt.src)
			var got []string
			for _, d := range res.Diags {
				if d.Severity != diag.Error {
					t.Errorf("not an error: %s", d.Header())
				}
				got = append(got, d.Header())
			}
			if strings.Join(got, "\n") != strings.Join(tt.wantDiags, "\n") {
				t.Errorf("diagnostics\n got:\n%s\n want:\n%s", strings.Join(got, "\n"), strings.Join(tt.wantDiags, "\n"))
			}
			if !strings.Contains(string(res.HTML), tt.wantHTML) {
				t.Errorf("HTML lacks %s:\n%s", tt.wantHTML, res.HTML)
			}
			if bad := foreignAttributes(res.HTML); len(bad) > 0 {
				t.Errorf("attributes from content reached the HTML: %q\n%s", bad, res.HTML)
			}
		})
	}
}

var headingTagRe = regexp.MustCompile(`<h[1-6]((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*>`)
var attrNameRe = regexp.MustCompile(`\s+([^\s=>]+)(?:="[^"]*")?`)

// foreignAttributes lists the attributes of the HTML's heading tags other
// than id and class.
func foreignAttributes(html []byte) []string {
	var bad []string
	for _, m := range headingTagRe.FindAllSubmatch(html, -1) {
		for _, a := range attrNameRe.FindAllSubmatch(m[1], -1) {
			if n := string(a[1]); n != "id" && n != "class" {
				bad = append(bad, n)
			}
		}
	}
	return bad
}

// FuzzAttributes: whatever an attribute block holds, no attribute other
// than id and class reaches a heading's HTML, and rendering never panics.
func FuzzAttributes(f *testing.F) {
	for _, s := range []string{
		`#id .c`, `data-calc="quorum" data-wasm-exec="https://evil.example/x.js"`, `.search data-script=URL`,
		`onclick="alert(1)"`, `style='x' ID=1`, `class=[1,2] id=null`, `#a#b ..c`, `x:y=1 _z="\"" a.b-c=true`,
		`src="x.js" srcdoc="<script>"`, `Data-X=1 CLASS="a"`,
	} {
		f.Add(s)
	}
	r := New(Options{})
	f.Fuzz(func(t *testing.T, attrs string) {
		if strings.ContainsAny(attrs, "\n\r") {
			return
		}
		for _, src := range []string{"## h {" + attrs + "}\n", "h {" + attrs + "}\n===\n", "- ### l {" + attrs + "}\n"} {
			res := r.Render(context.Background(), Doc{Path: "f.md", Src: []byte(src)}, Env{Lang: "ja"})
			if bad := foreignAttributes(res.HTML); len(bad) > 0 {
				t.Fatalf("%q: attributes %q reached the HTML:\n%s", src, bad, res.HTML)
			}
		}
	})
}
