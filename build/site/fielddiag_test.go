package site

import (
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// headers are the first lines of ds' messages.
func headers(ds diag.List) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Header())
	}
	return out
}

// TestFieldDiagAtTheField: a message about a front matter field is at the
// field's name as the parser read it, however the field is written: a
// space before YAML's colon, a quoted or indented TOML key, a TOML value
// whose text also appears earlier; and at the file's start when the page
// does not write the field.
func TestFieldDiagAtTheField(t *testing.T) {
	tests := []struct{ name, path, src, want string }{
		{"yaml", "", "---\ntitle: t\nseries: cka\npart: 3\n---\n",
			`content/ja/cka/03-x.md:4:1: part 3 is not in series "cka" (content/series/cka.yaml lists #2, #4, #5)`},
		{"yaml space before the colon", "", "---\ntitle: t\nseries: cka\npart : 3\n---\n",
			`content/ja/cka/03-x.md:4:1: part 3 is not in series "cka" (content/series/cka.yaml lists #2, #4, #5)`},
		{"toml quoted key", "", "+++\ntitle = \"t\"\nseries = \"cka\"\n\"part\" = 3\n+++\n",
			`content/ja/cka/03-x.md:4:1: part 3 is not in series "cka" (content/series/cka.yaml lists #2, #4, #5)`},
		{"toml indented key", "", "+++\ntitle = \"t\"\n  series = \"cka\"\n  part = 3\n+++\n",
			`content/ja/cka/03-x.md:4:3: part 3 is not in series "cka" (content/series/cka.yaml lists #2, #4, #5)`},
		{"yaml series in a string before it", "", "---\ntitle: \"t\nseries: nope\"\nseries: nope\npart: 2\n---\n",
			`content/ja/cka/03-x.md:4:1: series "nope" has no series file (content/series/nope.yaml)`},
		{"series of the folder", "", "---\ntitle: t\ndescription: |\n  part: 3\npart: 3\n---\n",
			`content/ja/cka/03-x.md:5:1: part 3 is not in series "cka" (content/series/cka.yaml lists #2, #4, #5)`},
		{"series not written", "content/ja/k8s/03-x.md", "---\ntitle: t\npart: 3\n---\n",
			`content/ja/k8s/03-x.md:1:1: series "k8s" has no series file (content/series/k8s.yaml)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "content/ja/cka/03-x.md"
			if tt.path != "" {
				path = tt.path
			}
			_, d := resolve(t, map[string]string{
				"content/series/cka.yaml": seriesYAML,
				path:                      tt.src,
			})
			errs := d.Errors()
			if len(errs) != 1 || errs[0].Header() != tt.want {
				t.Errorf("got  %q\nwant %q", headers(errs), tt.want)
			}
		})
	}
}
