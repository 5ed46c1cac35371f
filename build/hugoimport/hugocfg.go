package hugoimport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// hugoConfig is what the importer reads of a Hugo site's configuration:
// the root file (hugo.toml, config.yaml, …) and config/_default/, merged
// as Hugo merges them, with where each key was set.
type hugoConfig struct {
	// root is the merged configuration; its keys are in lower case, as
	// Hugo reads them, but for the params tables', which keep the case
	// their templates use.
	root  map[string]any
	where map[string]loc // where each key (lower-case dotted path) was set last
	files []string       // the configuration files read, for the report

	baseURL     string
	title       string
	copyright   string
	defaultLang string
	inSubdir    bool // defaultContentLanguageInSubdir
	lower       bool // Hugo lowercases its URLs (no disablePathToLower)
	ugly        bool // uglyURLs
	contentDir  string
	staticDirs  []string
	themes      []string
	themesDir   string
	permalinks  map[string]string // section → pattern
	params      map[string]any
	menus       any
	langs       []*hugoLang // in the kakehashi site's order: the default first, then by weight
}

// hugoLang is one language of the Hugo site.
type hugoLang struct {
	code       string
	label      string // languageName (label since Hugo 0.158)
	title      string
	weight     int
	contentDir string
	params     map[string]any
	menus      any
	copyright  string
}

// loc is where a key was set: its document and its path there.
type loc struct {
	d   *doc
	key string
}

// configNames are the root configuration files Hugo reads, the first
// found: hugo.* before config.*, TOML before YAML before JSON.
var configNames = []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml", "config.json"}

// configDir is the folder of Hugo's configuration split into files; the
// importer reads its _default/ environment.
const configDir = "config"

// errNoConfig says the source folder has no Hugo configuration.
var errNoConfig = errors.New("no Hugo configuration: none of " + strings.Join(configNames, ", ") + " nor " + configDir + "/_default/")

