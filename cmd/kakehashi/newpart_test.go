package main

import (
	"slices"
	"testing"
)

// TestTitleAliases: --title-LANG TITLE, in each spelling, is --title
// LANG=TITLE for any language; nothing else is touched.
func TestTitleAliases(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"cka", "3", "x", "--title-ja", "三"}, []string{"cka", "3", "x", "--title", "ja=三"}},
		{[]string{"-title-ko=셋", "cka"}, []string{"--title", "ko=셋", "cka"}},
		{[]string{"--title-en", "Three", "--title-zh-Hant=三"}, []string{"--title", "en=Three", "--title", "zh-Hant=三"}},
		{[]string{"--title", "ja=三", "-s", "site"}, []string{"--title", "ja=三", "-s", "site"}},
		// The value of --title-ja is taken as it is, a dash or not.
		{[]string{"--title-ja", "-s"}, []string{"--title", "ja=-s"}},
		// Past "--", and a flag without a value, are left to the parser.
		{[]string{"--", "--title-ja", "x"}, []string{"--", "--title-ja", "x"}},
		{[]string{"--title-ja"}, []string{"--title-ja"}},
		{[]string{"--title-", "x", "title-ja"}, []string{"--title-", "x", "title-ja"}},
	} {
		if got := titleAliases(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("titleAliases(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
