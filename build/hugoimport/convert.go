package hugoimport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/afero"
	"go.yaml.in/yaml/v3"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/themes"
)

// shortcodeDirs are the folders of the kakehashi site the Hugo site's
// shortcode templates are copied to: layouts/shortcodes/, as in Hugo,
// which a build reads over the theme's (config.Layout.Shortcodes).
func shortcodeDirs() []string { return []string{"layouts/shortcodes"} }

// Site is a kakehashi site converted from a Hugo site, not written yet:
// its files and the report of the conversion.
type Site struct {
	files  []outFile
	Report *Report
}

// outFile is one file of the converted site.
type outFile struct {
	path string // from the site root, slash-separated
	data []byte // the file's text; nil for a copy of from
	from string // the Hugo file copied, when data is nil
	size int64
}

// Paths lists the files of the site, sorted.
func (s *Site) Paths() []string {
	out := make([]string, len(s.files))
	for i, f := range s.files {
		out[i] = f.path
	}
	return out
}

// UsageError is a refusal the author can mend (the command exits 2): a
// source folder that is no Hugo site, a destination that is not empty.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// converter is one conversion's state.
type converter struct {
	src     afero.Fs
	cfg     *hugoConfig
	report  *Report
	set     *contentSet
	files   map[string]outFile
	origins map[string]Origin
	// taken maps each URL of the kakehashi site to what has it, aliased
	// each alias to the Hugo page it redirects to.
	taken, aliased map[string]string
	taxonomies     []string
	logical        map[string]*group // by Hugo's logical path, made by byLogical
}

// Convert reads the Hugo site on src (its root is the site's folder) and
// works out the kakehashi site, writing nothing. A Hugo file that cannot
// be read (a configuration or front matter that does not parse) is an
// error at its place (a diag.List); a folder without a Hugo
// configuration is a UsageError.
func Convert(ctx context.Context, src afero.Fs) (*Site, error) {
	cfg, diags, err := loadConfig(ctx, src)
	switch {
	case errors.Is(err, errNoConfig):
		return nil, &UsageError{Msg: "not a Hugo site: " + err.Error()}
	case err != nil:
		return nil, err
	case len(diags) > 0:
		return nil, diags
	}
	cv := &converter{src: src, cfg: cfg, report: &Report{}, files: map[string]outFile{},
		origins: map[string]Origin{}, taken: map[string]string{}, aliased: map[string]string{}}
	cfg.interpret(cv.report)
	cv.report.Langs = cfg.codes()
	if m, ok := cfg.root["taxonomies"].(map[string]any); ok {
		for _, k := range sortedKeys(m) {
			cv.taxonomies = append(cv.taxonomies, strings.ToLower(k))
			if s, ok := m[k].(string); ok {
				cv.taxonomies = append(cv.taxonomies, strings.ToLower(s))
			}
		}
	}
	set, diags, err := cv.scanContent(ctx)
	if err != nil {
		return nil, err
	}
	if len(diags) > 0 {
		diags.Sort()
		return nil, diags
	}
	cv.set = set
	cv.groupPages(set)
	cv.findSeries(set)
	cv.place(set)
	cv.convertPages(set)
	cv.convertResources(set)
	cv.writeSeries(set)
	if err := cv.writeConfig(); err != nil {
		return nil, err
	}
	if err := cv.convertI18n(ctx); err != nil {
		return nil, err
	}
	if err := cv.copyStatic(ctx); err != nil {
		return nil, err
	}
	if err := cv.copyShortcodes(ctx); err != nil {
		return nil, err
	}
	cv.reportOthers()
	if len(cfg.langs) > 1 {
		cv.report.addAt(Approximated, cfg.langs[0].contentDir, 0, 0, "kakehashi tracks which version of its original each translation was made from: once the translations are up to date, run kakehashi translations mark --all in the new site")
	}
	site := &Site{Report: cv.report}
	for _, p := range sortedKeys(cv.files) {
		site.files = append(site.files, cv.files[p])
	}
	cv.report.Origins = cv.origins
	cv.report.sort()
	return site, nil
}

// write adds a text file to the converted site.
func (cv *converter) write(p string, data []byte) {
	cv.files[p] = outFile{path: p, data: data, size: int64(len(data))}
}

// copyFile adds a copy of a Hugo file to the converted site.
func (cv *converter) copyFile(p, from string, size int64) {
	cv.files[p] = outFile{path: p, from: from, size: size}
	cv.report.Files++
}

