package hugoimport

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// memSite is the Hugo site of a txtar archive in memory.
func memSite(t *testing.T, archive string) afero.Fs {
	t.Helper()
	fsys := afero.NewMemMapFs()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		if err := afero.WriteFile(fsys, f.Name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

// convert converts the Hugo site of a txtar archive, failing the test on
// an error.
func convert(t *testing.T, archive string) *Site {
	t.Helper()
	s, err := Convert(context.Background(), memSite(t, archive))
	if err != nil {
		t.Fatalf("convert: %v", err)
	}
	return s
}

// text is the converted site's file p, "" when it has none.
func (s *Site) text(p string) string {
	for _, f := range s.files {
		if f.path == p {
			return string(f.data)
		}
	}
	return ""
}

// items are the report's items of kind k, as printed.
func (s *Site) items(k Kind) []string {
	var out []string
	for _, it := range s.Report.Items {
		if it.Kind == k {
			out = append(out, it.String())
		}
	}
	return out
}

// wantFile checks that the converted site has the file p with text want.
func wantFile(t *testing.T, s *Site, p, want string) {
	t.Helper()
	if got := s.text(p); got != want {
		t.Errorf("%s:\n%s\nwant:\n%s\n(the site has %s)", p, got, want, strings.Join(s.Paths(), ", "))
	}
}

// wantItems checks that the report has each of the items of kind k.
func wantItems(t *testing.T, s *Site, k Kind, want ...string) {
	t.Helper()
	got := s.items(k)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("no %s item %q in:\n\t%s", k, w, strings.Join(got, "\n\t"))
		}
	}
}

const oneLang = `
-- hugo.toml --
baseURL = "https://example.org/"
title = "Course"
defaultContentLanguage = "en"
`

// TestSeriesOrder: a section whose pages have weights is a series in
// their order (pages without a weight last, by date), one whose pages
// have dates only is one in date order, oldest first; a number a file
// name had is replaced by the part's; a section with neither stays
// pages of a folder, and its Hugo URLs are aliases.
func TestSeriesOrder(t *testing.T) {
	s := convert(t, oneLang+`
-- content/course/b.md --
---
title: B
weight: 20
---
-- content/course/a.md --
---
title: A
weight: 10
---
-- content/course/03-c.md --
---
title: C
date: 2024-01-01
---
-- content/blog/new.md --
---
title: New
date: 2024-03-01
---
-- content/blog/old.md --
---
title: Old
date: 2023-12-31T09:00:00+09:00
---
-- content/notes/x.md --
---
title: X
---
`)
	for p, want := range map[string]string{
		"content/en/course/01-a.md":   "---\ntitle: A\npart: 1\naliases: [/course/a/]\n---\n",
		"content/en/course/02-b.md":   "---\ntitle: B\npart: 2\naliases: [/course/b/]\n---\n",
		"content/en/course/03-c.md":   "---\ntitle: C\ndate: 2024-01-01\npart: 3\naliases: [/course/03-c/]\n---\n",
		"content/en/blog/01-old.md":   "---\ntitle: Old\ndate: 2023-12-31T09:00:00+09:00\npart: 1\naliases: [/blog/old/]\n---\n",
		"content/en/blog/02-new.md":   "---\ntitle: New\ndate: 2024-03-01\npart: 2\naliases: [/blog/new/]\n---\n",
		"content/en/notes/x.md":       "---\ntitle: X\naliases: [/notes/x/]\n---\n",
		"content/series/course.yaml":  "# The series made of the Hugo section course/, its pages in the order of their weight.\nid: course\ntitle: {en: Course}\nparts:\n  - number: 1\n    title: {en: A}\n    state: published\n  - number: 2\n    title: {en: B}\n    state: published\n  - number: 3\n    title: {en: C}\n    state: published\n",
		"content/series/blog.yaml":    "# The series made of the Hugo section blog/, its pages in the order of their date.\nid: blog\ntitle: {en: Blog}\nparts:\n  - number: 1\n    title: {en: Old}\n    state: published\n  - number: 2\n    title: {en: New}\n    state: published\n",
		"content/series/notes.yaml":   "",
		"content/en/course/_index.md": "",
	} {
		wantFile(t, s, p, want)
	}
	wantItems(t, s, Converted,
		"content/course/a.md: part 1 of series course (weight 10) in en is content/en/course/01-a.md, /en/course/01-a/",
		"content/course/03-c.md: part 3 of series course (by date) in en is content/en/course/03-c.md, /en/course/03-c/",
		"content/blog/old.md: part 1 of series blog (by date) in en is content/en/blog/01-old.md, /en/blog/01-old/",
		"content/notes/x.md: the en page is content/en/notes/x.md, /en/notes/x/")
}

