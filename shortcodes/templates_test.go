package shortcodes

import (
	"context"
	"testing"

	"github.com/spf13/afero"
)

// TestTemplateParseErrorColumns pins where parse errors of site shortcode
// templates are reported: text/template names only the line, the column
// is that of the token or action the message is about.
func TestTemplateParseErrorColumns(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"undefined function", "<p>\n  <b>{{ .Lang }}</b> {{ nosuch .Args }}\n",
			`sc/x.html:2:25: function "nosuch" not defined`},
		{"stray brace", "<p>{{ .Lang }}{{ .Args } }}</p>", `sc/x.html:1:24: unexpected "}" in operand`},
		{"bad character", "<p>{{ .Lang # }}</p>", `sc/x.html:1:13: unexpected "#" in operand`},
		{"undefined variable", "<p>{{ $x }}</p>", `sc/x.html:1:7: undefined variable "$x"`},
		{"bad number", "<p>{{ 1x }}</p>", `sc/x.html:1:7: bad number syntax: "1x"`},
		{"unexpected end", "<p>{{ .Lang }}</p>\n  {{ end }}", `sc/x.html:2:3: unexpected {{end}}`},
		{"missing value", "<p>{{ .Lang }}{{ if }}{{ end }}</p>", `sc/x.html:1:15: missing value for if`},
		{"template clause", "<p>{{ .Lang }} {{ template }}</p>", `sc/x.html:1:28: unexpected "}}" in template clause`},
		{"unterminated string", `<p>{{ T "a" }}{{ T "b }}</p>`, `sc/x.html:1:20: unterminated quoted string`},
		{"unclosed paren", `<p>{{ T (print "a") (print "b" }}</p>`, `sc/x.html:1:21: unclosed left paren`},
		{"wide characters before", "<p>日本語 {{ nosuch }}</p>", `sc/x.html:1:11: function "nosuch" not defined`},
		{"unclosed action, where it opens", "<p>\n{{ .Lang \n", `sc/x.html:2:1: unclosed action started at x.html:2`},
		{"unclosed action after text", "<p>\n<b>日本{{ .Lang \n", `sc/x.html:2:6: unclosed action started at x.html:2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			if err := afero.WriteFile(fs, "sc/x.html", []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errs := NewRegistry().LoadTemplates(context.Background(), fs, "sc")
			if len(errs) != 1 || errs[0].Header() != tt.want {
				t.Fatalf("got %v\nwant %q", errs, tt.want)
			}
		})
	}
}

// TestTemplatesInSubfolders: a template in a subfolder of the shortcode
// folder is named by its path, as in Hugo (shortcodes/test/hello.html is
// {{< test/hello >}}); a folder whose name cannot be part of a shortcode
// name is an error at the file.
func TestTemplatesInSubfolders(t *testing.T) {
	fs := afero.NewMemMapFs()
	for p, src := range map[string]string{
		"sc/top.html":             "top",
		"sc/test/hello.html":      "hello {{ .Args.n }}",
		"sc/test/deep/inner.html": "{{ .Inner }}",
		"sc/test/notes.txt":       "not a template",
		"sc/bad name/x.html":      "x",
	} {
		if err := afero.WriteFile(fs, p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRegistry()
	_, errs := r.LoadTemplates(context.Background(), fs, "sc")
	want := `sc/bad name/x.html: "bad name/x" is not a valid shortcode name: use letters, digits, "-" and "_"`
	if len(errs) != 1 || errs[0].Header() != want {
		t.Errorf("errors %v\nwant [%s]", errs, want)
	}
	for name, src := range map[string]string{"top": "sc/top.html", "test/hello": "sc/test/hello.html", "test/deep/inner": "sc/test/deep/inner.html"} {
		s, ok := r.Lookup(name)
		if !ok || s.Source != src {
			t.Errorf("Lookup(%q) = %+v, %v; want the template %s", name, s, ok, src)
		}
	}
	if s, _ := r.Lookup("test/deep/inner"); s == nil || !s.Inner {
		t.Errorf("test/deep/inner should take inner content")
	}
	if _, ok := r.Lookup("test/notes"); ok {
		t.Errorf("a file that is not .html is no template")
	}
}
