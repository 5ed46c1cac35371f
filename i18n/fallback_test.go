package i18n

import (
	"context"
	"testing"

	"github.com/spf13/afero"
)

func TestFallback(t *testing.T) {
	for lang, m := range fallbacks {
		for k := range fallbacks[""] {
			if m[k] == "" {
				t.Errorf("fallback %q has no string for %q", lang, k)
			}
		}
	}
	tests := []struct{ lang, key, want string }{
		{"ja", "planned", "準備中"},
		{"ko", "copy", "복사"},
		{"fr", "copy", "Copy"},
		{"ja", "no_such_key", ""},
	}
	for _, tt := range tests {
		if got := Fallback(tt.lang, tt.key); got != tt.want {
			t.Errorf("Fallback(%q, %q) = %q, want %q", tt.lang, tt.key, got, tt.want)
		}
	}
}

// TestFallbackAgreesWithTheFiles: a fallback string of ja or ko is the
// embedded file's, so a page rendered without a bundle reads as a built one.
func TestFallbackAgreesWithTheFiles(t *testing.T) {
	b, diags := LoadSite(context.Background(), afero.NewMemMapFs(), "i18n")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for lang, m := range fallbacks {
		if lang == "" {
			continue
		}
		for k, s := range m {
			if !b.Has(lang, k) {
				t.Errorf("fallback %s %q: no such key in %s.toml", lang, k, lang)
			} else if got := b.T(lang, k); got != s {
				t.Errorf("fallback %s %q = %q, but %s.toml has %q", lang, k, s, lang, got)
			}
		}
	}
}
