package shortcodes

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark"
)

// FuzzLex feeds arbitrary text to the tag lexer and to Parse and Validate:
// none may panic, and every position they return lies inside the input.
func FuzzLex(f *testing.F) {
	f.Add(`{{< part 7 >}}`)
	f.Add(`{{% callout kind="tip" %}}x{{% /callout %}}`)
	reg := NewRegistry()
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		for i := nextTag(src, 0); i >= 0; i = nextTag(src, i+1) {
			tg, err := parseTag(src, i, len(src))
			if err != nil {
				if err.Pos < i || err.Pos > len(src) {
					t.Fatalf("error position %d outside [%d,%d]", err.Pos, i, len(src))
				}
				continue
			}
			if tg.end <= i || tg.end > len(src) {
				t.Fatalf("tag end %d outside (%d,%d]", tg.end, i, len(src))
			}
		}
		calls, errs := Parse("f.md", src)
		errs = append(errs, reg.Validate("f.md", src, calls)...)
		var check func(cs []Call)
		check = func(cs []Call) {
			for _, c := range cs {
				if c.Pos < 0 || c.TagEnd > c.End || c.End > len(src) || c.Pos >= c.TagEnd {
					t.Fatalf("bad call offsets %+v", c)
				}
				check(c.Children)
			}
		}
		check(calls)
		for _, d := range errs {
			_ = d.String()
		}
	})
}

// FuzzPage renders arbitrary markdown with the extension, through the
// markdown package (which turns a panic into an "internal error"
// diagnostic) and through bare goldmark (where a panic fails the test).
func FuzzPage(f *testing.F) {
	for _, tc := range builtinCases {
		f.Add(tc.src)
	}
	reg := NewRegistry()
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(reg)}})
	bare := goldmark.New(goldmark.WithExtensions(Extension(reg)))
	f.Fuzz(func(t *testing.T, s string) {
		res := r.Render(context.Background(), markdown.Doc{Path: "f.md", Src: []byte(s)}, testEnv("ja"))
		for _, d := range res.Diags {
			if strings.Contains(d.Msg, "internal error") {
				t.Fatalf("%v", d)
			}
		}
		var buf bytes.Buffer
		if err := bare.Convert([]byte(s), &buf); err != nil {
			t.Fatal(err)
		}
	})
}
