package particle

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestKoreanUIStrings scans the theme's Korean UI strings: no particle
// apart from its word, none chosen blind after a placeholder, and no
// marker, since Tf and calc.js fill these strings without this package;
// but for the diagrams' sentences (diagram_*), which package diagram
// fills and then resolves with Resolve.
func TestKoreanUIStrings(t *testing.T) {
	b, err := os.ReadFile("../ko.toml")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := toml.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if len(m) < 50 {
		t.Fatalf("read only %d strings from ko.toml", len(m))
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		if p := Spaced(v); p != nil {
			t.Errorf("ko.toml %s = %q: a space before a particle: %q", k, v, p)
		}
		if p := Unchosen(v); p != nil {
			t.Errorf("ko.toml %s = %q: a particle after a placeholder, chosen without the value: %q (rephrase: \"쿼럼({quorum}개)을\")", k, v, p)
		}
		if p := Markers(v); p != nil && !strings.HasPrefix(k, "diagram_") {
			t.Errorf("ko.toml %s = %q: particle markers %q, which only Go resolves", k, v, p)
		}
	}
}
