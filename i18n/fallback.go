package i18n

import (
	"context"
	"sync"

	"github.com/spf13/afero"
)

// embedded is every language of the strings embedded in the binary,
// loaded once; it is never changed after.
var embedded = sync.OnceValue(func() *Bundle {
	b, _ := LoadSite(context.Background(), afero.NewMemMapFs(), "i18n", nil)
	return b
})

// fallbackLang is the language of the strings Fallback gives for a
// language the binary has no strings for: the one a reader of any
// language is likeliest to read.
const fallbackLang = "en"

// Fallback returns the UI string for key in lang that is embedded in the
// binary (Defaults), the English one when the binary has no strings for
// lang, or "" when there is none for key. It is what the markdown
// renderer and the shortcodes take a string from when the page has no T
// (a page rendered without a bundle, as tests and tools do). key may be
// one of Count.
func Fallback(lang, key string) string {
	b := embedded()
	if b == nil {
		return ""
	}
	if _, ok := b.files[lang]; !ok {
		lang = fallbackLang
	}
	if !b.Has(lang, key) {
		return ""
	}
	return b.T(lang, key)
}
