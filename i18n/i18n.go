// Package i18n loads the theme's UI strings in the load stage, one TOML
// file per language (i18n/ja.toml, i18n/ko.toml, i18n/en.toml, …), checks
// that every language of a site has every key, and picks a reader's
// language from an Accept-Language header. Which languages a site has is not decided here
// but by build/config; a strings file alone adds no language to a site.
//
// The files hold flat string keys. Values used through Tf are Go fmt
// formats ("%d 分で読めます"); the key date_format is a Go time layout.
//
// # Counts
//
// A string that shows a count may have plural forms: a table of the CLDR
// plural categories (zero, one, two, few, many, other) of its language,
// written as dotted keys,
//
//	tag_articles.one = "%d article"
//	tag_articles.other = "%d articles"
//
// of which other is required. Tf picks the form by its first whole-number
// argument, under the plural rules of the language
// (golang.org/x/text/feature/plural); Count(key, n) is the key of the form
// for n, for a caller that has only a T function. A plain string is every
// form at once, so a language without plurals (Japanese, Korean) writes
// one string.
//
// # Language names
//
// lang_<code> (LangNameFormat) is a language's name in another. A
// language without a name for another of the site's languages is given
// that language's own name (its lang_name), so adding a language needs no
// edit to the files of the others.
package i18n

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"
	"golang.org/x/text/language"
)

// Bundle holds the UI strings of a site's languages. It is read-only after
// Load and safe for concurrent use.
type Bundle struct {
	langs   []string
	strings map[string]map[string]string
	// files holds each language's strings as loaded, to place
	// diagnostics about a key at its line, and its plural forms.
	files   map[string]*file
	matcher *Matcher
	// avail lists every language with a strings file, sorted, whether
	// the bundle holds it or not.
	avail []string
}

// file is one language's strings as loaded, from one file or from
// several layered key by key (LoadSite).
type file struct {
	lang string
	// path is the file the language's strings belong in: the site's own
	// when it is layered over the defaults.
	path string
	vals map[string]string
	// forms holds the plural forms of the keys that have them, by CLDR
	// category ("one", "other"); vals holds their other form.
	forms map[string]map[string]string
	// from holds the text each key was read from, for diagnostics.
	from map[string]*text
	// named holds the lang_<code> keys given a language's own name
	// because the files had none.
	named map[string]bool
	tag   language.Tag
}

// text is one TOML file as read.
type text struct {
	path string
	src  []byte
	// line holds the 1-based line of each key.
	line map[string]int
	// embedded: the text is one of the files embedded in the binary
	// (Defaults), not the site's.
	embedded bool
}

// Load reads every <lang>.toml in dir, each a language of the bundle. It
// reports a TOML syntax error at its file:line:col, a file name that is
// not a language tag, a value that is neither a string nor a table of
// plural forms, and every key that one language has and another lacks. A
// cancelled ctx stops the reading with its error.
func Load(ctx context.Context, fsys afero.Fs, dir string) (*Bundle, diag.List) {
	return load(ctx, []layer{{fsys: fsys, dir: dir}}, nil, false)
}

// EmbeddedDir is how diagnostics name the UI strings embedded in the
// binary: "(embedded) i18n/ja.toml:3:1: ...".
const EmbeddedDir = "(embedded) i18n"

// LoadSite reads the UI strings of a site whose languages are langs, in
// the site's order (build/config decides them): for each, the strings
// embedded in the binary (Defaults), with every key of the site's own
// dir/<lang>.toml over them, key by key. A site without dir has the
// defaults; a language without embedded strings needs a file of its own
// holding every key. The files of other languages are not read, and the
// bundle holds only the languages of langs that have strings (Langs); the
// caller reports a language without any (Available lists those with a
// file). Nil langs means every language with strings. The checks are
// Load's, among langs only; an error in an embedded file is named with
// EmbeddedDir. Unlike Load's, the bundle of files with errors holds what
// could be read (a file that does not decode adds no strings), so that a
// build goes on to find its other problems; it is nil only when a folder
// cannot be read.
func LoadSite(ctx context.Context, fsys afero.Fs, dir string, langs []string) (*Bundle, diag.List) {
	return load(ctx, []layer{embeddedLayer(), {fsys: fsys, dir: dir, optional: true}}, langs, true)
}

