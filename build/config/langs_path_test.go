package config

import "testing"

// TestLangFromPath: a document's language is the first folder of its path
// that is one of the site's languages, whatever comes before it.
func TestLangFromPath(t *testing.T) {
	langs := []string{"ja", "ko", "zh-hant"}
	for _, tc := range []struct{ path, want string }{
		{"content/ko/cka/01-a.md", "ko"},
		{"/home/me/course/content/zh-hant/x.md", "zh-hant"},
		{`content\ja\cka\01-a.md`, ""}, // a backslash separates on Windows only
		{"notes/ja.md", ""},
		{"ko/ja/a.md", "ko"},
		{"", ""},
	} {
		if got := LangFromPath(tc.path, langs); got != tc.want {
			t.Errorf("LangFromPath(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
