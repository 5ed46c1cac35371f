package build_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// TestRenderDocLangs: a document renders in one of the site's languages
// (Builder.Langs, build/config's), none other.
func TestRenderDocLangs(t *testing.T) {
	s := sitetest.New(t, twoParts(t))
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	langs, err := b.Langs(context.Background())
	if err != nil || !slices.Equal(langs, []string{"ja", "ko"}) {
		t.Fatalf("Langs = %v, %v; want the content folders, ja and ko", langs, err)
	}
	for _, tc := range []struct{ lang, want string }{
		{"", "準備中"},
		{"ko", "준비 중"},
	} {
		html, diags := b.RenderDoc(context.Background(), "x.md", []byte("---\nseries: cka\npart: 1\n---\n#3\n"), tc.lang)
		if len(diags) > 0 || !strings.Contains(string(html), tc.want) {
			t.Errorf("RenderDoc(%q) = %s, %v; want %s", tc.lang, html, diags, tc.want)
		}
	}
	_, diags := b.RenderDoc(context.Background(), "x.md", []byte("#3\n"), "en")
	if got := diags.Errors(); len(got) != 1 || got[0].Header() != `x.md: language "en" is not one of the site's languages (ja, ko)` {
		t.Errorf("RenderDoc(en) = %v, want that en is not one of the site's languages", diags)
	}
}