// checkPath says why a path of the kakehashi site made from Hugo names
// cannot be published, or nil.
func checkPath(p string) error {
	for _, seg := range strings.Split(p, "/") {
		if err := source.CheckSegment(seg); err != nil {
			return err
		}
	}
	return nil
}

// convertResources puts each leaf bundle's files into its pages'
// folders, and the other files of the content folders into static/
// under each language's folder, where links relative to the pages still
// reach them.
func (cv *converter) convertResources(set *contentSet) {
	langs := cv.cfg.codes()
	bundles := map[string]*group{} // by bundle folder
	for _, g := range set.groups {
		for _, p := range g.pages {
			if p.bundle != "" {
				bundles[p.bundle] = g
			}
		}
	}
	for _, r := range set.resources {
		if err := checkPath(r.under); err != nil {
			cv.report.addAt(NotConverted, r.src, 0, 0, "cannot be published by kakehashi: %v", err)
			continue
		}
		if r.bundle == "" {
			cv.looseFile(r, langs)
			continue
		}
		g := bundles[r.bundle]
		if g == nil {
			cv.report.addAt(NotConverted, r.src, 0, 0, "a file of the page bundle %s, whose page is not imported: not copied", r.bundle)
			continue
		}
		if r.under == "index.html" {
			cv.report.addAt(NotConverted, r.src, 0, 0, "a kakehashi page folder cannot hold index.html, the page's own file: not copied")
			continue
		}
		var to []string
		for _, l := range langs {
			if p := g.pages[l]; p != nil && p.bundle != "" && (r.lang == "" || r.lang == l) {
				to = append(to, l)
			}
		}
		if len(to) == 0 {
			cv.report.addAt(NotConverted, r.src, 0, 0, "a file of the page bundle %s for %s, which has no page there: not copied", r.bundle, r.lang)
			continue
		}
		var outs []string
		for _, l := range to {
			out := path.Join("content", l, g.out, r.under)
			cv.copyFile(out, r.src, r.size)
			outs = append(outs, out)
		}
		cv.report.addAt(Converted, r.src, 0, 0, "a file of its page bundle: %s", strings.Join(outs, ", "))
	}
}

// looseFile places a file of a content folder outside any page bundle
// (a branch bundle's file) in static/, under the language's folder and
// the section's kakehashi folder, so that a page's link relative to its
// section reaches it.
func (cv *converter) looseFile(r *resource, langs []string) {
	var segs []string
	for _, s := range strings.Split(r.dir, "/") {
		if s == "" {
			continue
		}
		n := cv.cfg.kakehashiName(s)
		if n == "" {
			cv.report.addAt(NotConverted, r.src, 0, 0, "the folder %q cannot be a kakehashi folder name: not copied", r.dir)
			return
		}
		segs = append(segs, n)
	}
	if s := cv.seriesOf(r.dir); s != nil {
		segs = []string{s.id}
	}
	to := langs
	if r.lang != "" {
		to = []string{r.lang}
	}
	var outs []string
	for _, l := range to {
		out := path.Join(append(append([]string{"static", l}, segs...), path.Base(r.rel))...)
		cv.copyFile(out, r.src, r.size)
		outs = append(outs, "/"+strings.TrimPrefix(out, "static/"))
	}
	cv.report.addAt(Approximated, r.src, 0, 0, "a file of the content outside page bundles: kakehashi publishes only page folders' files, so it is in static/ at %s", strings.Join(outs, ", "))
}