// embeddedLayer is the layer of the strings embedded in the binary.
func embeddedLayer() layer {
	return layer{fsys: afero.FromIOFS{FS: Defaults()}, dir: ".", label: EmbeddedDir}
}

// layer is one folder of <lang>.toml files; a later layer's keys win.
type layer struct {
	fsys afero.Fs
	dir  string
	// label names the folder in diagnostics, when not dir.
	label string
	// optional: a missing folder holds no files rather than an error.
	optional bool
}

// name is the path diagnostics use for the file name in l.
func (l layer) name(name string) string {
	if l.label != "" {
		return path.Join(l.label, name)
	}
	return path.Join(l.dir, name)
}

// load reads the layers' files of langs (every language when nil), in
// the order of langs (sorted when nil). With errors the bundle is nil,
// unless partial: it then holds what could be read.
func load(ctx context.Context, layers []layer, langs []string, partial bool) (*Bundle, diag.List) {
	var diags diag.List
	byLang := make(map[string]*file)
	var avail []string
	read := 0
	for _, l := range layers {
		entries, err := afero.ReadDir(l.fsys, l.dir)
		if err != nil {
			if l.optional && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, diag.List{diag.File(l.name(""), "cannot read UI strings: %v", err)}
		}
		for _, e := range entries {
			if err := ctx.Err(); err != nil {
				return nil, diag.List{diag.File(l.name(""), "reading UI strings: %v", err)}
			}
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".toml") {
				continue
			}
			p := l.name(name)
			lang := strings.TrimSuffix(name, ".toml")
			tag, err := language.Parse(lang)
			if err != nil {
				diags = append(diags, diag.File(p, "file name %q is not a language tag: %v", lang, err))
				continue
			}
			if !slices.Contains(avail, lang) {
				avail = append(avail, lang)
			}
			if langs != nil && !slices.Contains(langs, lang) {
				continue // not a language of the site
			}
			src, err := afero.ReadFile(l.fsys, path.Join(l.dir, name))
			if err != nil {
				diags = append(diags, diag.File(p, "cannot read: %v", err))
				continue
			}
			read++
			raw, t, ds := decode(p, src)
			diags = append(diags, ds...)
			if t == nil {
				continue
			}
			t.embedded = l.label == EmbeddedDir
			f := byLang[lang]
			if f == nil {
				f = &file{lang: lang, tag: tag, vals: make(map[string]string), forms: make(map[string]map[string]string), from: make(map[string]*text)}
				byLang[lang] = f
			}
			f.path = p
			diags = append(diags, f.add(raw, t)...)
		}
	}
	if read == 0 && len(diags) == 0 {
		l := layers[len(layers)-1]
		diags = append(diags, diag.File(l.name(""), "no <lang>.toml files with UI strings"))
	}
	files := make([]*file, 0, len(byLang))
	for _, f := range byLang {
		files = append(files, f)
	}
	order := func(l string) int { return slices.Index(langs, l) }
	if langs == nil {
		order = func(string) int { return 0 }
	}
	sort.Slice(files, func(i, j int) bool {
		if oi, oj := order(files[i].lang), order(files[j].lang); oi != oj {
			return oi < oj
		}
		return files[i].lang < files[j].lang
	})
	nameLanguages(files)
	diags = append(diags, checkKeys(files)...)
	if len(diags.Errors()) > 0 {
		diags.Sort()
		if !partial {
			return nil, diags
		}
	}

	sort.Strings(avail)
	b := &Bundle{strings: make(map[string]map[string]string), files: make(map[string]*file), avail: avail}
	for _, f := range files {
		b.langs = append(b.langs, f.lang)
		b.strings[f.lang] = f.vals
		b.files[f.lang] = f
	}
	b.matcher = NewMatcher(b.langs)
	return b, diags
}

// nameLanguages gives each file a name for each other language it has
// none for (LangNameKey): that language's own name, its lang_name.
func nameLanguages(files []*file) {
	for _, f := range files {
		for _, other := range files {
			k := LangNameKey(other.lang)
			own, ok := other.vals[ownNameKey]
			if _, has := f.vals[k]; has || !ok {
				continue
			}
			f.vals[k] = own
			f.from[k] = other.from[ownNameKey]
			if f.named == nil {
				f.named = make(map[string]bool)
			}
			f.named[k] = true
		}
	}
}

