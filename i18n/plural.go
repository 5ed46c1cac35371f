package i18n

import (
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
)

// pluralCategories are the CLDR plural categories a string's forms are
// named by, in CLDR's order.
const pluralCategories = "zero, one, two, few, many, other"

// isCategory tells whether c is one of pluralCategories.
func isCategory(c string) bool {
	switch c {
	case "zero", "one", "two", "few", "many", "other":
		return true
	}
	return false
}

// countSep separates a key from its count in Count's keys.
const countSep = "#"

// Count is the key of the form of key for the count n, for a caller that
// looks strings up with a T function only: T(Count("diagram_workers", 3))
// is the form of diagram_workers for 3 in the page's language, its only
// string when it has no plural forms.
func Count(key string, n int) string {
	return key + countSep + strconv.Itoa(n)
}

// splitCount splits a key of Count into the key and the count.
func splitCount(key string) (string, int, bool) {
	i := strings.LastIndex(key, countSep)
	if i < 0 {
		return key, 0, false
	}
	n, err := strconv.Atoi(key[i+len(countSep):])
	if err != nil {
		return key, 0, false
	}
	return key[:i], n, true
}

// firstCount is the first whole-number argument of Tf.
func firstCount(args []any) (int, bool) {
	for _, a := range args {
		switch v := a.(type) {
		case int:
			return v, true
		case int64:
			return int(v), true
		case int32:
			return int(v), true
		case uint:
			return int(v), true
		case uint64:
			return int(v), true
		case uint32:
			return int(v), true
		}
	}
	return 0, false
}

// form is the form of key for n: by the plural category of n in f's
// language, else the other form, which is the string of a key without
// plural forms.
func (f *file) form(key string, n int) string {
	forms := f.forms[key]
	if forms == nil {
		return f.vals[key]
	}
	if s, ok := forms[category(f, n)]; ok {
		return s
	}
	return forms["other"]
}

// category names the CLDR plural category of the whole number n in f's
// language.
func category(f *file, n int) string {
	if n < 0 {
		n = -n
	}
	switch plural.Cardinal.MatchPlural(f.tag, n, 0, 0, 0, 0) {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}
