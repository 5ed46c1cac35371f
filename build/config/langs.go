package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/afero"
	"golang.org/x/text/language"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Langs works out the site's languages, in the site's order, the first
// being the original of translations. It is the one place that decides
// them; the build, every command and the authoring server ask it:
//
//   - the configuration's languages list, when it has one;
//   - else the language folders under content (the content folder's
//     path on fsys): each folder whose name is a language tag ("ja",
//     "ko", "en", "zh-Hant"), series/ and the folders no build reads
//     (hidden ones, "_" ones, editors' leftovers) aside, in the order of
//     their names.
//
// Which languages have UI strings plays no part: CheckLangs reports a
// language without any. A site with neither a list nor a language folder
// has no language, an error about the configuration file.
func (c *Config) Langs(ctx context.Context, fsys afero.Fs, content string) ([]string, diag.List) {
	if c.Languages != nil {
		return slices.Clone(c.Languages), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, diag.List{diag.File(content, "finding the site's languages: %v", err)}
	}
	entries, err := afero.ReadDir(fsys, content)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, diag.List{diag.File(content, "cannot read the language folders: %v", err)}
	}
	var langs []string
	for _, e := range entries {
		if name := e.Name(); e.IsDir() && IsLangFolder(name) {
			langs = append(langs, name)
		}
	}
	sort.Strings(langs)
	if len(langs) == 0 {
		return nil, diag.List{c.at("languages", "the site has no languages: list them in %s (languages = [\"ja\", \"ko\"]), or make a folder for each under %s/ (%s/ja/)", File, content, content)}
	}
	return langs, nil
}

// IsLangFolder tells whether a folder of the content root, by its name,
// is a language's when the configuration lists none: a language tag,
// not series/, not a folder no build reads.
func IsLangFolder(name string) bool {
	if name == source.SeriesDir || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || source.Leftover(name) {
		return false
	}
	_, err := language.Parse(name)
	return err == nil
}

// CheckLangs checks the site's languages (langs, from Langs) against
// known, the languages that have UI strings: each must be one of them,
// an error at its place in the languages list or, for a language of a
// content folder, at the folder (under content); each title or
// description must be for one of the site's languages (a warning).
func (c *Config) CheckLangs(langs, known []string, content string) diag.List {
	var diags diag.List
	for i, l := range langs {
		if slices.Contains(known, l) {
			continue
		}
		if c.Languages == nil {
			diags = append(diags, diag.File(path.Join(content, l), "language %q has no UI strings: add i18n/%s.toml holding every key (the languages with strings are %s)", l, l, strings.Join(known, ", ")))
			continue
		}
		msg := fmt.Sprintf("language %q has no UI strings", l)
		if s := diag.Suggest(l, known); s != "" {
			msg += fmt.Sprintf(": did you mean %q?", s)
		} else {
			msg += fmt.Sprintf(": add i18n/%s.toml, or use one of %s", l, strings.Join(known, ", "))
		}
		diags = append(diags, c.at(fmt.Sprintf("languages[%d]", i), "%s", msg))
	}
	for k, m := range map[string]map[string]string{"title": c.Title, "shortTitle": c.ShortTitle, "description": c.Description} {
		for _, l := range sortedKeys(m) {
			if !slices.Contains(langs, l) {
				diags = append(diags, c.at(k+"."+l, "%s for %q, which is not one of the site's languages (%s)", k, l, strings.Join(langs, ", ")).AsWarning())
			}
		}
	}
	diags.Sort()
	return diags
}

// LangFromPath is the language of the document at p: the first folder of
// the path that is one of langs, the site's languages; "" for none.
func LangFromPath(p string, langs []string) string {
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if slices.Contains(langs, part) {
			return part
		}
	}
	return ""
}
