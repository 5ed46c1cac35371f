package source

import (
	"strings"
	"testing"
)

// TestParseDocument: a document is read as a page of the content is:
// invalid UTF-8 is an error at its place, the text is normalized before
// its front matter is read, and a fault of the front matter is reported.
func TestParseDocument(t *testing.T) {
	for _, c := range []struct {
		name, src string
		title     string // the page's title; "" when none is parsed
		body      string // the body as parsed
		diag      string // the first diagnostic's header
	}{
		{"plain", "---\ntitle: 題\n---\n本文\n", "題", "本文\n", ""},
		{"no front matter", "본문\n", "", "본문\n", ""},
		{"decomposed, BOM, CRLF", "\ufeff---\r\ntitle: \u1112\u1161\u11ab\r\n---\r\n\u1112\u1161\u11ab\r\n", "\ud55c", "\ud55c\n", ""},
		{"not UTF-8", "---\ntitle: t\n---\nab\xffc\n", "", "", "x.md:4:3: invalid UTF-8 (byte 0xff): save the file as UTF-8"},
		{"bad front matter", "---\ntitle: [\n---\nb\n", "", "", "x.md:2:"},
	} {
		pg, diags := ParseDocument("x.md", []byte(c.src))
		if c.diag != "" {
			if len(diags) == 0 || !strings.HasPrefix(diags[0].Header(), c.diag) {
				t.Errorf("%s: %v, want %s…", c.name, diags, c.diag)
			}
			continue
		}
		if len(diags) > 0 || pg == nil {
			t.Fatalf("%s: %v", c.name, diags)
		}
		if pg.Path != "x.md" || pg.Meta.Title != c.title || string(pg.Src[pg.BodyStart:]) != c.body {
			t.Errorf("%s: path %q, title %q, body %q; want %q, %q", c.name, pg.Path, pg.Meta.Title, pg.Src[pg.BodyStart:], c.title, c.body)
		}
	}
}
