package i18n

import "testing"

func TestFallback(t *testing.T) {
	tests := []struct{ lang, key, want string }{
		{"ja", "planned", "準備中"},
		{"ko", "copy", "복사"},
		{"en", "copy", "Copy"},
		// A language the binary has no strings for gets the English.
		{"fr", "copy", "Copy"},
		{"ja", "no_such_key", ""},
		// A counted key takes its form.
		{"en", Count("tag_articles", 1), "%d article"},
		{"en", Count("tag_articles", 2), "%d articles"},
		{"ja", Count("tag_articles", 2), "%d 件の記事"},
	}
	for _, tt := range tests {
		if got := Fallback(tt.lang, tt.key); got != tt.want {
			t.Errorf("Fallback(%q, %q) = %q, want %q", tt.lang, tt.key, got, tt.want)
		}
	}
}
