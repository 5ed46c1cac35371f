// Package i18n loads the theme's UI strings, one TOML file per language
// (i18n/ja.toml, i18n/ko.toml), checks that every language has every key,
// and picks a reader's language from an Accept-Language header.
//
// The files hold flat string keys. Values used through Tf are Go fmt
// formats ("%d 分で読めます"); the key date_format is a Go time layout.
package i18n

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"
	"golang.org/x/text/language"
)

// Bundle holds the UI strings of every language. It is read-only after Load
// and safe for concurrent use.
type Bundle struct {
	langs   []string
	strings map[string]map[string]string
	// files holds each language's strings as loaded, to place
	// diagnostics about a key at its line.
	files   map[string]*file
	matcher *Matcher
}

// file is one language's strings as loaded, from one file or from
// several layered key by key (LoadSite).
type file struct {
	lang string
	// path is the file the language's strings belong in: the site's own
	// when it is layered over the defaults.
	path string
	vals map[string]string
	// from holds the text each key was read from, for diagnostics.
	from map[string]*text
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

// Load reads every <lang>.toml in dir. It reports a TOML syntax error at its
// file:line:col, a file name that is not a language tag, a value that is not
// a string, and every key that one language has and another lacks. A
// cancelled ctx stops the reading with its error.
func Load(ctx context.Context, fsys afero.Fs, dir string) (*Bundle, diag.List) {
	return load(ctx, []layer{{fsys: fsys, dir: dir}})
}

// EmbeddedDir is how diagnostics name the UI strings embedded in the
// binary: "(embedded) i18n/ja.toml:3:1: ...".
const EmbeddedDir = "(embedded) i18n"

// LoadSite reads a site's UI strings: the ones embedded in the binary
// (Defaults), with every key of the site's own dir/<lang>.toml files over
// them, key by key. A site without dir has the defaults; a site may add
// a language with a file of its own, which must then hold every key. The
// checks are Load's; an error in an embedded file is named with
// EmbeddedDir.
func LoadSite(ctx context.Context, fsys afero.Fs, dir string) (*Bundle, diag.List) {
	return load(ctx, []layer{
		{fsys: afero.FromIOFS{FS: Defaults()}, dir: ".", label: EmbeddedDir},
		{fsys: fsys, dir: dir, optional: true},
	})
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

func load(ctx context.Context, layers []layer) (*Bundle, diag.List) {
	var diags diag.List
	byLang := make(map[string]*file)
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
			if _, err := language.Parse(lang); err != nil {
				diags = append(diags, diag.File(p, "file name %q is not a language tag: %v", lang, err))
				continue
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
				f = &file{lang: lang, vals: make(map[string]string), from: make(map[string]*text)}
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
	sort.Slice(files, func(i, j int) bool { return files[i].lang < files[j].lang })
	diags = append(diags, checkKeys(files)...)
	if len(diags.Errors()) > 0 {
		diags.Sort()
		return nil, diags
	}

	b := &Bundle{strings: make(map[string]map[string]string), files: make(map[string]*file)}
	for _, f := range files {
		b.langs = append(b.langs, f.lang)
		b.strings[f.lang] = f.vals
		b.files[f.lang] = f
	}
	b.matcher = NewMatcher(b.langs)
	return b, diags
}

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
		s, ok := raw[k].(string)
		if !ok {
			diags = append(diags, f.at(k, "key %q: value must be a string, not %T", k, raw[k]))
			continue
		}
		f.vals[k] = s
	}
	return diags
}

// at is a diagnostic at the line of key in the file it was read from (the
// whole file when the key's line is unknown).
func (f *file) at(key, format string, args ...any) diag.Diagnostic {
	t := f.from[key]
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

// keyLines maps each top-level "key = value" line's key to its line number.
// Quoted keys are unquoted; lines inside multi-line strings are skipped.
func keyLines(src []byte) map[string]int {
	lines := make(map[string]int)
	inMulti := ""
	for i, line := range bytes.Split(src, []byte("\n")) {
		s := strings.TrimSpace(string(line))
		if inMulti != "" {
			if strings.Contains(s, inMulti) {
				inMulti = ""
			}
			continue
		}
		if s == "" || s[0] == '#' || s[0] == '[' {
			continue
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			continue
		}
		key := strings.TrimSpace(s[:eq])
		if len(key) >= 2 && (key[0] == '"' || key[0] == '\'') && key[len(key)-1] == key[0] {
			key = key[1 : len(key)-1]
		}
		if _, seen := lines[key]; !seen {
			lines[key] = i + 1
		}
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

// Langs returns the languages in sorted order ("ja", "ko").
func (b *Bundle) Langs() []string {
	return append([]string(nil), b.langs...)
}

// Has tells whether lang has a string for key.
func (b *Bundle) Has(lang, key string) bool {
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

// Embedded tells whether lang's string for key is the one embedded in the
// binary (Defaults): no site file of LoadSite sets it.
func (b *Bundle) Embedded(lang, key string) bool {
	f := b.files[lang]
	if f == nil {
		return false
	}
	t := f.from[key]
	return t != nil && t.embedded
}

// At is a diagnostic at the line of key in the file lang's string for it
// was read from; about the whole of Path(lang) when lang lacks key.
func (b *Bundle) At(lang, key, format string, args ...any) diag.Diagnostic {
	if f := b.files[lang]; f != nil {
		return f.at(key, format, args...)
	}
	return diag.File(lang+".toml", format, args...)
}

// T returns the string for key in lang. A missing key gives "[lang:key]" so
// it shows on the page instead of vanishing.
func (b *Bundle) T(lang, key string) string {
	if s, ok := b.strings[lang][key]; ok {
		return s
	}
	return "[" + lang + ":" + key + "]"
}

// Tf formats the string for key in lang with args, as fmt.Sprintf does.
func (b *Bundle) Tf(lang, key string, args ...any) string {
	s, ok := b.strings[lang][key]
	if !ok {
		return b.T(lang, key)
	}
	return fmt.Sprintf(s, args...)
}

// Match returns the bundle's best language for an Accept-Language header,
// or fallback when the header is empty, malformed, or names no language
// close enough to one of the bundle's.
func (b *Bundle) Match(acceptLanguage string, fallback string) string {
	return b.matcher.Match(acceptLanguage, fallback)
}
