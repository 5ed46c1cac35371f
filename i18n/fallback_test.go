package i18n

import "testing"

func TestFallback(t *testing.T) {
	for lang, m := range fallbacks {
		for k := range fallbacks[""] {
			if m[k] == "" {
				t.Errorf("fallback %q has no string for %q", lang, k)
			}
		}
	}
	tests := []struct{ lang, key, want string }{
		{"ja", "planned", "予定"},
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
