// Package config reads a site's configuration, kakehashi.toml at the site
// root: its base URL, languages, theme, titles and descriptions per
// language, copyright line, "edit this page" pattern, the search and
// calculator switches, and free parameters for templates.
//
//	baseURL = "https://example.org/course/"
//	languages = ["ja", "ko"]
//	theme = "default"
//	copyright = "© 2026 Author"
//	editURL = "https://github.com/me/course/edit/main/{path}"
//	search = true
//	calculators = true
//
//	[title]
//	ja = "…"
//
//	[description]
//	ja = "…"
//
//	[params]
//	anything = "…"
//
// Every fault is reported at its kakehashi.toml:line:col (columns in
// characters): an unknown key, with the known key it is likely a typo of;
// a value of the wrong type; a base URL or an edit URL that is not an
// absolute http(s) URL; a language listed twice; an edit URL without
// {path}.
//
// The package owns the site's languages: Langs works them out (the
// languages list, else the content folders) for the build, every command
// and the authoring server, and CheckLangs checks them against the
// languages that have UI strings, which only the build loads.
package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// File is the configuration's file name at the site root.
const File = "kakehashi.toml"

// Config is a site's configuration.
type Config struct {
	// BaseURL is the absolute URL the site is published under, ending in
	// "/"; "" when the file sets none.
	BaseURL string
	// Languages is the file's languages list, in order: the first is
	// the default and the original of translations. Nil when the file
	// has none; the site's languages are then its content folders' (Langs).
	Languages []string
	// Theme is the theme's folder name under themes/; "" for the default.
	Theme       string
	Copyright   string
	EditURL     string // with {path} and optionally {lang}; "" for no edit links
	Search      bool   // write the search indexes and the search box; default true
	Calculators bool   // publish the calculators' WebAssembly; default true
	Title       map[string]string
	// ShortTitle is the title per language where the header has little
	// room (a phone's); a language without one shows Title there.
	ShortTitle  map[string]string
	Description map[string]string
	// Params is free for templates (.Site.Params).
	Params map[string]any

	// Src is the file as read (nil without a file): a build that uses
	// the configuration depends on these bytes.
	Src []byte

	path string
	idx  *diag.Index
	pos  map[string]int // byte offset of each key ("title.ja", "languages[1]") and of "=key" its value
}

// Default is the configuration of a site without kakehashi.toml.
func Default() *Config {
	return &Config{Search: true, Calculators: true, path: File}
}

// keys lists the top-level keys, for messages and did-you-mean.
var keys = []string{"baseURL", "languages", "theme", "copyright", "editURL", "search", "calculators", "title", "shortTitle", "description", "params"}

// Load reads the configuration at path on fsys. A missing file gives the
// defaults and no diagnostics; every fault of the file is a diagnostic at
// its position.
func Load(ctx context.Context, fsys afero.Fs, path string) (*Config, diag.List) {
	c := Default()
	c.path = path
	if err := ctx.Err(); err != nil {
		return c, diag.List{diag.File(path, "reading the configuration: %v", err)}
	}
	src, err := afero.ReadFile(fsys, path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, diag.List{diag.File(path, "cannot read: %v", err)}
	}
	c.Src, c.idx = src, diag.NewIndex(src)
	var raw map[string]any
	if err := toml.Unmarshal(src, &raw); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return c, diag.List{c.idx.At(path, byteOffset(src, line, col), "%s", strings.TrimPrefix(de.Error(), "toml: "))}
		}
		return c, diag.List{diag.File(path, "%v", err)}
	}
	c.pos = positions(src)
	diags := c.decode(raw)
	diags.Sort()
	return c, diags
}

