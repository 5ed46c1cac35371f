package translation

import (
	"context"
	"reflect"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// TestCheck: the diagnostics Check finds without pairing are those of
// Pairs, for sites with and without translationOf, right and wrong.
func TestCheck(t *testing.T) {
	langs := []string{"ja", "ko", "en"}
	for name, files := range map[string]map[string]string{
		"none": {
			"content/ja/a.md": "---\ntitle: a\n---\n",
			"content/ko/a.md": "---\ntitle: a\n---\n",
		},
		"faults": {
			"content/ja/a.md":       "---\ntitle: a\n---\n",
			"content/ko/a.md":       "---\ntitle: a\ntranslationOf: kr\n---\n",
			"content/ja/b.md":       "---\ntitle: b\ntranslationOf: ja\n---\n",
			"content/ko/c.md":       "---\ntitle: c\n---\n",
			"content/en/c.md":       "---\ntitle: c\ntranslationOf: ko\n---\n",
			"content/ja/c.md":       "---\ntitle: c\ntranslationOf: en\n---\n",
			"content/ko/d.md":       "---\ntitle: d\ntranslationOf: ja\n---\n",
			"content/ja/d/index.md": "---\ntitle: d\ntranslationOf: ko\n---\n",
			"content/ja/d.md":       "---\ntitle: d\n---\n",
		},
	} {
		fs := afero.NewMemMapFs()
		for p, s := range files {
			if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c, _ := source.Load(context.Background(), fs, "content", langs)
		_, want := Pairs(c, langs)
		if got := Check(c, langs); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Check\n%v\nPairs\n%v", name, got, want)
		}
		if name == "faults" && len(want) < 3 {
			t.Errorf("%s: %d faults found: the test checks too few", name, len(want))
		}
	}
}
