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
	matcher language.Matcher
}

// file is one language file as loaded.
type file struct {
	lang string
	path string
	src  []byte
	vals map[string]string
	// line holds the 1-based line of each key, for diagnostics.
	line map[string]int
}

// Load reads every <lang>.toml in dir. It reports a TOML syntax error at its
// file:line:col, a file name that is not a language tag, a value that is not
// a string, and every key that one language has and another lacks. A
// cancelled ctx stops the reading with its error.
func Load(ctx context.Context, fsys afero.Fs, dir string) (*Bundle, diag.List) {
	entries, err := afero.ReadDir(fsys, dir)
	if err != nil {
		return nil, diag.List{diag.File(dir, "cannot read UI strings: %v", err)}
	}
	var (
		files []*file
		diags diag.List
	)
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, diag.List{diag.File(dir, "reading UI strings: %v", err)}
		}
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".toml") {
			continue
		}
		p := path.Join(dir, name)
		lang := strings.TrimSuffix(name, ".toml")
		if _, err := language.Parse(lang); err != nil {
			diags = append(diags, diag.File(p, "file name %q is not a language tag: %v", lang, err))
			continue
		}
		src, err := afero.ReadFile(fsys, p)
		if err != nil {
			diags = append(diags, diag.File(p, "cannot read: %v", err))
			continue
		}
		f, ds := parseFile(p, lang, src)
		diags = append(diags, ds...)
		if f != nil {
			files = append(files, f)
		}
	}
	if len(files) == 0 && len(diags) == 0 {
		diags = append(diags, diag.File(dir, "no <lang>.toml files with UI strings"))
	}
	sort.Slice(files, func(i, j int) bool { return files[i].lang < files[j].lang })
	diags = append(diags, checkKeys(files)...)
	if len(diags.Errors()) > 0 {
		diags.Sort()
		return nil, diags
	}

	b := &Bundle{strings: make(map[string]map[string]string)}
	tags := make([]language.Tag, len(files))
	for i, f := range files {
		b.langs = append(b.langs, f.lang)
		b.strings[f.lang] = f.vals
		tags[i] = language.Make(f.lang)
	}
	b.matcher = language.NewMatcher(tags)
	return b, diags
}

// parseFile decodes one language file and records the line of each key.
func parseFile(p, lang string, src []byte) (*file, diag.List) {
	var raw map[string]any
	if err := toml.Unmarshal(src, &raw); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, diag.List{diag.At(p, src, byteOffset(src, line, col), "%s", de.Error())}
		}
		return nil, diag.List{diag.File(p, "%v", err)}
	}
	f := &file{lang: lang, path: p, src: src, vals: make(map[string]string), line: keyLines(src)}
	var diags diag.List
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s, ok := raw[k].(string)
		if !ok {
			diags = append(diags, f.at(k, "key %q: value must be a string, not %T", k, raw[k]))
			continue
		}
		f.vals[k] = s
	}
	return f, diags
}

// at is a diagnostic at the line of key in f (the whole file when the key's
// line is unknown).
func (f *file) at(key, format string, args ...any) diag.Diagnostic {
	if l, ok := f.line[key]; ok {
		src := diag.LineText(f.src, l)
		col := len([]rune(src)) - len([]rune(strings.TrimLeft(src, " \t"))) + 1
		return diag.AtLine(f.path, f.src, l, col, format, args...)
	}
	return diag.File(f.path, format, args...)
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
	if len(b.langs) == 0 {
		return fallback
	}
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return fallback
	}
	_, i, conf := b.matcher.Match(tags...)
	if conf == language.No || i < 0 || i >= len(b.langs) {
		return fallback
	}
	return b.langs[i]
}
