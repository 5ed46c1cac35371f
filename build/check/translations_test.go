package check

import (
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// TestCode: a problem keeps the kind its stage gave it; the build's own
// are named by what found them.
func TestCode(t *testing.T) {
	for msg, want := range map[string]string{
		`link to "02-missing.md": no such page (content/ja/cka/02-missing.md)`:        "link",
		`image "missing.png" not found: no file content/ja/cka/x/missing.png`:         "image",
		`#9: the series has no part 9`:                                                "part",
		`part 99 is not in this series`:                                               "part",
		`part 4 is not in series "cka" (content/series/cka.yaml lists #1, #2, #3)`:    "part",
		`part #2 is published but has no ko page`:                                     "missing-translation",
		`front matter field "part" must be a positive whole number, got string "one"`: "front-matter",
		`template: article.html:3: function "nope" not defined`:                       "build",
		`argument "members" of "quorum" must be an integer, got string "x"`:           "shortcode",
		`unknown shortcode "nope"`:                                                    "shortcode",
		`part "state" must be "published" or "planned", got "publshed"`:               "series",
		`series "cka" has no series file (content/series/cka.yaml)`:                   "series",
		`key "extra" is missing from i18n/ko.toml`:                                    "ui-string",
	} {
		if got := Code(diag.Diagnostic{Msg: msg}); got != want {
			t.Errorf("Code(%q) = %q, want %q", msg, got, want)
		}
	}
	if got := Code(diag.Diagnostic{Msg: "link to x", Code: "fragment"}); got != "fragment" {
		t.Errorf("a given kind became %q", got)
	}
}