// writeSeries writes a series file for each series: its title and
// description per language from the section's _index.md pages, its parts
// with their pages' titles, every part published.
func (cv *converter) writeSeries(set *contentSet) {
	langs := cv.cfg.codes()
	for _, s := range set.series {
		var groups []*group
		for _, g := range s.groups {
			if g.out != "" {
				groups = append(groups, g)
			}
		}
		if len(groups) == 0 {
			continue
		}
		root := &yaml.Node{Kind: yaml.MappingNode}
		add := func(m *yaml.Node, key string, v *yaml.Node) {
			m.Content = append(m.Content, str(key), v)
		}
		add(root, "id", str(s.id))
		title, desc := map[string]string{}, map[string]string{}
		fallback := strings.ToUpper(s.section[:1]) + s.section[1:]
		if r, n := utf8.DecodeRuneInString(s.section); r != utf8.RuneError {
			fallback = string(unicode.ToUpper(r)) + s.section[n:]
		}
		for _, l := range langs {
			var p *hpage
			if s.index != nil {
				p = s.index.pages[l]
			}
			if p != nil && p.title != "" {
				title[l] = p.title
			}
			if p != nil && p.fm != nil {
				if v, ok := lookup(p.fm.vals, "description"); ok {
					desc[l], _ = scalarString(v)
				}
			}
		}
		for _, l := range langs {
			if title[l] == "" {
				title[l] = firstOf(title, langs, fallback)
			}
		}
		add(root, "title", langMap(title, langs))
		if len(desc) > 0 {
			add(root, "description", langMap(desc, langs))
		}
		parts := &yaml.Node{Kind: yaml.SequenceNode}
		for _, g := range groups {
			part := &yaml.Node{Kind: yaml.MappingNode}
			add(part, "number", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(g.part)})
			titles := map[string]string{}
			for _, l := range langs {
				if p := g.pages[l]; p != nil && p.title != "" {
					titles[l] = p.title
				}
			}
			first := g.first(langs)
			for _, l := range langs {
				if titles[l] != "" {
					continue
				}
				titles[l] = firstOf(titles, langs, first.name)
				if g.pages[l] == nil {
					cv.report.addAt(Approximated, first.src, 0, 0, "part %d of series %s has no %s page: its %s title in the series file is %q", g.part, s.id, l, l, titles[l])
				} else {
					cv.report.addAt(Approximated, g.pages[l].src, 0, 0, "a page without a title: its title in the series file is %q", titles[l])
				}
			}
			add(part, "title", langMap(titles, langs))
			add(part, "state", str(source.Published))
			parts.Content = append(parts.Content, part)
		}
		add(root, "parts", parts)
		var b bytes.Buffer
		b.WriteString("# The series made of the Hugo section " + s.section + "/, its pages in the order of their " + map[bool]string{false: "weight", true: "date"}[s.byDate] + ".\n")
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(root); err != nil {
			continue
		}
		enc.Close()
		p := path.Join("content", source.SeriesDir, s.id+".yaml")
		if _, diags := source.ParseSeries(p, b.Bytes()); len(diags.Errors()) > 0 {
			cv.report.addAt(NotConverted, path.Join(cv.cfg.langs[0].contentDir, s.section), 0, 0, "the series file cannot be written: %v", diags.Errors())
			continue
		}
		cv.write(p, b.Bytes())
		cv.report.Series++
		where := path.Join(cv.cfg.langs[0].contentDir, s.section)
		if s.index != nil {
			where = s.index.first(langs).src
		}
		cv.report.addAt(Converted, where, 0, 0, "the section %s/ is series %s, %s, with %s", s.section, s.id, p, plural(len(groups), "part", "parts"))
	}
}

// firstOf is the value of m in the first of langs that has one, else def.
func firstOf(m map[string]string, langs []string, def string) string {
	for _, l := range langs {
		if m[l] != "" {
			return m[l]
		}
	}
	return def
}

// langMap is a YAML mapping of one string per language, in flow style,
// in the order of langs.
func langMap(m map[string]string, langs []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	for _, l := range langs {
		if s, ok := m[l]; ok {
			n.Content = append(n.Content, str(l), str(s))
		}
	}
	return n
}

// bareKey matches a TOML key that needs no quotes.
var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// copyStatic copies the static folders to static/.
func (cv *converter) copyStatic(ctx context.Context) error {
	for _, dir := range cv.cfg.staticDirs {
		files, bad, err := walkFiles(ctx, cv.src, dir)
		if err != nil {
			return err
		}
		for _, e := range bad {
			cv.report.addAt(NotConverted, dir, 0, 0, "%v", e)
		}
		n := 0
		for _, f := range files {
			if err := checkPath(f.rel); err != nil {
				cv.report.addAt(NotConverted, f.path, 0, 0, "cannot be published by kakehashi: %v", err)
				continue
			}
			cv.copyFile(path.Join("static", f.rel), f.path, f.size)
			n++
			if ok, _ := afero.Exists(afero.FromIOFS{FS: themes.Default()}, path.Join("static", f.rel)); ok {
				cv.report.addAt(Approximated, f.path, 0, 0, "replaces the file of kakehashi's theme of that name, static/%s: the pages use this one", f.rel)
			}
		}
		if n > 0 {
			cv.report.addAt(Converted, dir, 0, 0, "%s copied to static/", plural(n, "file", "files"))
		}
	}
	return nil
}

// shortcodeSources are the folders Hugo reads a site's shortcode
// templates from, under layouts/ (the site's or a theme's): shortcodes/,
// and _shortcodes/ since Hugo 0.146.
var shortcodeSources = []string{"shortcodes", "_shortcodes"}

