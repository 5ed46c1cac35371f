package hugoimport

// The languages of a Hugo site's configuration: which it has, each one's
// title, description and URL prefix, and the keys of theirs the import
// reads or reports.

import (
	"sort"
	"strings"
)

// interpretLangs works out the languages: those of the languages table
// that are not disabled, else the default language alone, the default
// first, then by weight and code as Hugo sorts them.
func (c *hugoConfig) interpretLangs(r *Report) {
	disabled := map[string]bool{}
	if v, ok := c.get("disablelanguages"); ok {
		for _, l := range stringList(v) {
			disabled[strings.ToLower(l)] = true
		}
	}
	table, _ := c.root["languages"].(map[string]any)
	for _, code := range sortedKeys(table) {
		m, ok := table[code].(map[string]any)
		if !ok {
			continue
		}
		key := "languages." + code
		if b, _ := m["disabled"].(bool); b || disabled[code] {
			c.note(r, NotConverted, key, "language %q is disabled: it is not imported", code)
			continue
		}
		l := &hugoLang{code: code}
		l.title, _ = scalarString(m["title"])
		l.copyright, _ = scalarString(m["copyright"])
		if s, ok := scalarString(m["label"]); ok {
			l.label = s
		} else {
			l.label, _ = scalarString(m["languagename"])
		}
		if n, ok := asInt(m["weight"]); ok {
			l.weight = n
		}
		if s, ok := scalarString(m["contentdir"]); ok {
			l.contentDir = cleanDir(s, c.contentDir)
		}
		l.params, _ = m["params"].(map[string]any)
		l.menus = m["menus"]
		c.langs = append(c.langs, l)
	}
	if len(c.langs) == 0 {
		c.langs = []*hugoLang{{code: c.defaultLang}}
	}
	if !c.hasLang(c.defaultLang) {
		c.note(r, Approximated, "defaultcontentlanguage", "the default content language %q is not one of the languages: %q is the original instead", c.defaultLang, c.langs[0].code)
		c.defaultLang = c.langs[0].code
	}
	sort.SliceStable(c.langs, func(i, j int) bool {
		a, b := c.langs[i], c.langs[j]
		if (a.code == c.defaultLang) != (b.code == c.defaultLang) {
			return a.code == c.defaultLang
		}
		if (a.weight == 0) != (b.weight == 0) {
			return a.weight != 0
		}
		if a.weight != b.weight {
			return a.weight < b.weight
		}
		return a.code < b.code
	})
	for _, l := range c.langs {
		if l.contentDir == "" {
			l.contentDir = c.contentDir
		}
	}
}

// hasLang tells whether code is one of the site's languages.
func (c *hugoConfig) hasLang(code string) bool { return c.lang(code) != nil }

// lang is the language of code, or nil.
func (c *hugoConfig) lang(code string) *hugoLang {
	for _, l := range c.langs {
		if l.code == code {
			return l
		}
	}
	return nil
}

// codes are the languages' codes, in the site's order.
func (c *hugoConfig) codes() []string {
	out := make([]string, len(c.langs))
	for i, l := range c.langs {
		out[i] = l.code
	}
	return out
}

// langTitle is the site's title in the language l.
func (c *hugoConfig) langTitle(l *hugoLang) string {
	if l.title != "" {
		return l.title
	}
	return c.title
}

// description is the site's description in the language l: its
// params.description, else the site's.
func (c *hugoConfig) description(l *hugoLang) string {
	if v, ok := lookup(l.params, "description"); ok {
		if s, ok := scalarString(v); ok {
			return s
		}
	}
	if v, ok := lookup(c.params, "description"); ok {
		if s, ok := scalarString(v); ok {
			return s
		}
	}
	return ""
}

// langPrefix is the folder Hugo publishes the language's pages under:
// "" for the default language unless defaultContentLanguageInSubdir,
// else the language's code.
func (c *hugoConfig) langPrefix(lang string) string {
	if lang == c.defaultLang && !c.inSubdir || len(c.langs) == 1 && !c.inSubdir {
		return ""
	}
	return lang
}

// langKey reports one key of a language's table.
func (c *hugoConfig) langKey(r *Report, l *hugoLang, key, sub string) {
	switch sub {
	case "title":
		c.note(r, Converted, key, "the title of %q is kakehashi.toml's title.%s", l.code, l.code)
	case "weight":
		c.note(r, Converted, key, "the languages' weights order kakehashi.toml's languages after the default")
	case "contentdir":
		c.note(r, Converted, key, "the content of %q is read from %s/", l.code, l.contentDir)
	case "params":
		c.note(r, Approximated, key, "the params of %q are kept in kakehashi.toml's [params.languages.%s]: kakehashi has one params table for every language", l.code, l.code)
	case "menus", "menu":
		c.note(r, Approximated, key, "the menus of %q are kept in kakehashi.toml's [params.languages.%s.menus]: kakehashi's theme shows no menus", l.code, l.code)
	case "copyright":
		if l.code == c.defaultLang {
			c.note(r, Converted, key, "the copyright of %q is kakehashi.toml's copyright", l.code)
		} else {
			c.note(r, NotConverted, key, "kakehashi has one copyright line for every language: %q's is not kept", l.code)
		}
	case "languagename", "label":
		c.note(r, Approximated, key, "the name of %q comes from the UI strings (lang_name in i18n/%s.toml)", l.code, l.code)
	case "disabled":
	default:
		c.note(r, NotConverted, key, "%s of language %q has no equivalent in kakehashi", sub, l.code)
	}
}
