package hugoimport

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/i18n"
)

// i18nDir is the folder of Hugo's UI strings, and of kakehashi's.
const i18nDir = "i18n"

// message is one UI string of a Hugo i18n file: its plural forms by CLDR
// category, "other" alone for a string without.
type message struct {
	forms      map[string]string
	line, col  int
	src        string // the Hugo file
	templating bool   // it holds a template action the importer cannot turn into a format
	counted    bool   // its {{ .Count }} became %d, which the report says
}

// pluralForms are the CLDR categories go-i18n (and kakehashi) name forms
// by.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// reservedKeys are the keys of a go-i18n message that are not nested
// messages.
var reservedKeys = map[string]bool{"id": true, "description": true, "hash": true, "leftdelim": true, "rightdelim": true, "translation": true,
	"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}

// countAction matches the template actions Hugo's translations use for
// the count they are given: {{ .Count }} and {{ . }}.
var (
	countAction = regexp.MustCompile(`\{\{-?\s*\.Count\s*-?\}\}`)
	dotAction   = regexp.MustCompile(`\{\{-?\s*\.\s*-?\}\}`)
	anyAction   = regexp.MustCompile(`\{\{.*?\}\}`)
)

// convertI18n converts the Hugo site's i18n/<lang>.toml (or .yaml,
// .json) files of the site's languages into kakehashi's i18n/<lang>.toml:
// plural forms as key.one and key.other, {{ .Count }} as %d. A key one
// language lacks gets the default language's string, as Hugo falls back
// to it; a language without UI strings of its own in kakehashi gets the
// English ones to translate.
func (cv *converter) convertI18n(ctx context.Context) error {
	files, bad, err := walkFiles(ctx, cv.src, i18nDir)
	if err != nil {
		return err
	}
	for _, e := range bad {
		cv.report.addAt(NotConverted, i18nDir, 0, 0, "%v", e)
	}
	langs := cv.cfg.codes()
	byLang := map[string]map[string]*message{}
	from := map[string]string{}
	for _, f := range files {
		name := path.Base(f.rel)
		format := formatOf(name)
		lang := strings.ToLower(strings.TrimSuffix(name, path.Ext(name)))
		if format == "" || strings.Contains(f.rel, "/") {
			cv.report.addAt(NotConverted, f.path, 0, 0, "not a Hugo i18n file")
			continue
		}
		if !cv.cfg.hasLang(lang) {
			cv.report.addAt(NotConverted, f.path, 0, 0, "the UI strings of %q, which is not one of the site's languages (%s)", lang, strings.Join(langs, ", "))
			continue
		}
		src, err := readFile(cv.src, f.path)
		if err != nil {
			cv.report.addAt(NotConverted, f.path, 0, 0, "%v", err)
			continue
		}
		msgs, ok := cv.readMessages(f.path, src, format)
		if !ok {
			continue
		}
		if byLang[lang] == nil {
			byLang[lang] = map[string]*message{}
			from[lang] = f.path
		}
		for k, m := range msgs {
			byLang[lang][k] = m
		}
	}
	embedded := map[string]bool{}
	if entries, err := fs.ReadDir(i18n.Defaults(), "."); err == nil {
		for _, e := range entries {
			embedded[strings.TrimSuffix(e.Name(), ".toml")] = true
		}
	}
	if len(byLang) == 0 && allEmbedded(langs, embedded) {
		return nil
	}
	keys := map[string]bool{}
	for _, msgs := range byLang {
		for k := range msgs {
			keys[k] = true
		}
	}
	base := map[string]map[string]string{} // kakehashi's own keys, by key: their forms
	if raw, err := fs.ReadFile(i18n.Defaults(), "en.toml"); err == nil {
		var m map[string]any
		if toml.Unmarshal(raw, &m) == nil {
			for k, v := range m {
				switch v := v.(type) {
				case string:
					base[k] = map[string]string{"other": v}
				case map[string]any:
					forms := map[string]string{}
					for c, s := range v {
						forms[c], _ = s.(string)
					}
					base[k] = forms
				}
			}
		}
	}
	out := afero.NewMemMapFs()
	for _, l := range langs {
		msgs := byLang[l]
		var filled []string
		filledFrom := map[string]string{}
		var b strings.Builder
		if msgs != nil {
			fmt.Fprintf(&b, "# UI strings converted from %s by kakehashi import hugo: each key is\n# used by the site's shortcode templates, or overrides kakehashi's own.\n", from[l])
		} else {
			fmt.Fprintf(&b, "# UI strings of %q by kakehashi import hugo: the Hugo site had none.\n", l)
		}
		lines := map[string]map[string]string{}
		if !embedded[l] {
			for k, forms := range base {
				lines[k] = forms
			}
			name := l
			if hl := cv.cfg.lang(l); hl != nil && hl.label != "" {
				name = hl.label
			}
			lines["lang_name"] = map[string]string{"other": name}
			fmt.Fprintf(&b, "# kakehashi has no UI strings in %q: these are its English ones, to translate.\n", l)
			p := path.Join(i18nDir, l+".toml")
			cv.report.addAt(Approximated, i18nDir, 0, 0, "kakehashi has no UI strings in %q: %s holds its English ones, to translate", l, p)
		}
		for _, k := range sortedKeys(keys) {
			m := msgs[k]
			if m == nil {
				for _, o := range langs {
					if m = byLang[o][k]; m != nil {
						filledFrom[k] = o
						break
					}
				}
				filled = append(filled, k)
			}
			if _, ok := base[k]; ok && msgs[k] != nil {
				cv.report.addAt(Approximated, m.src, m.line, m.col, "key %q is also one of kakehashi's UI strings: the theme shows this text for it", k)
			}
			lines[k] = m.forms
		}
		for _, k := range sortedKeys(lines) {
			forms := lines[k]
			if from, ok := filledFrom[k]; ok {
				fmt.Fprintf(&b, "# %s had no %s string in the Hugo site: this is the %s one.\n", k, l, from)
			}
			if len(forms) == 1 && forms["other"] != "" {
				fmt.Fprintf(&b, "%s = %s\n", tomlKey(k), tomlString(forms["other"]))
				continue
			}
			for _, c := range pluralForms {
				if s, ok := forms[c]; ok {
					fmt.Fprintf(&b, "%s.%s = %s\n", tomlKey(k), c, tomlString(s))
				}
			}
		}
		p := path.Join(i18nDir, l+".toml")
		at := from[l]
		if at == "" {
			at = i18nDir
		}
		if len(filled) > 0 {
			where := ""
			if at != p {
				where = "in " + p + ", "
			}
			cv.report.addAt(Approximated, at, 0, 0, "%s%s another language's, as Hugo falls back to the default language's: %s", where, plural(len(filled), "UI string is", "UI strings are"), strings.Join(filled, ", "))
		}
		if msgs != nil {
			cv.report.addAt(Converted, from[l], 0, 0, "the UI strings of %q are %s", l, p)
		}
		afero.WriteFile(out, p, []byte(b.String()), 0o644)
		cv.write(p, []byte(b.String()))
	}
	if _, diags := i18n.LoadSite(ctx, out, i18nDir, langs); len(diags.Errors()) > 0 {
		return fmt.Errorf("the UI strings made from the Hugo site do not read: %w", diags.Errors())
	}
	return nil
}

// allEmbedded tells whether kakehashi has UI strings of each language.
func allEmbedded(langs []string, embedded map[string]bool) bool {
	for _, l := range langs {
		if !embedded[l] {
			return false
		}
	}
	return true
}

// readMessages reads a Hugo i18n file: a table of keys to strings or to
// tables of plural forms (go-i18n v2, nested tables' keys joined by
// "."), or a list of {id, translation} (go-i18n v1).
func (cv *converter) readMessages(p string, src []byte, format string) (map[string]*message, bool) {
	if format == fmtTOML || format == fmtJSON || format == fmtYAML {
		if trimmed := strings.TrimSpace(string(src)); format != fmtTOML && strings.HasPrefix(trimmed, "[") || format == fmtYAML && strings.HasPrefix(trimmed, "-") {
			return cv.readMessageList(p, src, format)
		}
	}
	d, e := decodeDoc(p, src, src, 0, format)
	if e != nil {
		cv.report.addAt(NotConverted, p, e.Line, e.Col, "%s", e.Msg)
		return nil, false
	}
	out := map[string]*message{}
	cv.messages(d, d.vals, "", out)
	return out, true
}

// readMessageList reads go-i18n v1's list of {id, translation}.
func (cv *converter) readMessageList(p string, src []byte, format string) (map[string]*message, bool) {
	wrapped := src
	if format == fmtJSON {
		wrapped = append(append([]byte(`{"list":`), src...), '}')
	} else {
		wrapped = []byte("list:\n" + indent(string(src)))
	}
	d, e := decodeDoc(p, wrapped, wrapped, 0, format)
	if e != nil {
		cv.report.addAt(NotConverted, p, 0, 0, "%s", e.Msg)
		return nil, false
	}
	out := map[string]*message{}
	list, _ := d.vals["list"].([]any)
	for i, item := range list {
		m, _ := item.(map[string]any)
		id, _ := scalarString(m["id"])
		if id == "" {
			continue
		}
		line, _ := d.at(fmt.Sprintf("list[%d]", i))
		if format != fmtJSON {
			line-- // the line of "list:"
		}
		msg := cv.message(p, m["translation"], line, 1)
		if msg != nil {
			out[id] = msg
		}
	}
	return out, true
}

// indent indents every line of s by two spaces.
func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") + "\n"
}

