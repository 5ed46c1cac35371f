package config

import (
	"path"
	"slices"
	"testing"
)

// TestLayoutShortcodes: the shortcode templates are read from the
// theme's shortcodes/ and layouts/shortcodes/ (and _shortcodes/), then
// the site's layouts/shortcodes/ (and _shortcodes/), in that order of
// precedence; an edit in any of them is an edit of the look, in a folder
// the authoring server watches.
func TestLayoutShortcodes(t *testing.T) {
	l := Layout{Theme: "themes/plain"}
	want := []string{"themes/plain/shortcodes", "themes/plain/layouts/shortcodes", "themes/plain/layouts/_shortcodes",
		"layouts/shortcodes", "layouts/_shortcodes"}
	if got := l.Shortcodes(); !slices.Equal(got, want) {
		t.Fatalf("Shortcodes = %q, want %q", got, want)
	}
	if got := (Layout{}).Shortcodes()[0]; got != "themes/default/shortcodes" {
		t.Errorf("the default theme's shortcodes: %q", got)
	}
	for _, dir := range want {
		p := path.Join(dir, "test", "hello.html")
		if got := l.PartOf(p); got != Look {
			t.Errorf("PartOf(%q) = %d, want Look", p, got)
		}
		watched := false
		for _, w := range l.Watched() {
			watched = watched || within(p, w)
		}
		if !watched {
			t.Errorf("%s is in no folder of Watched %q", p, l.Watched())
		}
	}
}