// ownNameKey is the key of a language's name in itself.
const ownNameKey = "lang_name"

// decode decodes one language file at p; the text is nil on a syntax
// error.
func decode(p string, src []byte) (map[string]any, *text, diag.List) {
	var raw map[string]any
	if err := toml.Unmarshal(src, &raw); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, nil, diag.List{diag.At(p, src, byteOffset(src, line, col), "%s", de.Error())}
		}
		return nil, nil, diag.List{diag.File(p, "%v", err)}
	}
	return raw, &text{path: p, src: src, line: keyLines(src)}, nil
}

// add puts the keys decoded from t into f, each over the one f had, and
// records where each key was read.
func (f *file) add(raw map[string]any, t *text) diag.List {
	var diags diag.List
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f.from[k] = t
		switch v := raw[k].(type) {
		case string:
			f.vals[k] = v
			delete(f.forms, k)
		case map[string]any:
			forms, ds := f.pluralForms(k, v)
			diags = append(diags, ds...)
			if forms != nil {
				f.vals[k], f.forms[k] = forms["other"], forms
			}
		default:
			diags = append(diags, f.at(k, "key %q: value must be a string, not %T", k, raw[k]))
		}
	}
	return diags
}

// pluralForms checks the table of plural forms of key: each a string, by
// a CLDR category, other among them.
func (f *file) pluralForms(key string, t map[string]any) (map[string]string, diag.List) {
	var diags diag.List
	forms := make(map[string]string, len(t))
	for _, c := range sortedAny(t) {
		s, ok := t[c].(string)
		switch {
		case !isCategory(c):
			diags = append(diags, f.at(key+"."+c, "key %q: %q is not a plural category; a string with plural forms has %s", key+"."+c, c, pluralCategories))
		case !ok:
			diags = append(diags, f.at(key+"."+c, "key %q: value must be a string, not %T", key+"."+c, t[c]))
		default:
			forms[c] = s
		}
	}
	if _, ok := forms["other"]; !ok && len(diags) == 0 {
		diags = append(diags, f.at(key, "key %q: a string with plural forms needs %s.other, the form of any count the others do not take", key, key))
	}
	if len(diags) > 0 {
		return nil, diags
	}
	return forms, nil
}

func sortedAny(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// at is a diagnostic at the line of key in the file it was read from (the
// whole file when the key's line is unknown).
func (f *file) at(key, format string, args ...any) diag.Diagnostic {
	t := f.from[key]
	if top, _, dotted := strings.Cut(key, "."); t == nil && dotted {
		t = f.from[top] // a plural form: "tag_articles.one"
	}
	if t == nil {
		return diag.File(f.path, format, args...)
	}
	if l, ok := t.line[key]; ok {
		src := diag.LineText(t.src, l)
		col := len([]rune(src)) - len([]rune(strings.TrimLeft(src, " \t"))) + 1
		return diag.AtLine(t.path, t.src, l, col, format, args...)
	}
	return diag.File(t.path, format, args...)
}

// checkKeys reports each key that some file has and another lacks.
func checkKeys(files []*file) diag.List {
	var diags diag.List
	for _, has := range files {
		keys := make([]string, 0, len(has.vals))
		for k := range has.vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			for _, lacks := range files {
				if _, ok := lacks.vals[k]; !ok {
					diags = append(diags, has.at(k, "key %q is missing from %s", k, lacks.path))
				}
			}
		}
	}
	return diags
}

// keyLines maps each top-level key to its line number: a "key = value"
// line's, a dotted "key.one = value" line's first (and the whole dotted
// key's), a "[key]" table header's (and each "key.name" of the table's).
// Quoted keys are unquoted; lines inside multi-line strings are skipped.
func keyLines(src []byte) map[string]int {
	lines := make(map[string]int)
	set := func(k string, n int) {
		if _, seen := lines[k]; !seen {
			lines[k] = n
		}
	}
	unquote := func(k string) string {
		k = strings.TrimSpace(k)
		if len(k) >= 2 && (k[0] == '"' || k[0] == '\'') && k[len(k)-1] == k[0] {
			k = k[1 : len(k)-1]
		}
		return k
	}
	inMulti, table := "", ""
	for i, line := range bytes.Split(src, []byte("\n")) {
		s := strings.TrimSpace(string(line))
		if inMulti != "" {
			if strings.Contains(s, inMulti) {
				inMulti = ""
			}
			continue
		}
		if s == "" || s[0] == '#' {
			continue
		}
		if s[0] == '[' {
			if end := strings.IndexByte(s, ']'); end > 0 {
				table = unquote(strings.Trim(s[:end], "[]"))
				set(table, i+1)
			}
			continue
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			continue
		}
		key := unquote(s[:eq])
		if first, _, dotted := strings.Cut(key, "."); dotted && table == "" {
			set(unquote(first), i+1)
		}
		if table != "" {
			key = table + "." + key
		}
		set(key, i+1)
		val := strings.TrimSpace(s[eq+1:])
		for _, q := range []string{`"""`, `'''`} {
			if strings.HasPrefix(val, q) && !strings.Contains(val[len(q):], q) {
				inMulti = q
			}
		}
	}
	return lines
}

