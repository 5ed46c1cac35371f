package source

import "github.com/kakehashi-dev/kakehashi/build/diag"

// ParseDocument reads src, one markdown document from outside the
// content folder (kakehashi render), as the loader reads a page: it must
// be UTF-8 (CheckUTF8), it is normalized (Normalize), then split and
// decoded (ParsePage); p names it in diagnostics.
func ParseDocument(p string, src []byte) (*Page, diag.List) {
	if d, ok := CheckUTF8(p, src); !ok {
		return nil, diag.List{d}
	}
	return ParsePage(p, Normalize(src))
}
