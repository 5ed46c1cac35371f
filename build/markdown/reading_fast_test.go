package markdown

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// countReadingRef is countReading without its fast paths: what they
// must count alike.
func countReadingRef(text string) (ja, ko, words int) {
	inWord, joined := false, false
	for _, r := range text {
		switch {
		case r >= 0x3041 && r <= 0x309F, r >= 0x30A1 && r <= 0x30FA, r == 0x30FC, r == 0x30FD, r == 0x30FE, r == 0x30FF,
			r >= 0x31F0 && r <= 0x31FF, r >= 0xFF66 && r <= 0xFF9F, r == 0x3005 || r == 0x3006, unicode.Is(unicode.Han, r):
			ja++
		case r >= 0xAC00 && r <= 0xD7A3:
			ko++
		case unicode.IsLetter(r) || unicode.IsDigit(r) || inWord && unicode.Is(unicode.Mn, r):
			if !inWord && !joined {
				words++
			}
			inWord, joined = true, false
			continue
		case inWord && isJoiner(r):
			inWord, joined = false, true
			continue
		}
		inWord, joined = false, false
	}
	return ja, ko, words
}

func readingSamples(t testing.TB) []string {
	samples := []string{"", "a.b", "a..b", "x-", "-x", "don't stop", "10.0.0.11:6443", "é́e", "a\u0301b", "一丁\u9fff\u4e00", "ＡＢ１２", "kube-apiserver と etcd는"}
	files, _ := filepath.Glob(filepath.Join("..", "..", "content", "*", "*", "*.md"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, string(src))
	}
	return samples
}

func TestCountReadingFastPaths(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r < 0x11000; r++ {
		all.WriteRune(r)
		if r%7 == 0 {
			all.WriteByte('a')
		}
	}
	for _, s := range append(readingSamples(t), all.String()) {
		ja, ko, w := countReading(s)
		rja, rko, rw := countReadingRef(s)
		if ja != rja || ko != rko || w != rw {
			t.Errorf("countReading(%.40q) = %d, %d, %d; want %d, %d, %d", s, ja, ko, w, rja, rko, rw)
		}
	}
}

func FuzzCountReading(f *testing.F) {
	for _, s := range readingSamples(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ja, ko, w := countReading(s)
		rja, rko, rw := countReadingRef(s)
		if ja != rja || ko != rko || w != rw {
			t.Errorf("countReading(%q) = %d, %d, %d; want %d, %d, %d", s, ja, ko, w, rja, rko, rw)
		}
	})
}

func BenchmarkCountReading(b *testing.B) {
	text := strings.Join(readingSamples(b), "\n")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		countReading(text)
	}
}
