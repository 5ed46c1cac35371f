package markdown_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
	"github.com/yuin/goldmark"
)

// courseText renders a page of the bundled course (content/LANG/cka/NAME
// from the repository root) as the build does, with the shortcodes, and
// returns the plain text the build times.
func courseText(t *testing.T, lang, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "content", lang, "cka", name)
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	pg, diags := source.ParsePage(p, src)
	if pg == nil {
		t.Fatalf("%s: %v", p, diags)
	}
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{shortcodes.Extension(shortcodes.NewRegistry())}})
	res := r.Render(context.Background(), markdown.Doc{Path: p, Src: src, BodyStart: pg.BodyStart}, markdown.Env{Lang: lang})
	return res.Text
}

func TestCountReading(t *testing.T) {
	tests := []struct {
		text          string
		ja, ko, words int
	}{
		{"", 0, 0, 0},
		{"日本語のテキスト、ひらがな。", 12, 0, 0}, // punctuation not counted
		{"ーヽ々〆ｶﾀｶﾅ", 8, 0, 0},
		{"control plane ノードが 3 台", 5, 0, 3},                  // Latin words as words, not letters
		{"kube-apiserver と 10.0.0.11:6443 、 don't", 1, 0, 3}, // joined words
		{"end. Next", 0, 0, 2},
		{"etcd는 쿼럼을 유지합니다", 0, 9, 1},
		{"ＡＢＣ１２３ と Ｂ", 1, 0, 2}, // full-width letters are letters
		{"Привет мир", 0, 0, 2},
		{"→ * § ✓ ?!", 0, 0, 0},
		{"café naïve", 0, 0, 2},
	}
	for _, tt := range tests {
		ja, ko, words := markdown.CountReading(tt.text)
		if ja != tt.ja || ko != tt.ko || words != tt.words {
			t.Errorf("CountReading(%q) = %d, %d, %d; want %d, %d, %d", tt.text, ja, ko, words, tt.ja, tt.ko, tt.words)
		}
	}
}

func TestReadingMinutes(t *testing.T) {
	word := "word "
	tests := []struct {
		lang, text string
		want       int
	}{
		{"ja", "", 1},
		{"ja", strings.Repeat("あ", 500), 1},
		{"ja", strings.Repeat("あ", 501), 2}, // rounded up
		{"ja", strings.Repeat("あ", 1500), 3},
		{"ja", strings.Repeat("あ い", 500), 2},                            // spaces are not counted
		{"ja", strings.Repeat("。", 5000), 1},                             // nor punctuation
		{"ja", strings.Repeat("Kubernetes ", 238*2), 2},                  // a Latin word is a word, not 10 characters
		{"ja", strings.Repeat("あ", 2500) + strings.Repeat(word, 476), 7}, // 5 + 2
		{"ko", strings.Repeat("가", 425*4), 4},
		{"ko", strings.Repeat("단어 ", 425*2), 4},   // 2 syllables a word
		{"ko", strings.Repeat("가나다라마바사", 100), 2}, // one long word: its syllables count
		{"en", strings.Repeat(word, 238*3), 3},
	}
	for _, tt := range tests {
		if got := markdown.ReadingMinutes(tt.lang, tt.text); got != tt.want {
			t.Errorf("ReadingMinutes(%q, %d chars) = %d, want %d", tt.lang, utf8.RuneCountInString(tt.text), got, tt.want)
		}
	}
}

// TestCourseReadingMinutes times the bundled course's parts 2 and 5 in
// both languages, as the build does: a Korean twin must read within 20%
// of its Japanese original (after rounding, within 20% or a minute), and
// part 5 within 2 minutes of the 11 its author gives it.
func TestCourseReadingMinutes(t *testing.T) {
	const authorPart5 = 11
	for _, name := range []string{"02-control-plane.md", "05-ha-cluster.md"} {
		ja, ko := courseText(t, "ja", name), courseText(t, "ko", name)
		tja, tko := markdown.ReadingTime("ja", ja), markdown.ReadingTime("ko", ko)
		mja, mko := markdown.ReadingMinutes("ja", ja), markdown.ReadingMinutes("ko", ko)
		t.Logf("%s: ja %.2f → %d min, ko %.2f → %d min", name, tja, mja, tko, mko)
		if d := math.Abs(tja - tko); d > 0.2*max(tja, tko) {
			t.Errorf("%s: ja %.2f and ko %.2f minutes differ by more than 20%%", name, tja, tko)
		}
		// Rounding may put estimates 1% apart a minute apart.
		if d := math.Abs(float64(mja - mko)); d > max(1, 0.2*float64(max(mja, mko))) {
			t.Errorf("%s: ja %d and ko %d minutes differ by more than 20%% and a minute", name, mja, mko)
		}
		if name == "05-ha-cluster.md" {
			for lang, m := range map[string]int{"ja": mja, "ko": mko} {
				if m < authorPart5-2 || m > authorPart5+2 {
					t.Errorf("%s %s: %d minutes, want %d ± 2", lang, name, m, authorPart5)
				}
			}
		}
	}
}
