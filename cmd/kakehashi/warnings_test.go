package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// TestPrintWarningsPerKind: a build prints at most maxPerCode warnings of
// one kind and counts the rest; warnings of other kinds, and those
// without a kind, are all printed.
func TestPrintWarningsPerKind(t *testing.T) {
	var ws diag.List
	for i := range maxPerCode + 5 {
		ws = append(ws, diag.File(fmt.Sprintf("content/ko/%02d.md", i), "translation is not marked").AsWarning().WithCode("unmarked-translation"))
	}
	ws = append(ws, diag.File("content/ja/a.md", "no ko translation").AsWarning().WithCode("missing-translation"),
		diag.File("kakehashi.toml", "no baseURL").AsWarning())
	var out bytes.Buffer
	printWarnings(&out, ws, ".")
	text := out.String()
	if n := strings.Count(text, "translation is not marked"); n != maxPerCode {
		t.Errorf("%d unmarked warnings printed, want %d:\n%s", n, maxPerCode, text)
	}
	if !strings.Contains(text, "... and 5 more warnings of this kind (unmarked-translation); kakehashi check lists every one\n") {
		t.Errorf("the rest are not counted:\n%s", text)
	}
	for _, want := range []string{"content/ja/a.md: warning: no ko translation", "kakehashi.toml: warning: no baseURL"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q not printed:\n%s", want, text)
		}
	}
	if strings.Contains(text, "missing-translation);") {
		t.Errorf("a kind under the cap is summed up:\n%s", text)
	}
}