// byteOffset turns go-toml's 1-based line and 1-based byte column into a
// byte offset into src.
func byteOffset(src []byte, line, col int) int {
	off := 0
	for l := 1; l < line && off < len(src); off++ {
		if src[off] == '\n' {
			l++
		}
	}
	return min(off+max(col-1, 0), len(src))
}

// Langs returns the languages the bundle holds: the site's languages
// that have strings, in the site's order (LoadSite), or every language
// of the folder, sorted (Load).
func (b *Bundle) Langs() []string {
	return append([]string(nil), b.langs...)
}

// Available returns every language with a strings file, embedded or the
// site's, sorted: those a site may have without writing one.
func (b *Bundle) Available() []string {
	return append([]string(nil), b.avail...)
}

// Has tells whether lang has a string for key (or for the key of
// Count(key, n)).
func (b *Bundle) Has(lang, key string) bool {
	key, _, _ = splitCount(key)
	_, ok := b.strings[lang][key]
	return ok
}

// Keys returns the keys lang has, sorted.
func (b *Bundle) Keys(lang string) []string {
	keys := make([]string, 0, len(b.strings[lang]))
	for k := range b.strings[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Path is the file lang's strings belong in, as diagnostics name it: the
// site's own i18n/<lang>.toml when it has one, else the embedded file
// ("(embedded) i18n/ja.toml"); "" for a language the bundle lacks.
func (b *Bundle) Path(lang string) string {
	if f := b.files[lang]; f != nil {
		return f.path
	}
	return ""
}

// Embedded tells whether lang's string for key is not the site's to
// maintain: the one embedded in the binary (Defaults), or a language's
// own name given for want of one (see the package doc).
func (b *Bundle) Embedded(lang, key string) bool {
	f := b.files[lang]
	if f == nil {
		return false
	}
	t := f.from[key]
	return t != nil && t.embedded || f.named[key]
}

// At is a diagnostic at the line of key in the file lang's string for it
// was read from; about the whole of Path(lang) when lang lacks key.
func (b *Bundle) At(lang, key, format string, args ...any) diag.Diagnostic {
	if f := b.files[lang]; f != nil {
		return f.at(key, format, args...)
	}
	return diag.File(lang+".toml", format, args...)
}

// T returns the string for key in lang; for Count(key, n), the plural
// form of key for n. A missing key gives "[lang:key]" so it shows on the
// page instead of vanishing.
func (b *Bundle) T(lang, key string) string {
	key, n, counted := splitCount(key)
	if s, ok := b.strings[lang][key]; ok {
		if counted {
			return b.files[lang].form(key, n)
		}
		return s
	}
	return "[" + lang + ":" + key + "]"
}

// Tf formats the string for key in lang with args, as fmt.Sprintf does;
// of a string with plural forms, the form for the first whole-number
// argument.
func (b *Bundle) Tf(lang, key string, args ...any) string {
	key, n, counted := splitCount(key)
	if !counted {
		n, counted = firstCount(args)
	}
	if _, ok := b.strings[lang][key]; !ok {
		return b.T(lang, key)
	}
	s := b.strings[lang][key]
	if counted {
		s = b.files[lang].form(key, n)
	}
	return fmt.Sprintf(s, args...)
}

// Match returns the bundle's best language for an Accept-Language header,
// or fallback when the header is empty, malformed, or names no language
// close enough to one of the bundle's.
func (b *Bundle) Match(acceptLanguage string, fallback string) string {
	return b.matcher.Match(acceptLanguage, fallback)
}
