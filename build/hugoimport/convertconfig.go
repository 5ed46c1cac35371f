package hugoimport

// The kakehashi.toml an import writes: the site's title, languages,
// copyright and parameters as the Hugo configuration gave them.

import (
	"context"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/config"
)

// writeConfig writes kakehashi.toml: the base URL, the languages (the
// default first), the copyright, the titles and descriptions per
// language, and the params, with the menus and the languages' own params
// and menus under them. It is checked as kakehashi reads it.
func (cv *converter) writeConfig() error {
	c := cv.cfg
	var b strings.Builder
	fmt.Fprintf(&b, "# Converted from the Hugo configuration (%s) by kakehashi import hugo.\n", strings.Join(c.files, ", "))
	if c.baseURL != "" {
		fmt.Fprintf(&b, "baseURL = %s\n", tomlString(c.baseURL))
	}
	quoted := make([]string, len(c.langs))
	for i, l := range c.langs {
		quoted[i] = tomlString(l.code)
	}
	fmt.Fprintf(&b, "languages = [%s]\n", strings.Join(quoted, ", "))
	copyright := c.copyright
	if l := c.lang(c.defaultLang); l != nil && l.copyright != "" {
		copyright = l.copyright
	}
	if copyright != "" {
		fmt.Fprintf(&b, "copyright = %s\n", tomlString(copyright))
	}
	table := func(name string, val func(*hugoLang) string) {
		var lines []string
		for _, l := range c.langs {
			if s := val(l); s != "" {
				lines = append(lines, fmt.Sprintf("%s = %s\n", tomlKey(l.code), tomlString(s)))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(&b, "\n[%s]\n%s", name, strings.Join(lines, ""))
		}
	}
	table("title", c.langTitle)
	table("description", c.description)
	params := map[string]any{}
	for k, v := range c.params {
		params[k] = v
	}
	if c.menus != nil {
		cv.putParam(params, "menus", c.menus, "menus")
	}
	langParams := map[string]any{}
	for _, l := range c.langs {
		m := map[string]any{}
		for k, v := range l.params {
			m[k] = v
		}
		if l.menus != nil {
			m["menus"] = l.menus
		}
		if len(m) > 0 {
			langParams[l.code] = m
		}
	}
	if len(langParams) > 0 {
		cv.putParam(params, "languages", langParams, "languages")
	}
	if len(params) > 0 {
		t, err := toml.Marshal(map[string]any{"params": plainValue(params)})
		if err != nil {
			return fmt.Errorf("writing the params of kakehashi.toml: %w", err)
		}
		b.WriteString("\n")
		b.Write(t)
	}
	mem := afero.NewMemMapFs()
	afero.WriteFile(mem, config.File, []byte(b.String()), 0o644)
	if _, diags := config.Load(context.Background(), mem, config.File); len(diags.Errors()) > 0 {
		return fmt.Errorf("the kakehashi.toml made from the Hugo configuration does not read: %w", diags.Errors())
	}
	cv.write(config.File, []byte(b.String()))
	return nil
}

// putParam sets params[key] to v unless the Hugo params have that key,
// which is kept and reported.
func (cv *converter) putParam(params map[string]any, key string, v any, cfgKey string) {
	if _, ok := lookup(params, key); ok {
		cv.cfg.note(cv.report, NotConverted, cfgKey, "kakehashi.toml's [params] already has %q (from the Hugo params): these are not kept", key)
		return
	}
	params[key] = v
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlKey is k as a TOML key.
func tomlKey(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return tomlString(k)
}
