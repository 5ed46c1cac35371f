package calc

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryCodeHasThreeTexts finds every reason code literal in the
// package's sources and checks it has English, Japanese and Korean texts
// whose placeholders agree.
func TestEveryCodeHasThreeTexts(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	codeRe := regexp.MustCompile(`"((?:err|quorum|sans|verify|ha)\.[a-z0-9-]+)"`)
	phRe := regexp.MustCompile(`\{[a-zA-Z]+\}`)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range codeRe.FindAllStringSubmatch(string(src), -1) {
			seen++
			en, ja, ko := templates(m[1])
			if en == "" || ja == "" || ko == "" {
				t.Errorf("%s: code %s lacks a text (en %q, ja %q, ko %q)", f, m[1], en, ja, ko)
				continue
			}
			set := func(s string) string {
				p := phRe.FindAllString(s, -1)
				u := map[string]bool{}
				for _, x := range p {
					u[x] = true
				}
				var keys []string
				for k := range u {
					keys = append(keys, k)
				}
				return strings.Join(sortStrings(keys), ",")
			}
			if set(en) != set(ja) || set(en) != set(ko) {
				t.Errorf("code %s: placeholders differ: en %s, ja %s, ko %s", m[1], set(en), set(ja), set(ko))
			}
		}
	}
	if seen < 40 {
		t.Errorf("found only %d code literals; the scan is broken", seen)
	}
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}
