package config

import (
	"context"
	"testing"

	"github.com/spf13/afero"
)

// TestLoadSite: the languages come from the content folders and the theme
// the file names falls back to the default when it is not there, saying
// so; a site without languages cannot be built.
func TestLoadSite(t *testing.T) {
	ctx := context.Background()
	l := Layout{}.WithDefaults()
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "content/ja/a.md", []byte("# a\n"), 0o644)
	afero.WriteFile(fsys, "content/ko/a.md", []byte("# a\n"), 0o644)
	afero.WriteFile(fsys, l.Config, []byte("theme = \"nosuch\"\n"), 0o644)
	s, ok := LoadSite(ctx, fsys, l, "themes/default")
	if !ok || len(s.Langs) != 2 || s.Langs[0] != "ja" || s.Langs[1] != "ko" || s.Theme != "themes/default" || len(s.Diags) == 0 {
		t.Errorf("ok %v, langs %v, theme %q, diags %v", ok, s.Langs, s.Theme, s.Diags)
	}
	if s, ok := LoadSite(ctx, afero.NewMemMapFs(), l, "themes/default"); ok || len(s.Diags.Errors()) == 0 {
		t.Errorf("no content: ok %v, %v", ok, s.Diags)
	}
}
