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

func TestWithFallback(t *testing.T) {
	site := func(key string) string { return map[string]string{"copy": "写す"}[key] }
	tests := []struct {
		lang string
		t    func(string) string
		key  string
		want string
	}{
		{"ja", site, "copy", "写す"},         // the site's string first
		{"ja", site, "planned", "準備中"},     // else the embedded one
		{"ja", nil, "copy", "コピー"},         // no T: the embedded one
		{"fr", site, "planned", "planned"}, // English for a language without strings
		{"ja", site, "no_such_key", ""},    // neither has it
		{"en", nil, Count("tag_articles", 1), "%d article"},
	}
	for _, tt := range tests {
		if got := WithFallback(tt.lang, tt.t)(tt.key); got != tt.want {
			t.Errorf("WithFallback(%q)(%q) = %q, want %q", tt.lang, tt.key, got, tt.want)
		}
	}
}
