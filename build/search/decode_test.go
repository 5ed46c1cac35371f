package search

import (
	"testing"
	"unicode/utf8"
)

// decodeAt must decode as utf8.DecodeRuneInString does, valid or not.
func TestDecodeAtIsUTF8(t *testing.T) {
	var b [3]byte
	for c0 := 0xC0; c0 < 0x100; c0++ {
		for c1 := 0; c1 < 0x100; c1++ {
			for _, c2 := range []int{0x00, 0x3F, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF} {
				b = [3]byte{byte(c0), byte(c1), byte(c2)}
				for n := 1; n <= 3; n++ {
					s := string(b[:n])
					r, size := decodeAt(s, 0)
					wr, wsize := utf8.DecodeRuneInString(s)
					if r != wr || size != wsize {
						t.Fatalf("decodeAt(%q) = %U, %d; want %U, %d", s, r, size, wr, wsize)
					}
				}
			}
		}
	}
	for _, s := range fastPathSeeds {
		for i := range len(s) {
			r, size := decodeAt(s, i)
			wr, wsize := utf8.DecodeRuneInString(s[i:])
			if r != wr || size != wsize {
				t.Fatalf("decodeAt(%q, %d) = %U, %d; want %U, %d", s, i, r, size, wr, wsize)
			}
		}
	}
}
