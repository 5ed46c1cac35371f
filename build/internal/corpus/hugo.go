package corpus

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/afero"
)

// hugoLayouts is a minimal Hugo theme doing the work kakehashi's article
// pages do: the content with classed highlighting, a table of contents,
// translation links and hreflang alternates, previous/next in the series,
// and the series index on its section page; beside every article, as
// kakehashi's default theme has it, the series list: every part of a short
// series, of a long one (more than 28) the first two, the last two and the
// seven on each side of the article.
var hugoLayouts = []File{
	{Path: "layouts/_default/baseof.html", Data: []byte(`<!DOCTYPE html>
<html lang="{{ .Language.Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} | {{ .Site.Title }}</title>
{{ with .Description }}<meta name="description" content="{{ . }}">{{ end }}
<link rel="canonical" href="{{ .Permalink }}">
{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">
{{ end -}}
<link rel="stylesheet" href="{{ "css/chroma.css" | relURL }}">
</head>
<body>
<header>
<a href="{{ .Site.Home.RelPermalink }}">{{ .Site.Title }}</a>
<nav aria-label="language">{{ range .Translations }}<a href="{{ .RelPermalink }}" hreflang="{{ .Language.Lang }}" lang="{{ .Language.Lang }}">{{ .Site.Params.languageName }}</a>{{ end }}</nav>
</header>
<main id="main">
{{ block "main" . }}{{ end }}
</main>
</body>
</html>
`)},
	{Path: "layouts/_default/single.html", Data: []byte(`{{ define "main" }}
<article>
<h1>{{ .Title }}</h1>
<p class="meta"><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2006-01-02" }}</time> · {{ .ReadingTime }} min</p>
{{ with .Params.tags }}<ul class="tags">{{ range . }}<li>{{ . }}</li>{{ end }}</ul>{{ end }}
<aside class="toc">{{ .TableOfContents }}</aside>
<div class="content">
{{ .Content }}
</div>
</article>
<nav class="pager">
{{ with .PrevInSection }}<a rel="prev" href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
{{ with .NextInSection }}<a rel="next" href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
</nav>
{{ $cur := .Params.part }}
{{ with .CurrentSection }}<nav class="series-nav">
<h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<ol>
{{- $pages := .Pages.ByParam "part" }}{{ $n := len $pages }}
{{- range $i, $p := $pages }}{{ $d := sub $p.Params.part $cur }}
{{- if or (le $n 28) (lt $i 2) (ge $i (sub $n 2)) (and (ge $d -7) (le $d 7)) }}
<li{{ if eq $d 0 }} aria-current="page"{{ end }}><a href="{{ $p.RelPermalink }}">{{ $p.Params.part }}. {{ $p.Title }}</a></li>
{{- end }}{{ end }}
</ol>
</nav>{{ end }}
{{ end }}
`)},
	{Path: "layouts/_default/list.html", Data: []byte(`{{ define "main" }}
<h1>{{ .Title }}</h1>
{{ .Content }}
<ol>
{{ range .Pages.ByWeight }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}
</ol>
{{ end }}
`)},
}

// HugoConfig is the hugo.toml of the equivalent Hugo site: languages ja and
// ko with a content folder each, Japanese first and in its own subfolder as
// kakehashi does, chroma with CSS classes, a table of contents of h2–h4,
// no taxonomy pages (kakehashi makes none).
//
// Each language's name is a language parameter the language switcher
// reads (.Site.Params.languageName), the same in every Hugo from 0.111 to
// 0.169: the languageName key and .Language.LanguageName are deprecated
// since 0.158 (for label and .Language.Label, which 0.111 does not have),
// and a deprecation warning on every build would be noise in the
// benchmark.
func (c *Course) HugoConfig() []byte {
	var b strings.Builder
	b.WriteString(`baseURL = "https://example.org/"
defaultContentLanguage = "ja"
defaultContentLanguageInSubdir = true
hasCJKLanguage = true
buildFuture = true
disableKinds = ["taxonomy", "term"]
enableRobotsTXT = true

[markup.highlight]
noClasses = false
codeFences = true
guessSyntax = false

[markup.tableOfContents]
startLevel = 2
endLevel = 4
ordered = false

[markup.goldmark.renderer]
unsafe = false
`)
	names := map[string]string{"ja": "日本語", "ko": "한국어"}
	for i, lang := range langs {
		fmt.Fprintf(&b, "\n[languages.%s]\ncontentDir = %q\ntitle = %s\nweight = %d\n\n[languages.%s.params]\nlanguageName = %s\n",
			lang, "content/"+lang, strconv.Quote(c.series["title"][lang]), i+1, lang, strconv.Quote(names[lang]))
	}
	return []byte(b.String())
}

// HugoFiles returns the files of the equivalent Hugo site: the same pages
// as Content (without the series file, which Hugo does not read, and with
// a section page per language titled as the series), hugo.toml, the layouts, and the highlight stylesheet kakehashi's theme
// would otherwise provide.
func (c *Course) HugoFiles(partsPerLang int) []File {
	var out []File
	for _, f := range c.Content(partsPerLang) {
		if strings.HasPrefix(f.Path, "content/series/") {
			continue
		}
		out = append(out, f)
	}
	for _, lang := range langs {
		// The series index: kakehashi takes its title from the series file.
		out = append(out, File{Path: "content/" + lang + "/" + SeriesID + "/_index.md",
			Data: []byte("---\ntitle: " + strconv.Quote(c.series["title"][lang]) + "\n---\n")})
	}
	out = append(out, File{Path: "hugo.toml", Data: c.HugoConfig()})
	out = append(out, hugoLayouts...)
	out = append(out, File{Path: "static/css/chroma.css", Data: []byte("/* chroma classes; content irrelevant to the benchmark */\n")})
	return out
}

// GenerateHugo writes the same pages as Generate as a Hugo (0.111 and
// later) multilingual site under root on dst.
func (c *Course) GenerateHugo(ctx context.Context, dst afero.Fs, root string, partsPerLang int) error {
	if partsPerLang < 1 {
		return fmt.Errorf("corpus: parts per language must be at least 1, got %d", partsPerLang)
	}
	return writeFiles(ctx, dst, root, c.HugoFiles(partsPerLang))
}
