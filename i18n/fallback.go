package i18n

import (
	"context"
	"sync"
)

// fallbackLang is the language of the strings Fallback gives for a
// language the binary has no strings for: the one a reader of any
// language is likeliest to read.
const fallbackLang = "en"

// Fallback returns the UI string for key in lang that is embedded in the
// binary (Defaults), the English one when the binary has no strings for
// lang, or "" when there is none for key. key may be one of Count. It
// reads the embedded strings on each call and keeps nothing: a caller
// asking for more than a string or two takes WithFallback's T, which
// reads them once.
func Fallback(lang, key string) string {
	return embeddedT(lang)(key)
}

// WithFallback returns a T for lang that gives t's string for key, else
// (t nil, or its answer "") Fallback's. It is what the markdown renderer,
// the shortcodes and the diagrams take a string from when the page has
// no T or its T has no string (a page rendered without a bundle, as tests
// and tools do). The embedded strings are read when the T first needs
// one, and then held by it: a T made for one document reads them at most
// once.
func WithFallback(lang string, t func(key string) string) func(key string) string {
	embedded := sync.OnceValue(func() func(string) string { return embeddedT(lang) })
	return func(key string) string {
		if t != nil {
			if s := t(key); s != "" {
				return s
			}
		}
		return embedded()(key)
	}
}

// embeddedT reads the strings embedded in the binary and returns their T
// for lang (English for a language they do not have), which gives "" for
// a key they lack.
func embeddedT(lang string) func(key string) string {
	b, _ := load(context.Background(), []layer{embeddedLayer()}, nil, false)
	if b == nil {
		return func(string) string { return "" }
	}
	if _, ok := b.files[lang]; !ok {
		lang = fallbackLang
	}
	return func(key string) string {
		if !b.Has(lang, key) {
			return ""
		}
		return b.T(lang, key)
	}
}
