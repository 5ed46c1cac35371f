package render

import (
	"bytes"
	htmltemplate "html/template"

	"github.com/kakehashi-dev/kakehashi/build/site"
)

// aliasTemplate is the page left at a page's old URL: a redirect that
// works without JavaScript and from file://, a canonical link for search
// engines, and a plain link for everyone else. It runs no script at all,
// and its policy says so.
var aliasTemplate = htmltemplate.Must(htmltemplate.New("alias").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="script-src 'none'; object-src 'none'; base-uri 'none'">
<title>{{.Title}}</title>
<meta name="robots" content="noindex">
<link rel="canonical" href="{{.Canonical}}">
<meta http-equiv="refresh" content="{{.Refresh}}">
</head>
<body>
<p><a href="{{.Href}}">{{.Title}}</a></p>
</body>
</html>
`))

// Alias returns the redirect page written at the site-absolute URL from
// (an alias) to the page target: its refresh and its link relative to
// from (naming index.html with site.ExplicitIndex, for an export), its
// canonical link the target's absolute URL.
func Alias(site *Site, from string, target *Page) []byte {
	href := Link(from, target.URL, site.ExplicitIndex)
	var b bytes.Buffer
	// The refresh's URL is ours, made of checked segments: as an attribute
	// value it needs only the HTML escaping html/template gives it.
	err := aliasTemplate.Execute(&b, map[string]any{
		"Lang":      target.Lang,
		"Title":     target.Title,
		"Canonical": Abs(site.BaseURL, target.URL),
		"Refresh":   "0; url=" + href,
		"Href":      href,
	})
	if err != nil {
		return nil // the template and its data cannot fail
	}
	return b.Bytes()
}

// Aliases are the redirect pages of st's aliases (Alias), each to its
// page, whose template data is pages[i] for st.Pages[i].
func Aliases(data *Site, st *site.Site, pages []*Page) []StaticFile {
	index := make(map[*site.Page]int, len(st.Pages))
	for i, p := range st.Pages {
		index[p] = i
	}
	out := make([]StaticFile, len(st.Aliases))
	for i, a := range st.Aliases {
		out[i] = StaticFile{Path: a.OutPath(), Data: Alias(data, a.URL, pages[index[a.Page]])}
	}
	return out
}