// TestFrontMatter: TOML, YAML and JSON front matter map onto kakehashi's
// fields; what kakehashi has no field for goes into params, what it
// cannot keep into the report, each at its line.
func TestFrontMatter(t *testing.T) {
	s := convert(t, oneLang+`
[taxonomies]
tag = "tags"
category = "categories"
series = "series"
-- content/toml.md --
+++
title = "TOML page"
publishDate = 2024-02-03T10:00:00Z
lastmod = 2024-02-05
tags = ["Go", "C#"]
categories = ["lang"]
slug = "Toml Page"
draft = true
expiryDate = 2030-01-01
[params]
color = "red"
+++
Body.
-- content/json.md --
{
  "title": "JSON page",
  "Description": "from JSON",
  "series": ["basics"],
  "linkTitle": "JSON",
  "date": "2024-02-01 15:04:05 +0900"
}

JSON body.
-- content/yaml.md --
---
title: 123
summary: short
aliases: [old, /gone/]
headless: true
cascade:
  draft: true
---
YAML body.
`)
	wantFile(t, s, "content/en/toml.md", "---\ntitle: TOML page\ndate: 2024-02-03T10:00:00Z\nlastmod: 2024-02-05\ntags: [Go]\ndraft: true\nslug: toml-page\naliases: [/toml-page/]\nparams:\n  categories:\n    - lang\n  color: red\n---\nBody.\n")
	wantFile(t, s, "content/en/json.md", "---\ntitle: JSON page\ndescription: from JSON\ndate: 2024-02-01T15:04:05+09:00\naliases: [/json/]\nparams:\n  linkTitle: JSON\n  series:\n    - basics\n---\n\nJSON body.\n")
	wantFile(t, s, "content/en/yaml.md", "---\ntitle: \"123\"\nsummary: short\naliases: [/yaml/, /old/, /gone/]\n---\nYAML body.\n")
	wantItems(t, s, Converted,
		"content/toml.md:3:1: publishDate is kakehashi's date",
		"content/toml.md:10:2: params are kakehashi's params (.Params in templates)")
	wantItems(t, s, Approximated,
		"content/toml.md:7:1: slug \"Toml Page\" is \"toml-page\", as Hugo publishes it",
		"content/toml.md:6:1: categories is a Hugo taxonomy; kakehashi has tags only: kept in params (.Params.categories)",
		"content/json.md:4:3: series means something else in kakehashi: kept in params (.Params.series)",
		"content/json.md:5:3: linkTitle has no kakehashi field: kept in params (.Params.linkTitle)")
	wantItems(t, s, NotConverted,
		"content/toml.md:5:15: tag \"C#\" cannot be a kakehashi tag, whose page's URL segment would be \"c#\" contains '#': a URL's path ends there, so no link would reach it: dropped",
		"content/toml.md:9:1: expiryDate: kakehashi does not unpublish pages",
		"content/yaml.md:5:1: headless: kakehashi publishes every page that is not a draft",
		"content/yaml.md:6:1: cascade: the pages below do not get these fields")
}

