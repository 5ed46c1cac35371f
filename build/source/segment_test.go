package source

import (
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestCheckSegmentRule: every class of character the rule refuses, the
// length limit at exactly 255 and 256 bytes, and the names it must keep
// accepting (Japanese and Korean, NFC).
func TestCheckSegmentRule(t *testing.T) {
	kana := strings.Repeat("あ", 85) // 255 bytes
	for _, tc := range []struct {
		name, s string
		err     string // "" when s is a good segment
	}{
		{"ascii", "05-ha-cluster", ""},
		{"dots inside", "v1.2.html", ""},
		{"kana and kanji", "はじめに・概要", ""},
		{"hangul NFC", norm.NFC.String("클러스터-구성"), ""},
		{"255 bytes", strings.Repeat("a", 255), ""},
		{"255 bytes of kana", kana, ""},
		{"256 bytes", strings.Repeat("a", 256), `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" is 256 bytes long: a file name or URL segment can be at most 255 bytes`},
		{"256 bytes of kana and a letter", kana + "a", `is 256 bytes long`},
		{"empty", "", "it is empty"},
		{"dot", ".", `"." would name a folder above`},
		{"dot dot", "..", `".." would name a folder above`},
		{"slash", "a/b", `"a/b" contains '/': it must be a single name, not a path`},
		{"backslash", `a\b`, `contains '\\'`},
		{"question mark", "a?b", `"a?b" contains '?': a URL's path ends there, so no link would reach it`},
		{"hash", "c#", `"c#" contains '#': a URL's path ends there`},
		{"percent escape", "%2e%2e", `"%2e%2e" contains '%': a URL reads it as the start of an escape (%2e is ".")`},
		{"double quote", `a"b`, `contains '"': a URL segment cannot hold quotes, < or >`},
		{"single quote", "a'b", `contains '\'': a URL segment cannot hold quotes`},
		{"less than", "<script>", `contains '<'`},
		{"greater than", "a>b", `contains '>'`},
		{"NUL", "a\x00b", `"a\x00b" contains the control character U+0000`},
		{"C0", "a\x1bb", "control character U+001B"},
		{"tab", "a\tb", "control character U+0009"},
		{"DEL", "a\x7fb", "control character U+007F"},
		{"C1", "a\u009bb", "control character U+009B"},
		{"line separator", "a\u2028b", "control character U+2028"},
		{"arabic letter mark", "a\u061cb", "bidirectional control character U+061C"},
		{"left-to-right mark", "a\u200eb", "bidirectional control character U+200E"},
		{"right-to-left mark", "a\u200fb", "U+200F"},
		{"embedding", "a\u202ab", "U+202A"},
		{"override", "txt\u202egnp.exe", `"txt\u202egnp.exe" contains the bidirectional control character U+202E: the name would read otherwise than it is`},
		{"isolate", "a\u2066b", "U+2066"},
		{"pop isolate", "a\u2069b", "U+2069"},
		{"space inside", "control plane", `"control plane" contains a space: a URL cannot hold one as it is; write "-" instead`},
		{"ideographic space", "第1回\u3000概要", "contains a space"},
		{"no-break space", "a\u00a0b", "contains a space"},
		{"leading space", " a", `" a" starts or ends with a space`},
		{"drive letter", "C:x", `"C:x" starts with a drive letter`},
		{"colon", "kubectl:get", `"kubectl:get" contains ':', which a file name on Windows cannot hold`},
		{"star", "a*", `contains '*', which a file name on Windows`},
		{"bar", "a|b", `contains '|', which a file name on Windows`},
		{"trailing dot", "v1.", `"v1." ends with a dot, which a file name on Windows loses`},
		{"leading dot", ".well-known", ""},
		{"zero width space", "a\u200bb", `"a\u200bb" contains the invisible formatting character U+200B: two names would look the same`},
		{"soft hyphen", "a\u00adb", "invisible formatting character U+00AD"},
		{"byte order mark", "\ufeffa", "invisible formatting character U+FEFF"},
		{"invalid UTF-8", "a\xffb", "is not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckSegment(tc.s)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("CheckSegment(%q) = %v, want nil", tc.s, err)
			case tc.err != "" && err == nil:
				t.Errorf("CheckSegment(%q) = nil, want an error saying %q", tc.s, tc.err)
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Errorf("CheckSegment(%q) = %q, want it to say %q", tc.s, err, tc.err)
			}
		})
	}
}

// TestTagSegment: a tag's spaces become "-" before the rule applies, so a
// tag may hold spaces; what its slug still holds is checked.
func TestTagSegment(t *testing.T) {
	for tag, ok := range map[string]bool{
		"control plane": true,
		"コントロール　プレーン":   true,
		"C#":            false,
		"100%":          false,
		"..":            false,
		"a?b":           false,
	} {
		if err := CheckSegment(TagSlug(tag)); (err == nil) != ok {
			t.Errorf("tag %q: CheckSegment(%q) = %v", tag, TagSlug(tag), err)
		}
	}
}
