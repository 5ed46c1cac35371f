package i18n

import "testing"

// TestMatcher checks that a Matcher made from the bundle's languages
// picks what the bundle picks.
func TestMatcher(t *testing.T) {
	b := jaKo(t)
	m := NewMatcher(b.Langs())
	for _, tt := range []struct {
		header, fallback, want string
	}{
		{"ko-KR,ko;q=0.9", "ja", "ko"},
		{"ko", "ja", "ko"},
		{"ja-JP,ja;q=0.9,en;q=0.8", "ko", "ja"},
		{"en-US,ko;q=0.5", "ja", "ko"},
		{"en", "ja", "ja"},
		{"en", "ko", "ko"},
		{"", "ja", "ja"},
		{"!!!garbage", "ja", "ja"},
	} {
		if got, bundle := m.Match(tt.header, tt.fallback), b.Match(tt.header, tt.fallback); got != tt.want || got != bundle {
			t.Errorf("Match(%q, %q) = %q, want %q (the bundle's %q)", tt.header, tt.fallback, got, tt.want, bundle)
		}
	}
	// A third language is matched as the others.
	m = NewMatcher([]string{"ja", "ko", "en"})
	for header, want := range map[string]string{"en-GB,ja;q=0.5": "en", "ko,en;q=0.9": "ko", "fr": "ja"} {
		if got := m.Match(header, "ja"); got != want {
			t.Errorf("ja/ko/en: Match(%q) = %q, want %q", header, got, want)
		}
	}
	var none *Matcher
	if got := none.Match("ko", "ja"); got != "ja" {
		t.Errorf("nil Matcher: Match = %q, want the fallback", got)
	}
}
