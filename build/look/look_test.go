package look_test

import (
	"context"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/look"
)

// TestLoad: the bundled theme and UI strings load, with the markdown
// renderer, keyed by the UI strings' and shortcode templates' files; a site language without UI
// strings stops it, saying so.
func TestLoad(t *testing.T) {
	ctx := context.Background()
	l := config.Layout{}.WithDefaults()
	load := func(s *sitetest.Site, langs ...string) (*look.Look, string) {
		cfg, _ := config.Load(ctx, s.Fs(), l.Config)
		lk, diags := look.Load(ctx, s.Fs(), l, cfg, langs, highlight.Default(), false)
		return lk, diags.Error()
	}
	s := sitetest.New(t, "-- content/ja/a.md --\n# a\n")
	lk, diags := load(s, "ja", "ko")
	if lk == nil || lk.Bundle == nil || lk.Theme == nil || lk.MD == nil || lk.MDKey == 0 {
		t.Fatalf("the bundled look did not load: %+v\n%s", lk, diags)
	}
	if got := lk.Bundle.T("ko", "search_label"); got != "사이트 검색" {
		t.Errorf("ko search_label: %q", got)
	}
	sc := l.Shortcodes()
	s.WriteFile(sc[len(sc)-1]+"/aside.html", "<aside>{{ .Inner }}</aside>")
	if lk2, _ := load(s, "ja", "ko"); lk2 == nil || lk2.MDKey == lk.MDKey {
		t.Error("a new shortcode template keeps the markdown key")
	}
	if lk, diags := load(sitetest.New(t, "-- content/xx/a.md --\n# a\n"), "xx"); lk != nil || diags == "" {
		t.Errorf("a language without UI strings: %+v, %q", lk, diags)
	}
}
