package source

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// plainNFC's ranges hold only characters that are their own NFC form,
// have combining class 0 and cannot combine with a character before them:
// so no two of them next to each other ever change under NFC.
func TestPlainNFCRanges(t *testing.T) {
	n := 0
	for r := rune(0); r <= 0xFFFF; r++ {
		s := string(r)
		if !utf8.ValidRune(r) || !plainNFC([]byte(s)) {
			continue
		}
		n++
		p := norm.NFC.PropertiesString(s)
		if p.CCC() != 0 || !p.BoundaryBefore() || norm.NFC.String(s) != s {
			t.Errorf("U+%04X is in plainNFC's ranges but ccc=%d, boundary before=%v, NFC %q", r, p.CCC(), p.BoundaryBefore(), norm.NFC.String(s))
		}
	}
	if n < 32000 {
		t.Errorf("plainNFC accepts only %d characters: the ranges shrank", n)
	}
}

func FuzzPlainNFC(f *testing.F) {
	for _, s := range []string{"クォーラム 쿼럼 etcd", "e\u0301", "\u1100\u1161\u11a8", "가\u11a8", "\xff", "café — “quoted”"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plainNFC([]byte(s)) && !norm.NFC.IsNormalString(s) {
			t.Fatalf("plainNFC(%q) but it is not NFC", s)
		}
	})
}