// loadConfig reads the Hugo site's configuration. A file that does not
// parse is an error at its place.
func loadConfig(ctx context.Context, fsys afero.Fs) (*hugoConfig, diag.List, error) {
	c := &hugoConfig{root: map[string]any{}, where: map[string]loc{}}
	var diags diag.List
	read := func(p string) *doc {
		src, err := readFile(fsys, p)
		if err != nil {
			diags = append(diags, diag.File(p, "%v", err))
			return nil
		}
		d, e := decodeDoc(p, src, src, 0, formatOf(p))
		if e != nil {
			diags = append(diags, *e)
			return nil
		}
		c.files = append(c.files, p)
		return d
	}
	for _, name := range configNames {
		if ok, _ := afero.Exists(fsys, name); ok {
			if d := read(name); d != nil {
				c.merge(c.root, d.vals, d, "", "")
			}
			break
		}
	}
	def := path.Join(configDir, "_default")
	var split []string
	err := afero.Walk(fsys, def, func(p string, info fs.FileInfo, err error) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == def {
				return nil
			}
			return err
		}
		if !info.IsDir() && formatOf(p) != "" && !strings.HasPrefix(info.Name(), ".") {
			split = append(split, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(split)
	for _, p := range split {
		d := read(p)
		if d == nil {
			continue
		}
		// hugo.toml and config.toml hold root keys; params.toml the
		// params table; params.ja.toml and menus.ja.toml a language's.
		name := strings.TrimSuffix(path.Base(p), path.Ext(p))
		if name == "hugo" || name == "config" {
			c.merge(c.root, d.vals, d, "", "")
			continue
		}
		key, lang, _ := strings.Cut(strings.ToLower(name), ".")
		vals := d.vals
		docKey := ""
		if inner, ok := vals[key].(map[string]any); ok && len(vals) == 1 {
			vals, docKey = inner, key // cascade.yaml holding cascade: …
		} else if inner, ok := vals[key].([]any); ok && len(vals) == 1 {
			c.merge(c.root, map[string]any{key: inner}, d, "", "")
			continue
		}
		if key == "menu" {
			key = "menus"
		}
		at := key
		if lang != "" {
			at = "languages." + lang + "." + key
		}
		into := c.root
		for _, k := range strings.Split(at, ".") {
			sub, ok := into[k].(map[string]any)
			if !ok {
				sub = map[string]any{}
				into[k] = sub
			}
			into = sub
		}
		c.where[at] = loc{d: d, key: docKey}
		c.merge(into, vals, d, docKey, at)
	}
	if len(c.files) == 0 && len(diags) == 0 {
		return nil, nil, errNoConfig
	}
	if len(diags) > 0 {
		return nil, diags, nil
	}
	return c, nil, nil
}

// merge puts from (the table at docKey of the document d) into into,
// the table at cfgKey of the configuration: tables merge key by key, any
// other value replaces what was there. Keys are lower-cased but inside
// params tables.
func (c *hugoConfig) merge(into, from map[string]any, d *doc, docKey, cfgKey string) {
	params := isParams(cfgKey)
	for _, k := range sortedKeys(from) {
		v := from[k]
		lk := strings.ToLower(k)
		target := lk
		if params {
			target = k
			for have := range into {
				if strings.EqualFold(have, k) {
					target = have
				}
			}
		}
		if !params && lk == "menu" && (cfgKey == "" || strings.HasPrefix(cfgKey, "languages.") && strings.Count(cfgKey, ".") == 1) {
			target, lk = "menus", "menus"
		}
		ck, dk := joinKey(cfgKey, strings.ToLower(target)), joinKey(docKey, lk)
		c.where[ck] = loc{d: d, key: dk}
		if m, ok := v.(map[string]any); ok {
			sub, ok := into[target].(map[string]any)
			if !ok {
				sub = map[string]any{}
				into[target] = sub
			}
			c.merge(sub, m, d, dk, ck)
			continue
		}
		into[target] = v
	}
}

// isParams tells whether the table at the configuration path key is a
// params table, or inside one.
func isParams(key string) bool {
	parts := strings.Split(key, ".")
	return parts[0] == "params" || len(parts) >= 3 && parts[0] == "languages" && parts[2] == "params"
}

// at is the place of the configuration key (a lower-case dotted path):
// its file, line and column; the line is 0 when unknown.
func (c *hugoConfig) at(key string) (p string, line, col int) {
	key = strings.ToLower(key)
	for k := key; ; {
		if l, ok := c.where[k]; ok {
			full := l.key + strings.TrimPrefix(key, k)
			line, col = l.d.at(strings.TrimPrefix(full, "."))
			return l.d.path, line, col
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	if len(c.files) > 0 {
		return c.files[0], 0, 0
	}
	return configNames[0], 0, 0
}

// note records a report item about the configuration key.
func (c *hugoConfig) note(r *Report, k Kind, key, format string, args ...any) {
	p, line, col := c.at(key)
	r.addAt(k, p, line, col, format, args...)
}

// get is the value of the key (lower case) of the merged configuration,
// by its dotted path.
func (c *hugoConfig) get(key string) (any, bool) {
	var v any = c.root
	for _, k := range strings.Split(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = lookup(m, k); !ok {
			return nil, false
		}
	}
	return v, true
}

// lookup is m's value of key, whatever the case of its letters.
func lookup(m map[string]any, key string) (any, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for _, k := range sortedKeys(m) {
		if strings.EqualFold(k, key) {
			return m[k], true
		}
	}
	return nil, false
}

// interpret works out the site's settings from the merged configuration,
// reporting each key: what it became in kakehashi, or that it has no
// equivalent.
func (c *hugoConfig) interpret(r *Report) {
	str := func(key string) string {
		v, _ := c.get(key)
		s, _ := scalarString(v)
		return s
	}
	boolean := func(key string) bool {
		v, _ := c.get(key)
		b, _ := v.(bool)
		return b
	}
	c.title = str("title")
	c.copyright = str("copyright")
	c.defaultLang = strings.ToLower(str("defaultcontentlanguage"))
	if c.defaultLang == "" {
		c.defaultLang = "en"
	}
	c.inSubdir = boolean("defaultcontentlanguageinsubdir")
	c.lower = !boolean("disablepathtolower")
	c.ugly = boolean("uglyurls")
	c.contentDir = cleanDir(str("contentdir"), "content")
	c.themesDir = cleanDir(str("themesdir"), "themes")
	c.params, _ = c.root["params"].(map[string]any)
	c.menus = c.root["menus"]
	c.staticDirs = []string{"static"}
	if v, ok := c.get("staticdir"); ok {
		c.staticDirs = nil
		for _, s := range stringList(v) {
			c.staticDirs = append(c.staticDirs, cleanDir(s, "static"))
		}
	}
	if v, ok := c.get("theme"); ok {
		c.themes = stringList(v)
	}
	c.permalinks = map[string]string{}
	if m, ok := c.root["permalinks"].(map[string]any); ok {
		for _, k := range sortedKeys(m) {
			switch v := m[k].(type) {
			case string:
				c.permalinks[k] = v
			case map[string]any:
				if k == "page" {
					for _, s := range sortedKeys(v) {
						if p, ok := v[s].(string); ok {
							c.permalinks[s] = p
						}
					}
				}
			}
		}
	}
	c.baseURL = str("baseurl")
	c.interpretLangs(r)
	c.reportKeys(r)
}

// cleanDir is the folder s names, relative to the site root, else def.
func cleanDir(s, def string) string {
	s = strings.Trim(path.Clean("/"+strings.ReplaceAll(s, `\`, "/")), "/")
	if s == "" || s == "." {
		return def
	}
	return s
}

// typographer tells whether Hugo's goldmark typographer is on (it is by
// default).
func (c *hugoConfig) typographer() bool {
	v, ok := c.get("markup.goldmark.extensions.typographer")
	if !ok {
		return true
	}
	switch v := v.(type) {
	case bool:
		return v
	case map[string]any:
		if d, ok := v["disable"].(bool); ok {
			return !d
		}
	}
	return true
}

// configKeys says what becomes of each of Hugo's root configuration keys
// (in lower case) that the importer reads or knows to have no
// equivalent: its kind and the report's words. A key not listed is
// reported as having no equivalent.
var configKeys = map[string]struct {
	kind Kind
	msg  string
}{
	"baseurl":                        {Converted, "baseURL is kakehashi.toml's baseURL"},
	"title":                          {Converted, "title is the [title] of each language without a title of its own"},
	"copyright":                      {Converted, "copyright is kakehashi.toml's copyright"},
	"defaultcontentlanguage":         {Converted, "the default content language is the first of kakehashi.toml's languages, the original of translations"},
	"defaultcontentlanguageinsubdir": {Converted, "defaultContentLanguageInSubdir is used to work out the Hugo URLs kept as aliases"},
	"contentdir":                     {Converted, "the content is read from this folder"},
	"staticdir":                      {Converted, "the static files are read from this folder"},
	"themesdir":                      {Converted, "the themes are read from this folder"},
	"disablepathtolower":             {Converted, "disablePathToLower is used to work out the Hugo URLs kept as aliases and the names of the pages"},
	"uglyurls":                       {Approximated, "uglyURLs: kakehashi publishes every page as a folder; the Hugo URLs are kept as aliases"},
	"permalinks":                     {Approximated, "permalinks: kakehashi names pages by their files; the Hugo URLs are kept as aliases"},
	"params":                         {Converted, "params are kakehashi.toml's [params], for templates as .Site.Params"},
	"menus":                          {Approximated, "menus are kept in kakehashi.toml's [params.menus] for templates (.Site.Params.menus): kakehashi's theme shows no menus"},
	"languages":                      {Converted, "languages are kakehashi.toml's languages, the default first"},
	"disablelanguages":               {Converted, "the disabled languages are not imported"},
	"relativeurls":                   {Approximated, "relativeURLs: kakehashi's links are always relative"},
	"canonifyurls":                   {NotConverted, "canonifyURLs: kakehashi's links are always relative"},
	"enablerobotstxt":                {Approximated, "enableRobotsTXT: kakehashi always writes robots.txt"},
	"hascjklanguage":                 {Approximated, "hasCJKLanguage: kakehashi counts reading time and breaks lines per script by itself"},
	"languagecode":                   {NotConverted, "languageCode: kakehashi's <html lang> is the language's code"},
	"theme":                          {Approximated, "the Hugo theme's shortcodes are copied to layouts/shortcodes/; its layouts are not: kakehashi's theme renders the pages"},
	"taxonomies":                     {Approximated, "taxonomies: kakehashi has tags only; other taxonomies are kept in each page's params"},
	"markup":                         {NotConverted, "markup settings have no equivalent: kakehashi's markdown is CommonMark with GFM, raw HTML off"},
	"module":                         {NotConverted, "module settings (mounts, imports) are not read: content, static, i18n and layouts/shortcodes are read from their folders"},
	"outputs":                        {NotConverted, "outputs: kakehashi writes HTML pages, an Atom feed per language, the sitemap and the search index"},
	"cascade":                        {NotConverted, "cascade: front matter cascades are not applied to the pages"},
}

// reportKeys reports every root key of the configuration.
func (c *hugoConfig) reportKeys(r *Report) {
	for _, k := range sortedKeys(c.root) {
		info, known := configKeys[k]
		switch {
		case k == "baseurl":
			if c.baseURL != "" && config.CheckBaseURL(c.baseURL) != nil {
				c.note(r, NotConverted, k, "baseURL %q is not an absolute http(s) URL, which kakehashi.toml's baseURL must be: set it before publishing", c.baseURL)
				c.baseURL = ""
				continue
			}
		case k == "languages":
			for _, l := range c.langs {
				key := "languages." + l.code
				c.note(r, Converted, key, "language %q is in kakehashi.toml's languages, content/%s/", l.code, l.code)
				m, _ := lookupMap(c.root, "languages", l.code)
				for _, sub := range sortedKeys(m) {
					c.langKey(r, l, key+"."+sub, sub)
				}
			}
			continue
		case !known:
			c.note(r, NotConverted, k, "%s has no equivalent in kakehashi", k)
			continue
		}
		c.note(r, info.kind, k, "%s", info.msg)
	}
	if v, _ := c.get("markup.goldmark.renderer.unsafe"); v == true {
		c.note(r, NotConverted, "markup.goldmark.renderer.unsafe", "raw HTML in pages is rendered by this Hugo site; kakehashi leaves it out (raw HTML is off), so pages that hold some read otherwise")
	}
	if c.typographer() {
		key := "markup.goldmark.extensions.typographer"
		if _, ok := c.get(key); !ok {
			key = "markup"
		}
		c.note(r, Approximated, key, "Hugo's typographer (on unless disabled) turns quotes, -- and ... into typographic characters; kakehashi keeps them as written")
	}
}

// lookupMap is the table at the path of keys in m, whatever their case.
func lookupMap(m map[string]any, keys ...string) (map[string]any, bool) {
	for _, k := range keys {
		v, ok := lookup(m, k)
		if !ok {
			return nil, false
		}
		if m, ok = v.(map[string]any); !ok {
			return nil, false
		}
	}
	return m, true
}

// scalarString is v as a string: a string, or a number or boolean as
// written.
func scalarString(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case int64, int, float64, bool:
		return fmt.Sprint(v), true
	}
	return "", false
}

// stringList is v as a list of strings: a list, or one string.
func stringList(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := scalarString(e); ok {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return v
	}
	return nil
}

// asInt is v as a whole number.
func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int64:
		return int(n), true
	case int:
		return n, true
	case uint64:
		return int(n), true
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	}
	return 0, false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
