package render

import (
	"regexp"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// CheckKeys reports each UI string key used and missing from one of
// langs in bundle: a key of code at the strings file of the language,
//
//	i18n/ko.toml: UI string "anchor" is missing (used by the markdown renderer)
//
// a key of a template at its use,
//
//	themes/default/layouts/article.html:24:8: UI string "toc" is missing from i18n/ko.toml
//
// and, for a template that builds the language names' keys with printf
// "lang_%s" (i18n.LangNameFormat), the name of each of langs, at the
// printf. A key a template builds otherwise is not checked.
func CheckKeys(bundle *i18n.Bundle, langs []string, code []i18n.KeyGroup, uses []KeyUse) diag.List {
	var diags diag.List
	users := map[string]string{}
	var keys []string
	for _, g := range code {
		for _, k := range g.Keys {
			switch u := users[k]; {
			case u == "":
				users[k] = g.User
				keys = append(keys, k)
			case !strings.Contains(u, g.User):
				users[k] = u + " and " + g.User
			}
		}
	}
	slices.Sort(keys)
	for _, l := range langs {
		for _, k := range keys {
			if !bundle.Has(l, k) {
				diags = append(diags, diag.File(bundle.Path(l), "UI string %q is missing (used by %s)", k, users[k]).WithCode("ui-string"))
			}
		}
	}
	for _, u := range uses {
		switch {
		case u.Key != "":
			for _, l := range langs {
				if !bundle.Has(l, u.Key) {
					diags = append(diags, u.At("UI string %q is missing from %s", u.Key, bundle.Path(l)).WithCode("ui-string"))
				}
			}
		case u.Format == i18n.LangNameFormat:
			for _, l := range langs {
				for _, named := range langs {
					if k := i18n.LangNameKey(named); !bundle.Has(l, k) {
						diags = append(diags, u.At("UI string %q, the name of language %q, is missing from %s", k, named, bundle.Path(l)).WithCode("ui-string"))
					}
				}
			}
		}
	}
	diags.Sort()
	return diags
}

// UnusedKeys reports each key of bundle's site files (not the embedded
// ones) that no group of code and no use asks for, at its line in each
// language's file.
func UnusedKeys(bundle *i18n.Bundle, code []i18n.KeyGroup, uses []KeyUse) diag.List {
	used := map[string]bool{}
	for _, g := range code {
		for _, k := range g.Keys {
			used[k] = true
		}
	}
	var formats []*regexp.Regexp
	for _, u := range uses {
		switch {
		case u.Key != "":
			used[u.Key] = true
		case u.Format != "":
			formats = append(formats, formatRegexp(u.Format))
		}
	}
	var diags diag.List
	for _, l := range bundle.Langs() {
		for _, k := range bundle.Keys(l) {
			if used[k] || bundle.Embedded(l, k) || slices.ContainsFunc(formats, func(re *regexp.Regexp) bool { return re.MatchString(k) }) {
				continue
			}
			diags = append(diags, bundle.At(l, k, "UI string %q is not used", k).AsWarning().WithCode("unused-string"))
		}
	}
	diags.Sort()
	return diags
}

// verbRE matches a fmt verb, with its flags, width and precision.
var verbRE = regexp.MustCompile(`%[-+# 0]*[0-9*]*(?:\.[0-9*]*)?[a-zA-Z%]`)

// formatRegexp matches every string the fmt format f can give: each verb
// stands for any non-empty text, "%%" for "%".
func formatRegexp(f string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range verbRE.FindAllStringIndex(f, -1) {
		b.WriteString(regexp.QuoteMeta(f[last:m[0]]))
		if f[m[1]-1] == '%' {
			b.WriteString("%")
		} else {
			b.WriteString(".+")
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(f[last:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