// copyShortcodes copies the shortcode templates of the Hugo themes and of
// the site (which override the themes', file by file) to shortcodeDirs.
func (cv *converter) copyShortcodes(ctx context.Context) error {
	var roots []string
	for i := len(cv.cfg.themes) - 1; i >= 0; i-- { // the first theme wins
		roots = append(roots, path.Join(cv.cfg.themesDir, cv.cfg.themes[i], "layouts"))
	}
	roots = append(roots, "layouts")
	chosen := map[string]found{}
	for _, root := range roots {
		for _, sub := range shortcodeSources {
			dir := path.Join(root, sub)
			files, bad, err := walkFiles(ctx, cv.src, dir)
			if err != nil {
				return err
			}
			for _, e := range bad {
				cv.report.addAt(NotConverted, dir, 0, 0, "%v", e)
			}
			for _, f := range files {
				name := strings.TrimSuffix(path.Base(f.rel), ".html")
				switch {
				case !strings.HasSuffix(f.rel, ".html"):
					cv.report.addAt(NotConverted, f.path, 0, 0, "a shortcode template for another output format than HTML: kakehashi writes HTML only")
				case strings.Contains(name, "."):
					cv.report.addAt(NotConverted, f.path, 0, 0, "a shortcode template for one language or output format (%s): kakehashi reads NAME.html", path.Base(f.rel))
				case checkPath(f.rel) != nil:
					cv.report.addAt(NotConverted, f.path, 0, 0, "cannot be a kakehashi file: %v", checkPath(f.rel))
				default:
					if prev, ok := chosen[f.rel]; ok {
						cv.report.addAt(Converted, prev.path, 0, 0, "overridden by %s, as in Hugo", f.path)
					}
					chosen[f.rel] = f
				}
			}
		}
	}
	for _, rel := range sortedKeys(chosen) {
		f := chosen[rel]
		var outs []string
		for _, dir := range shortcodeDirs() {
			out := path.Join(dir, rel)
			cv.copyFile(out, f.path, f.size)
			outs = append(outs, out)
		}
		cv.report.addAt(Converted, f.path, 0, 0, "a shortcode template: %s", strings.Join(outs, ", "))
	}
	return nil
}

// otherDirs are the folders of a Hugo site the importer does not
// convert, with why.
var otherDirs = []struct{ dir, why string }{
	{"archetypes", "archetypes: kakehashi new part writes a part's front matter itself"},
	{"assets", "assets (Hugo Pipes): kakehashi's theme has its own; a file pages link belongs in static/"},
	{"data", "data files: kakehashi templates have no .Site.Data"},
	{"resources", "Hugo's generated resources: not needed"},
}

// reportOthers reports the folders and templates of the Hugo site that
// are not converted.
func (cv *converter) reportOthers() {
	for _, o := range otherDirs {
		if ok, _ := afero.DirExists(cv.src, o.dir); ok {
			cv.report.addAt(NotConverted, o.dir, 0, 0, "%s", o.why)
		}
	}
	entries, _ := afero.ReadDir(cv.src, "layouts")
	for _, e := range entries {
		name := e.Name()
		if name == "shortcodes" || name == "_shortcodes" || strings.HasPrefix(name, ".") {
			continue
		}
		cv.report.addAt(NotConverted, path.Join("layouts", name), 0, 0, "Hugo templates are not converted: kakehashi's theme renders the pages (a site may override its layouts in layouts/)")
	}
	for _, t := range cv.cfg.themes {
		dir := path.Join(cv.cfg.themesDir, t)
		if ok, _ := afero.DirExists(cv.src, dir); ok {
			cv.report.addAt(NotConverted, dir, 0, 0, "the Hugo theme's layouts, assets and static files are not converted; its shortcodes are")
		}
	}
	if len(cv.cfg.langs) > 0 {
		for _, d := range cv.diagsOfModules() {
			cv.report.Items = append(cv.report.Items, d)
		}
	}
}

// diagsOfModules reports module mounts, which move folders the importer
// reads where they are.
func (cv *converter) diagsOfModules() []Item {
	v, ok := cv.cfg.get("module.mounts")
	if !ok {
		return nil
	}
	list, _ := v.([]any)
	var out []Item
	for i := range list {
		p, line, col := cv.cfg.at(fmt.Sprintf("module.mounts[%d]", i))
		out = append(out, Item{Kind: NotConverted, Path: p, Line: line, Col: col, Msg: "a module mount: the importer reads content/, static/, i18n/ and layouts/shortcodes/ where they are, not where mounts put them"})
	}
	return out
}