// decode fills c from the decoded file, reporting each fault.
func (c *Config) decode(raw map[string]any) diag.List {
	var diags diag.List
	for _, k := range sortedKeys(raw) {
		v := raw[k]
		switch k {
		case "baseURL":
			if s, ok := c.str(&diags, k, v); ok {
				if err := CheckBaseURL(s); err != nil {
					diags = append(diags, c.at("="+k, "%q %v", k, err))
				} else {
					c.BaseURL = withSlash(s)
				}
			}
		case "languages":
			c.Languages, diags = c.languages(v, diags)
		case "theme":
			if s, ok := c.str(&diags, k, v); ok {
				if s == "" || s == "." || s == ".." || strings.ContainsAny(s, `/\:`) {
					diags = append(diags, c.at("="+k, "%q must be the name of one folder under themes/, such as \"default\"", k))
				} else {
					c.Theme = s
				}
			}
		case "copyright":
			c.Copyright, _ = c.str(&diags, k, v)
		case "editURL":
			if s, ok := c.str(&diags, k, v); ok {
				if !strings.Contains(s, "{path}") {
					diags = append(diags, c.at("="+k, "%q must hold {path}, the page's source path from the site root, such as https://github.com/me/course/edit/main/{path}", k))
				} else if err := CheckEditURL(s); err != nil {
					diags = append(diags, c.at("="+k, "%q %v", k, err))
				} else {
					c.EditURL = s
				}
			}
		case "search", "calculators":
			b, ok := v.(bool)
			if !ok {
				diags = append(diags, c.at("="+k, "%q must be true or false, got %s", k, typeName(v)))
				continue
			}
			if k == "search" {
				c.Search = b
			} else {
				c.Calculators = b
			}
		case "title", "shortTitle", "description":
			m := c.perLang(&diags, k, v)
			switch k {
			case "title":
				c.Title = m
			case "shortTitle":
				c.ShortTitle = m
			default:
				c.Description = m
			}
		case "params":
			m, ok := v.(map[string]any)
			if !ok {
				diags = append(diags, c.at("="+k, "%q must be a table ([params]), got %s", k, typeName(v)))
				continue
			}
			c.Params = m
		default:
			msg := fmt.Sprintf("unknown key %q", k)
			if s := diag.Suggest(k, keys); s != "" {
				msg += fmt.Sprintf(": did you mean %q?", s)
			} else {
				msg += "; the keys are " + strings.Join(keys, ", ")
			}
			diags = append(diags, c.at(k, "%s", msg))
		}
	}
	return diags
}

// str is v as a string, or a diagnostic that key must be one.
func (c *Config) str(diags *diag.List, key string, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		*diags = append(*diags, c.at("="+key, "%q must be a string, got %s", key, typeName(v)))
	}
	return s, ok
}

// languages checks the list of language codes.
func (c *Config) languages(v any, diags diag.List) ([]string, diag.List) {
	const k = "languages"
	list, ok := v.([]any)
	if !ok {
		return nil, append(diags, c.at("="+k, "%q must be a list of language codes, got %s", k, typeName(v)))
	}
	if len(list) == 0 {
		return nil, append(diags, c.at("="+k, "%q must name at least one language, such as [\"ja\", \"ko\"]", k))
	}
	var out []string
	bad := false
	for i, e := range list {
		at := fmt.Sprintf("%s[%d]", k, i)
		s, ok := e.(string)
		switch {
		case !ok:
			diags = append(diags, c.at(at, "%q must be a list of language codes, got %s in the list", k, typeName(e)))
			bad = true
		case slices.Contains(out, s):
			diags = append(diags, c.at(at, "language %q is listed twice in %q", s, k))
			bad = true
		default:
			out = append(out, s)
		}
	}
	if bad {
		return nil, diags
	}
	return out, diags
}

// perLang is a table of one string per language.
func (c *Config) perLang(diags *diag.List, key string, v any) map[string]string {
	t, ok := v.(map[string]any)
	if !ok {
		*diags = append(*diags, c.at("="+key, "%q must be a table with one string per language ([%s] ja = \"…\"), got %s", key, key, typeName(v)))
		return nil
	}
	out := map[string]string{}
	for _, lang := range sortedKeys(t) {
		s, ok := t[lang].(string)
		if !ok {
			*diags = append(*diags, c.at("="+key+"."+lang, "%q must be a string, got %s", key+"."+lang, typeName(t[lang])))
			continue
		}
		out[lang] = s
	}
	return out
}

// EditLink is the "edit this page" URL of the page whose source is at
// path (from the site root) in lang; "" without editURL.
func (c *Config) EditLink(path, lang string) string {
	if c.EditURL == "" {
		return ""
	}
	return strings.NewReplacer("{path}", path, "{lang}", lang).Replace(c.EditURL)
}

// Path is the configuration file's path, for diagnostics about it.
func (c *Config) Path() string { return c.path }

