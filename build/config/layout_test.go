package config

import (
	"slices"
	"testing"
)

// TestLayoutDefaults: a layout's empty folders are the default ones, the
// ones it names kept, and every folder derived from them follows.
func TestLayoutDefaults(t *testing.T) {
	if got := (Layout{}).WithDefaults(); got != DefaultLayout() {
		t.Errorf("the empty layout: %+v, want %+v", got, DefaultLayout())
	}
	d := DefaultLayout()
	if d.Config != File || d.Theme != "themes/default" || d.Content != "content" {
		t.Errorf("DefaultLayout: %+v", d)
	}
	l := Layout{Theme: "skins/plain", Cache: ".cache"}
	got := l.WithDefaults()
	if got.Theme != "skins/plain" || got.Cache != ".cache" || got.Content != d.Content || got.I18n != d.I18n ||
		got.Output != d.Output || got.Config != d.Config {
		t.Errorf("a layout naming a theme and a cache: %+v", got)
	}
	for _, c := range []struct{ name, got, want string }{
		{"Themes", l.Themes(), "skins"},
		{"Themes of the default", (Layout{}).Themes(), "themes"},
		{"Lock", l.Lock(), ".cache/lock"},
		{"BuildCache", l.BuildCache(), ".cache/build"},
		{"WasmCache", (Layout{}).WasmCache(), ".kakehashi-cache/wasm"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if got := l.Watched(); !slices.Equal(got, []string{"content", "skins", "i18n", File, "layouts", "static"}) {
		t.Errorf("Watched = %v", got)
	}
	if got := l.Inputs(); !slices.Equal(got, []string{"content", "skins", "i18n", "static", "layouts", ".cache"}) {
		t.Errorf("Inputs = %v", got)
	}
}

// TestPartOf: a path is in the static files (the theme's before the rest
// of it), the look, the content, or elsewhere.
func TestPartOf(t *testing.T) {
	l := Layout{Theme: "themes/plain"}
	for p, want := range map[string]Part{
		"static/img/a.png":          Static,
		"themes/plain/static/x.css": Static,
		"themes/plain/static":       Static,
		"themes/plain/layouts/a":    Look,
		"themes/plain/shortcodes/x": Look,
		"themes/plain":              Look,
		"layouts/baseof.html":       Look,
		"i18n/ja.toml":              Look,
		File:                        Look,
		"content/ja/a.md":           Content,
		"content/series/cka.yaml":   Content,
		"content":                   Content,
		"themes/other/layouts/a":    Elsewhere,
		"contents/a.md":             Elsewhere,
		"static.txt":                Elsewhere,
		"README.md":                 Elsewhere,
		"public/index.html":         Elsewhere,
	} {
		if got := l.PartOf(p); got != want {
			t.Errorf("PartOf(%q) = %d, want %d", p, got, want)
		}
	}
}