// TestConfigDir: config/_default/ merges into the root file as in Hugo
// (params.toml is params, menus.ja.toml a language's menus), and each
// key is reported at its file and line.
func TestConfigDir(t *testing.T) {
	s := convert(t, `
-- hugo.yaml --
baseURL: https://example.org/docs/
title: Docs
paginate: 10
-- config/_default/languages.toml --
[ja]
title = "ドキュメント"
weight = 1
[ko]
title = "문서"
weight = 2
-- config/_default/hugo.toml --
defaultContentLanguage = "ko"
copyright = "© 2024 Me"
-- config/_default/params.toml --
repo = "me/docs"
-- config/_default/menus.ja.toml --
[[main]]
name = "ホーム"
url = "/"
-- content/_index.md --
---
title: 문서
---
`)
	wantFile(t, s, "kakehashi.toml", `# Converted from the Hugo configuration (hugo.yaml, config/_default/hugo.toml, config/_default/languages.toml, config/_default/menus.ja.toml, config/_default/params.toml) by kakehashi import hugo.
baseURL = "https://example.org/docs/"
languages = ["ko", "ja"]
copyright = "© 2024 Me"

[title]
ko = "문서"
ja = "ドキュメント"

[params]
repo = 'me/docs'

[params.languages]
[params.languages.ja]
[params.languages.ja.menus]
[[params.languages.ja.menus.main]]
name = 'ホーム'
url = '/'
`)
	wantFile(t, s, "content/ko/_index.md", "---\ntitle: 문서\n---\n")
	wantItems(t, s, Converted,
		"hugo.yaml:1:1: baseURL is kakehashi.toml's baseURL",
		"config/_default/hugo.toml:1:1: the default content language is the first of kakehashi.toml's languages, the original of translations",
		"config/_default/languages.toml:2:1: the title of \"ja\" is kakehashi.toml's title.ja",
		"config/_default/params.toml: params are kakehashi.toml's [params], for templates as .Site.Params")
	wantItems(t, s, Approximated,
		"config/_default/menus.ja.toml: the menus of \"ja\" are kept in kakehashi.toml's [params.languages.ja.menus]: kakehashi's theme shows no menus")
	wantItems(t, s, NotConverted, "hugo.yaml:3:1: paginate has no equivalent in kakehashi")
}

