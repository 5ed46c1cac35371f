package highlight

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// chromaTokens is what writeTokens stands for: chroma's formatter, with
// classes and without its <pre>, on the coalesced tokens.
func chromaTokens(t testing.TB, lang, code string) string {
	t.Helper()
	it, err := chroma.Coalesce(Lexer(lang)).Tokenise(nil, code)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))
	if err := f.Format(&b, styles.Fallback, it); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func ourTokens(t testing.TB, lang, code string) string {
	t.Helper()
	it, err := Lexer(lang).Tokenise(nil, code)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeTokens(&b, it)
	return b.String()
}

// tokenCases are code blocks of the kinds the course has, and the edges
// of chroma's coalescing: runs of one type longer than it joins, runs
// across lines, text to escape, no final newline.
func tokenCases(t testing.TB) []struct{ lang, code string } {
	cases := []struct{ lang, code string }{
		{"bash", "sudo kubeadm init --control-plane-endpoint \"lb:6443\" \\\n  --upload-certs\n# a comment & <more> 'quoted'\necho $HOME\n"},
		{"console", "$ kubectl get nodes\nNAME   STATUS\ncp-1   Ready\n# etcdctl member list\n"},
		{"yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"x\" # comment\nspec:\n  containers: []\n"},
		{"text", "plain <text> & \"quotes\"\n\n\nno final newline"},
		{"", "unknown language\n"},
		{"go", "package main\n\nfunc main() { println(\"日本語\", 'x') }\n"},
		{"bash", "# " + strings.Repeat("long comment ", 1500) + "\n" + strings.Repeat("x", 9000)},
		{"text", strings.Repeat("a line of plain text\n", 800)},
		{"yaml", strings.Repeat("# c\n", 3000) + "k: v\n"},
		{"bash", ""},
		{"bash", "\n"},
		{"console", "$ echo \"a\r\nb\"\r\n"},
	}
	// The course's own blocks.
	files, _ := filepath.Glob(filepath.Join("..", "..", "content", "*", "*", "*.md"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var lang string
		var code strings.Builder
		in := false
		for _, l := range strings.SplitAfter(string(src), "\n") {
			switch {
			case strings.HasPrefix(l, "```") && in:
				cases = append(cases, struct{ lang, code string }{lang, code.String()})
				in = false
			case strings.HasPrefix(l, "```"):
				in, lang = true, strings.Fields(strings.TrimPrefix(l, "```") + " x")[0]
				code.Reset()
			case in:
				code.WriteString(l)
			}
		}
	}
	return cases
}

func TestWriteTokensIsChroma(t *testing.T) {
	cases := tokenCases(t)
	if len(cases) < 20 {
		t.Fatalf("%d cases: the course's code blocks were not found", len(cases))
	}
	for _, c := range cases {
		if got, want := ourTokens(t, c.lang, c.code), chromaTokens(t, c.lang, c.code); got != want {
			t.Errorf("%s block %.40q:\ngot  %.300q\nwant %.300q", c.lang, c.code, got, want)
		}
	}
}

func FuzzWriteTokens(f *testing.F) {
	for _, c := range tokenCases(f) {
		if len(c.code) < 2000 {
			f.Add(c.lang, c.code)
		}
	}
	f.Fuzz(func(t *testing.T, lang, code string) {
		for _, l := range []string{lang, "bash", "console", "yaml"} {
			if got, want := ourTokens(t, l, code), chromaTokens(t, l, code); got != want {
				t.Errorf("%s block %q:\ngot  %q\nwant %q", l, code, got, want)
			}
		}
	})
}
