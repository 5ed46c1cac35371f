package source

import (
	"strings"
	"testing"
)

// TestSeriesMessages pins the texts and positions of the messages about a
// series file: each says "series file" or names the series field, at the
// offending value.
func TestSeriesMessages(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"id climbs out", "id: \"../../../../escape\"\nparts: []\n",
			`s.yaml:1:5: series field "id" cannot be used as a folder name: "../../../../escape" contains '/': it must be a single name, not a path`},
		{"id with a backslash", "parts: []\nid: 'a\\b'\n",
			`s.yaml:2:5: series field "id" cannot be used as a folder name: "a\\b" contains '\\': it must be a single name, not a path`},
		{"id with a control character", "id: \"cka\\x01\"\nparts: []\n",
			`s.yaml:1:5: series field "id" cannot be used as a folder name: "cka\x01" contains the control character U+0001`},
		{"id with a drive letter", "id: \"C:x\"\nparts: []\n",
			`s.yaml:1:5: series field "id" cannot be used as a folder name: "C:x" starts with a drive letter`},
		{"id dot dot", "id: ..\nparts: []\n",
			`s.yaml:1:5: series field "id" cannot be used as a folder name: ".." would name a folder above or at the same level`},
		{"id dot", "id: '.'\nparts: []\n",
			`s.yaml:1:5: series field "id" cannot be used as a folder name: "." would name a folder above or at the same level`},
		{"id with a space", "id: \" cka\"\nparts: []\n",
			`s.yaml:1:5: series field "id" cannot be used as a folder name: " cka" starts or ends with a space`},
		{"id not a string", "id: 5\nparts: []\n", `s.yaml:1:5: series field "id" must be a non-empty string`},
		{"yaml: extra brace", "id: cka\ntitle: {ja: a, ko: b}}\nparts: []\n",
			`s.yaml:2:22: series file: did not find expected key`},
		{"yaml: mapping value", "id: cka\ntitle: a: b\nparts: []\n",
			`s.yaml:2:9: series file: mapping values are not allowed in this context`},
		{"yaml: unclosed quote", "id: cka\nparts: []\ntitle: \"CKA\n",
			`s.yaml:3:8: series file: found unexpected end of stream`},
		{"yaml: tab", "id: cka\nparts:\n\t- number: 1\n",
			`s.yaml:3:1: series file: found character that cannot start any token`},
		{"yaml: part indented wrong", "id: cka\nparts:\n  - number: 1\n    title: {ja: a}\n   state: x\n",
			`s.yaml:5:4: series file: did not find expected '-' indicator`},
		{"yaml: on the first line", "id: @cka\nparts: []\n",
			`s.yaml:1:5: series file: found character that cannot start any token`},
		{"not a mapping", "\n- a\n", `s.yaml:2:1: a series file must be a mapping with id, title and parts`},
		{"title not a map", "id: cka\ntitle: CKA\nparts: []\n",
			`s.yaml:2:8: series field "title" must map each language to a string, like {ja: "…", ko: "…"}`},
		{"title entry not a string", "id: cka\ndescription: {ja: [a]}\nparts: []\n",
			`s.yaml:2:19: series field "description": ja must be a string`},
		{"part title not a map", "id: cka\nparts:\n  - number: 1\n    title: x\n",
			`s.yaml:4:12: part "title" must map each language to a string, like {ja: "…", ko: "…"}`},
		{"part title entry not a string", "id: cka\nparts:\n  - number: 1\n    title: {ko: 2}\n",
			`s.yaml:4:17: part "title": ko must be a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d := ParseSeries("s.yaml", []byte(tt.src))
			if s != nil {
				t.Fatalf("a series was returned despite the error")
			}
			if len(d) != 1 || d[0].Header() != tt.want {
				t.Fatalf("got %q\nwant %q", headers(d), tt.want)
			}
		})
	}
}

// TestFrontMatterMessages pins the texts and positions of YAML errors in a
// page's front matter: they say "front matter", at the file's line and
// column, not the front matter's.
func TestFrontMatterMessages(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"mapping value", "---\ntitle: x\n  bad: : y\n---\n", `p.md:3:6: front matter: mapping values are not allowed in this context`},
		{"unclosed quote", "---\ntitle: \"unclosed\nnext: 1\n---\n", `p.md:2:8: front matter: found unexpected end of stream`},
		{"unclosed list", "---\ntitle: x\ntags: [a, b\npart: 1\n---\n", `p.md:3:8: front matter: did not find expected ',' or ']'`},
		{"bad escape", "---\ntitle: \"a\\qb\"\n---\n", `p.md:2:10: front matter: found unknown escape character`},
		{"wide characters before", "---\ntitle: クラスター: x\n---\n", `p.md:2:13: front matter: mapping values are not allowed in this context`},
		{"duplicate key", "---\ntags:\n  a: 1\n  a: 2\n---\n", `p.md:4:3: front matter: mapping key "a" already defined at line 3`},
		{"duplicate key on one line", "---\ntags: {a: 1, a: 2}\n---\n", `p.md:2:14: front matter: mapping key "a" already defined at line 2`},
		{"explicit tag", "---\ntitle: x\npart: !!int five\n---\n", "p.md:3:7: front matter: cannot decode !!str `five` as a !!int"},
		{"unknown anchor", "---\ntitle: *x\n---\n", `p.md:2:9: front matter: unknown anchor 'x' referenced`},
		{"toml", "+++\ntitle = \n+++\n", `p.md:2:9: front matter: toml: unexpected character U+000A at start of value`},
		{"toml after wide characters", "+++\ntitle = \"日本語\" x\n+++\n", `p.md:2:15: front matter: toml: expected newline but got U+0078 'x'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg, d := ParsePage("p.md", []byte(tt.src))
			if pg != nil {
				t.Fatalf("a page was returned despite the error")
			}
			if len(d) != 1 || d[0].Header() != tt.want {
				t.Fatalf("got %q\nwant %q", headers(d), tt.want)
			}
		})
	}
}

func headers(l interface{ Error() string }) string {
	var out []string
	for _, line := range strings.Split(l.Error(), "\n") {
		if !strings.HasPrefix(line, "    ") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