// TestURLs: the Hugo URL of a page and of its aliases, kept as the
// kakehashi page's aliases, as Hugo 0.169 works them out.
func TestURLs(t *testing.T) {
	for _, tc := range []struct {
		name, config, page, want string
	}{
		{"default language at the root", "", "slug: My Slug", "/sec/my-slug/"},
		{"default language in its folder, as in kakehashi", "defaultContentLanguageInSubdir = true", "", ""},
		{"absolute url", "", "url: /custom/Path/", "/custom/Path/"},
		{"url of a file", "", "url: /custom/page.html", "/custom/page.html"},
		{"ugly URLs", "uglyURLs = true", "", "/sec/page.html"},
		{"no lowercasing", "disablePathToLower = true", "slug: My Slug", "/sec/My-Slug/"},
		{"permalink", "[permalinks]\nsec = \"/:year/:month/:slug/\"", "date: 2024-05-06\ntitle: A Title", "/2024/05/a-title/"},
		{"relative alias", "", "aliases: [old]", "/sec/page/, /sec/old/"},
		{"absolute alias", "", "aliases: [/x/y]", "/sec/page/, /x/y/"},
		{"alias of a file", "", "aliases: [/old.html]", "/sec/page/, /old.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := convert(t, oneLang+tc.config+`
-- content/sec/page.md --
---
`+tc.page+`
---
`)
			var got string
			for _, p := range s.Paths() {
				if strings.HasPrefix(p, "content/en/sec/") {
					text := s.text(p)
					if i := strings.Index(text, "aliases: ["); i >= 0 {
						got = text[i+len("aliases: [") : i+strings.Index(text[i:], "]")]
					}
				}
			}
			if got != tc.want {
				t.Errorf("aliases %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTranslationKey: pages with one translationKey are translations of
// each other under the first language's name, whatever their files.
func TestTranslationKey(t *testing.T) {
	s := convert(t, `
-- hugo.toml --
defaultContentLanguage = "ja"
[languages.ja]
weight = 1
[languages.ko]
weight = 2
-- content/about.md --
---
title: 概要
translationKey: about
---
-- content/sobre.ko.md --
---
title: 소개
translationKey: about
---
`)
	wantFile(t, s, "content/ja/about.md", "---\ntitle: 概要\naliases: [/about/]\n---\n")
	wantFile(t, s, "content/ko/about.md", "---\ntitle: 소개\naliases: [/ko/sobre/]\n---\n")
}

// TestI18n: Hugo's UI strings in YAML, nested tables and go-i18n v1's
// list, become kakehashi's, {{ .Count }} as %d; a key one language
// lacks is the default language's; a language kakehashi has no strings
// for gets the English ones to translate, and everything loads.
func TestI18n(t *testing.T) {
	s := convert(t, `
-- hugo.toml --
defaultContentLanguage = "ja"
[languages.ja]
weight = 1
[languages.fr]
weight = 2
-- i18n/ja.yaml --
minutes:
  other: "{{ .Count }} 分"
nav:
  home: ホーム
odd: "{{ .Title }} 100%"
-- i18n/fr.yaml --
- id: minutes
  translation:
    one: "{{ .Count }} minute"
    other: "{{ .Count }} minutes"
- id: nav.home
  translation: Accueil
-- i18n/de.toml --
x = "y"
`)
	ja := s.text("i18n/ja.toml")
	for _, want := range []string{"minutes = \"%d 分\"\n", "\"nav.home\" = \"ホーム\"\n", "odd = \"{{ .Title }} 100%%\"\n"} {
		if !strings.Contains(ja, want) {
			t.Errorf("i18n/ja.toml lacks %q:\n%s", want, ja)
		}
	}
	fr := s.text("i18n/fr.toml")
	for _, want := range []string{"minutes.one = \"%d minute\"\n", "minutes.other = \"%d minutes\"\n", "\"nav.home\" = \"Accueil\"\n",
		"# odd had no fr string in the Hugo site: this is the ja one.\nodd = \"{{ .Title }} 100%%\"\n", "lang_name = \"fr\"\n", "tags = \"Tags\"\n"} {
		if !strings.Contains(fr, want) {
			t.Errorf("i18n/fr.toml lacks %q:\n%s", want, fr)
		}
	}
	wantItems(t, s, NotConverted,
		"i18n/ja.yaml:5:1: a template action in a UI string: kakehashi's strings are Go formats (%d for the count), so it is kept as written",
		"i18n/de.toml: the UI strings of \"de\", which is not one of the site's languages (ja, fr)")
	wantItems(t, s, Approximated,
		"i18n: kakehashi has no UI strings in \"fr\": i18n/fr.toml holds its English ones, to translate",
		"i18n/fr.yaml: in i18n/fr.toml, 1 UI string is another language's, as Hugo falls back to the default language's: odd")
}

// TestBadHugoSite: a folder without a Hugo configuration is refused; a
// configuration or front matter that does not parse is an error at its
// place, and nothing is converted.
func TestBadHugoSite(t *testing.T) {
	_, err := Convert(context.Background(), memSite(t, "-- content/a.md --\n# A\n"))
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "not a Hugo site: no Hugo configuration") {
		t.Errorf("no configuration: %v, want a UsageError", err)
	}
	for _, tc := range []struct{ archive, want string }{
		{"-- hugo.toml --\ntitle = \"x\"\nbaseURL = \n", "hugo.toml:2:11: "},
		{oneLang + "-- content/a.md --\n---\ntitle: [x\n---\n", "content/a.md:2:"},
		{oneLang + "-- content/a.md --\n+++\ntitle = \"x\"\n", "content/a.md:1:1: front matter opened with \"+++\" is never closed"},
	} {
		_, err := Convert(context.Background(), memSite(t, tc.archive))
		var diags diag.List
		if !errors.As(err, &diags) || len(diags) != 1 || !strings.HasPrefix(diags[0].Header(), tc.want) {
			t.Errorf("%q: %v, want one error starting %q", tc.archive, err, tc.want)
		}
	}
}

// TestWriteRefusesNonEmptyDest: a destination with a file in it, or that
// is a file, is refused and left as it was.
func TestWriteRefusesNonEmptyDest(t *testing.T) {
	s := convert(t, oneLang+"-- content/a.md --\nA.\n")
	out := afero.NewMemMapFs()
	afero.WriteFile(out, "dest/mine.txt", []byte("mine"), 0o644)
	afero.WriteFile(out, "file", []byte("a file"), 0o644)
	if err := s.Write(context.Background(), memSite(t, oneLang), out, "dest"); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("a folder with a file: %v, want ErrNotEmpty", err)
	}
	var usage *UsageError
	if err := s.Write(context.Background(), memSite(t, oneLang), out, "file"); !errors.As(err, &usage) {
		t.Errorf("a file: %v, want a UsageError", err)
	}
	if got := tree(t, out); !slices.Equal(got, []string{"dest/mine.txt", "file"}) {
		t.Errorf("after the refusals the folder holds %v", got)
	}
}

// TestWriteAllOrNothing: a write that fails midway (a file of the Hugo
// site gone since it was read) leaves no destination and no temporary
// folder; one that succeeds leaves the site in the destination alone.
func TestWriteAllOrNothing(t *testing.T) {
	archive := oneLang + "-- content/b/index.md --\nB.\n-- content/b/a.png --\nPNG\n-- static/z.txt --\nz\n"
	src := memSite(t, archive)
	s, err := Convert(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	src.Remove("static/z.txt")
	out := afero.NewMemMapFs()
	if err := s.Write(context.Background(), src, out, "dest"); err == nil || !strings.Contains(err.Error(), "static/z.txt") {
		t.Errorf("write with a file gone: %v, want an error naming it", err)
	}
	if got := tree(t, out); len(got) > 0 {
		t.Errorf("a failed write left %v", got)
	}
	out.Mkdir("empty", 0o755)
	s, _ = Convert(context.Background(), memSite(t, archive))
	if err := s.Write(context.Background(), memSite(t, archive), out, "empty"); err != nil {
		t.Fatal(err)
	}
	want := []string{"empty/content/en/b/a.png", "empty/content/en/b/index.md", "empty/kakehashi.toml", "empty/static/z.txt"}
	if got := tree(t, out); !slices.Equal(got, want) {
		t.Errorf("the written site is %v, want %v", got, want)
	}
	if !s.Report.Built {
		t.Errorf("the written site does not build: %v", s.Report.Build)
	}
}

// TestImportRefusals: Import refuses a destination inside the Hugo site
// and leaves the Hugo site as it was.
func TestImportRefusals(t *testing.T) {
	src := t.TempDir()
	writeArchive(t, filepath.Join("testdata", "byname.txtar"), src)
	before := osTree(t, src)
	_, err := Import(context.Background(), src, filepath.Join(src, "kakehashi"))
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "inside the Hugo site") {
		t.Errorf("a destination inside the source: %v, want a UsageError", err)
	}
	if _, err := Import(context.Background(), src, src); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("the source as destination: %v, want ErrNotEmpty", err)
	}
	dest := filepath.Join(t.TempDir(), "site")
	if _, err := Import(context.Background(), src, dest); err != nil {
		t.Fatal(err)
	}
	if after := osTree(t, src); !slices.Equal(before, after) {
		t.Errorf("the import changed the Hugo site:\nbefore %v\nafter  %v", before, after)
	}
	entries, _ := os.ReadDir(filepath.Dir(dest))
	if len(entries) != 1 || entries[0].Name() != "site" {
		t.Errorf("beside the destination: %v, want only it", entries)
	}
}

// tree lists the files of fsys.
func tree(t *testing.T, fsys afero.Fs) []string {
	t.Helper()
	var out []string
	afero.Walk(fsys, "", func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// osTree lists the files under dir with their contents.
func osTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			data, _ := os.ReadFile(p)
			out = append(out, p+"="+string(data))
		}
		return nil
	})
	return out
}

// TestFilesAndTemplates: the site's shortcode templates override its
// theme's, both copied where kakehashi reads them; a content file
// outside page bundles goes to static/ under each language; a static
// file that shadows one of kakehashi's theme, raw HTML the Hugo site
// renders and a section's slug are reported.
func TestFilesAndTemplates(t *testing.T) {
	s := convert(t, oneLang+`
theme = "t"
[markup.goldmark.renderer]
unsafe = true
-- themes/t/layouts/shortcodes/box.html --
theme box
-- themes/t/layouts/shortcodes/warn.html --
theme warn
-- layouts/shortcodes/box.html --
site box
-- layouts/shortcodes/box.amp.html --
amp
-- static/css/main.css --
body {}
-- content/sec/_index.md --
---
title: Sec
slug: other
---
-- content/sec/map.txt --
map
`)
	for p, want := range map[string]string{
		"layouts/shortcodes/box.html":  "",
		"layouts/shortcodes/warn.html": "",
	} {
		wantFile(t, s, p, want) // copies hold no text of their own
	}
	var copies []string
	for _, f := range s.files {
		if f.data == nil {
			copies = append(copies, f.path+" ← "+f.from)
		}
	}
	for _, want := range []string{
		"layouts/shortcodes/box.html ← layouts/shortcodes/box.html",
		"layouts/shortcodes/warn.html ← themes/t/layouts/shortcodes/warn.html",
		"static/css/main.css ← static/css/main.css",
		"static/en/sec/map.txt ← content/sec/map.txt",
	} {
		if !slices.Contains(copies, want) {
			t.Errorf("no copy %s in %v", want, copies)
		}
	}
	wantItems(t, s, Converted, "themes/t/layouts/shortcodes/box.html: overridden by layouts/shortcodes/box.html, as in Hugo")
	wantItems(t, s, Approximated,
		"static/css/main.css: replaces the file of kakehashi's theme of that name, static/css/main.css: the pages use this one",
		"content/sec/map.txt: a file of the content outside page bundles: kakehashi publishes only page folders' files, so it is in static/ at /en/sec/map.txt")
	wantItems(t, s, NotConverted,
		"hugo.toml:7:1: raw HTML in pages is rendered by this Hugo site; kakehashi leaves it out (raw HTML is off), so pages that hold some read otherwise",
		"layouts/shortcodes/box.amp.html: a shortcode template for one language or output format (box.amp.html): kakehashi reads NAME.html",
		"content/sec/_index.md:3:1: slug \"other\" of a section's page: its folder's name is its URL, in Hugo as in kakehashi")
}

// TestRefs: a ref names the renamed page whatever form Hugo takes it in
// (relative, from the root, a bundle's folder, a unique name, with a
// fragment); one in code is left as written, one to no page is
// reported.
func TestRefs(t *testing.T) {
	s := convert(t, oneLang+`
-- content/c/a.md --
---
weight: 1
---
-- content/c/b/index.md --
---
weight: 2
---
[1]({{< ref "a" >}}) [2]({{< relref "/c/a.md#x" >}}) [3]({{< ref path="unique" >}}) [4](../a.md)
{{< ref "missing" >}}

    {{< ref "a" >}}

`+"`{{< ref \"a\" >}}`"+`
-- content/other/unique.md --
U.
`)
	wantFile(t, s, "content/en/c/02-b/index.md", "---\npart: 2\naliases: [/c/b/]\n---\n"+
		`[1]({{< ref "/c/01-a" >}}) [2]({{< relref "/c/01-a#x" >}}) [3]({{< ref path="/other/unique" >}}) [4](../01-a.md)
{{< ref "missing" >}}

    {{< ref "a" >}}

`+"`{{< ref \"a\" >}}`\n")
	wantItems(t, s, Converted, `content/c/b/index.md:4:26: relref "/c/a.md#x" is relref "/c/01-a#x", the kakehashi page's path`)
	wantItems(t, s, NotConverted, `content/c/b/index.md:5:1: ref "missing" names no page of the Hugo site the importer can find: left as it is`)
}
