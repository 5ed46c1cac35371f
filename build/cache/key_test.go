package cache

import (
	"testing"

	"github.com/spf13/afero"
)

// TestKey: the key of the same program, strings, layouts and options is
// the same; a change of any of them, a layout's among them, is another;
// a theme file outside its layouts is none.
func TestKey(t *testing.T) {
	theme := func(extra map[string]string) afero.Fs {
		fs := afero.NewMemMapFs()
		files := map[string]string{"layouts/baseof.html": "<html>", "static/css/main.css": "a{}"}
		for p, s := range extra {
			files[p] = s
		}
		for p, s := range files {
			if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return fs
	}
	base := Key("0.1.0", 1, theme(nil), "https://example.org/", "false")
	if again := Key("0.1.0", 1, theme(nil), "https://example.org/", "false"); again != base {
		t.Error("the same input gave another key")
	}
	for name, k := range map[string]uint64{
		"strings":     Key("0.1.0", 2, theme(nil), "https://example.org/", "false"),
		"a layout":    Key("0.1.0", 1, theme(map[string]string{"layouts/baseof.html": "<html lang>"}), "https://example.org/", "false"),
		"a new one":   Key("0.1.0", 1, theme(map[string]string{"layouts/list.html": "x"}), "https://example.org/", "false"),
		"an option":   Key("0.1.0", 1, theme(nil), "https://example.org/", "true"),
		"the options": Key("0.1.0", 1, theme(nil), "https://example.org/false"),
	} {
		if k == base {
			t.Errorf("another %s gave the same key", name)
		}
	}
	if k := Key("0.1.0", 1, theme(map[string]string{"static/css/main.css": "b{}"}), "https://example.org/", "false"); k != base {
		t.Error("a static file changed the key")
	}
}