// CheckBaseURL says what is wrong with a base URL (the configuration's
// baseURL, the --base-url flag): it must be an absolute http or https URL
// with a host, and no query or fragment, as every page's address is made
// by appending a path to it.
func CheckBaseURL(s string) error {
	const example = "https://example.org/course/"
	u, err := checkWebURL(s, example)
	if err != nil {
		return err
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(s, "#") {
		return fmt.Errorf("must have no query (?) or fragment (#): page paths are appended to it, such as %s", example)
	}
	return nil
}

// CheckEditURL says what is wrong with the configuration's editURL, its
// {path} and {lang} aside: it must be an absolute http or https URL with a
// host, as it becomes the href of every page's "edit this page" link.
func CheckEditURL(s string) error {
	filled := strings.NewReplacer("{path}", "content/ja/page.md", "{lang}", "ja").Replace(s)
	_, err := checkWebURL(filled, "https://github.com/me/course/edit/main/{path}")
	return err
}

// checkWebURL parses s, an address for a reader's browser: an absolute
// URL whose scheme is http or https, with a host. example is a good one,
// for the message.
func checkWebURL(s, example string) (*url.URL, error) {
	u, err := url.Parse(s)
	switch {
	case err == nil && u.Scheme != "" && !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https"):
		return nil, fmt.Errorf("must be an http:// or https:// URL, not %s:, such as %s", strings.ToLower(u.Scheme), example)
	case err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "":
		return nil, fmt.Errorf("must be an absolute URL with a scheme and a host, such as %s", example)
	}
	return u, nil
}

// withSlash makes a base URL end in "/".
func withSlash(s string) string {
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

// At is a diagnostic at the key named ("theme", "title.ja",
// "languages[1]") or, written "=key", at its value; about the whole file
// when the file does not hold it. The build reports with it what only
// it can check.
func (c *Config) At(key, format string, args ...any) diag.Diagnostic {
	return c.at(key, format, args...)
}

// at is a diagnostic at the key (or, "=key", the value) named, or about
// the whole file when its position is unknown.
func (c *Config) at(key, format string, args ...any) diag.Diagnostic {
	off, ok := c.pos[key]
	if !ok && strings.HasPrefix(key, "=") {
		off, ok = c.pos[key[1:]]
	}
	if !ok || c.idx == nil {
		return diag.File(c.path, format, args...)
	}
	return c.idx.At(c.path, off, format, args...)
}

// positions finds the byte offset of every key of src, by its dotted name
// ("title.ja"), of its value ("=title.ja") and of each string of an array
// ("languages[0]"). src has parsed already.
func positions(src []byte) map[string]int {
	pos := map[string]int{}
	var p unstable.Parser
	p.Reset(src)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = table[:0]
			it := e.Key()
			for it.Next() {
				n := it.Node()
				table = append(table, string(n.Data))
				if _, ok := pos[strings.Join(table, ".")]; !ok {
					pos[strings.Join(table, ".")] = int(n.Raw.Offset)
				}
			}
		case unstable.KeyValue:
			name := slices.Clone(table)
			end := 0
			it := e.Key()
			for it.Next() {
				n := it.Node()
				name = append(name, string(n.Data))
				pos[strings.Join(name, ".")] = int(n.Raw.Offset)
				end = int(n.Raw.Offset + n.Raw.Length)
			}
			key := strings.Join(name, ".")
			if i := bytes.IndexByte(src[end:], '='); i >= 0 {
				v := end + i + 1
				for v < len(src) && (src[v] == ' ' || src[v] == '\t') {
					v++
				}
				pos["="+key] = v
			}
			if val := e.Value(); val.Kind == unstable.Array {
				i := 0
				for it := val.Children(); it.Next(); {
					if n := it.Node(); n.Kind != unstable.Comment {
						if n.Raw.Length > 0 || n.Kind == unstable.String {
							pos[fmt.Sprintf("%s[%d]", key, i)] = int(n.Raw.Offset)
						}
						i++
					}
				}
			}
		}
	}
	return pos
}

// byteOffset turns go-toml's line and column (in bytes) into an offset.
func byteOffset(src []byte, line, col int) int {
	off := 0
	for l := 1; l < line && off < len(src); off++ {
		if src[off] == '\n' {
			l++
		}
	}
	return min(off+col-1, len(src))
}

// typeName names a decoded TOML value's type as the file spells it.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "boolean"
	case []any:
		return "list"
	case map[string]any:
		return "table"
	case time.Time, toml.LocalDate, toml.LocalDateTime, toml.LocalTime:
		return "date"
	}
	return fmt.Sprintf("%T", v)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