// messages collects the messages of the table m, at the key prefix.
func (cv *converter) messages(d *doc, m map[string]any, prefix string, out map[string]*message) {
	for _, k := range sortedKeys(m) {
		key := joinKey(prefix, k)
		line, col := d.at(key)
		switch v := m[k].(type) {
		case map[string]any:
			reserved := false
			for rk := range v {
				reserved = reserved || reservedKeys[strings.ToLower(rk)]
			}
			if !reserved {
				cv.messages(d, v, key, out)
				continue
			}
			if t, ok := lookup(v, "translation"); ok {
				if msg := cv.message(d.path, t, line, col); msg != nil {
					out[key] = msg
				}
				continue
			}
			if msg := cv.message(d.path, v, line, col); msg != nil {
				out[key] = msg
			}
		default:
			if msg := cv.message(d.path, v, line, col); msg != nil {
				out[key] = msg
			}
		}
	}
}

// message converts one translation: a string or a table of plural forms.
func (cv *converter) message(p string, v any, line, col int) *message {
	m := &message{forms: map[string]string{}, line: line, col: col, src: p}
	switch v := v.(type) {
	case map[string]any:
		for _, c := range pluralForms {
			if s, ok := lookup(v, c); ok {
				if str, ok := scalarString(s); ok {
					m.forms[c] = str
				}
			}
		}
		if _, ok := m.forms["other"]; !ok {
			cv.report.addAt(NotConverted, p, line, col, "a string with plural forms but no \"other\", which kakehashi needs: not converted")
			return nil
		}
	default:
		s, ok := scalarString(v)
		if !ok {
			cv.report.addAt(NotConverted, p, line, col, "a UI string must be text or a table of plural forms, not %s", describe(v))
			return nil
		}
		m.forms["other"] = s
	}
	for c, s := range m.forms {
		m.forms[c] = cv.format(m, s)
	}
	if len(m.forms) > 1 {
		cv.report.addAt(Converted, p, line, col, "plural forms (%s) are kakehashi's key.%s", strings.Join(formNames(m.forms), ", "), strings.Join(formNames(m.forms), ", key."))
	}
	return m
}

// formNames are the categories of forms, in CLDR's order.
func formNames(forms map[string]string) []string {
	var out []string
	for _, c := range pluralForms {
		if _, ok := forms[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

// format turns a Hugo translation into a kakehashi one: {{ .Count }} is
// %d, {{ . }} is %v (any other % is %%); any other template action is
// kept as written, and reported once.
func (cv *converter) format(m *message, s string) string {
	if !anyAction.MatchString(s) {
		return s
	}
	s = strings.ReplaceAll(s, "%", "%%")
	s = countAction.ReplaceAllString(s, "%d")
	s = dotAction.ReplaceAllString(s, "%v")
	if anyAction.MatchString(s) && !m.templating {
		m.templating = true
		cv.report.addAt(NotConverted, m.src, m.line, m.col, "a template action in a UI string: kakehashi's strings are Go formats (%%d for the count), so it is kept as written")
	} else if !m.templating && !m.counted {
		m.counted = true
		cv.report.addAt(Converted, m.src, m.line, m.col, "{{ .Count }} is %%d, the count kakehashi's Tf fills in")
	}
	return s
}
