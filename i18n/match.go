package i18n

import "golang.org/x/text/language"

// Matcher picks, for an Accept-Language header, the best of a site's
// languages, as Bundle.Match does for the bundle's. It is read-only and
// safe for concurrent use.
type Matcher struct {
	langs   []string
	matcher language.Matcher
}

// NewMatcher makes a Matcher choosing among langs, language tags in the
// site's order ("ja", "ko").
func NewMatcher(langs []string) *Matcher {
	m := &Matcher{langs: append([]string(nil), langs...)}
	tags := make([]language.Tag, len(langs))
	for i, l := range langs {
		tags[i] = language.Make(l)
	}
	m.matcher = language.NewMatcher(tags)
	return m
}

// Match returns the best of the languages for an Accept-Language header,
// or fallback when the header is empty, malformed, or names no language
// close enough to one of them.
func (m *Matcher) Match(acceptLanguage string, fallback string) string {
	if m == nil || len(m.langs) == 0 {
		return fallback
	}
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return fallback
	}
	_, i, conf := m.matcher.Match(tags...)
	if conf == language.No || i < 0 || i >= len(m.langs) {
		return fallback
	}
	return m.langs[i]
}
