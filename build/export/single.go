package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// Course is what a single-file course needs: the built site (for the
// stylesheets and scripts) and every page's data.
type Course struct {
	Site  *output.Site
	Pages []*render.Page
	// T returns a UI string in a language.
	T func(lang, key string) string
	// Warn, when set, is told of every image left out of a document
	// (see MaxInlineImage), once for each part showing it.
	Warn func(msg string)
}

// MaxInlineImage is the largest image a single document carries inline:
// a larger one keeps its link, which works only beside a copy of the
// image, and Course.Warn is told of it. A data: URL is a third larger
// than the image and the document is held whole, so an attachment of
// hundreds of megabytes shown as an image would take that memory and
// give a document no browser opens.
const MaxInlineImage = 8 << 20

// singlePart is one part of the single-file course.
type singlePart struct {
	Anchor  string
	Number  int
	Title   string
	Date    string
	Content template.HTML
	TOC     []render.TOCEntry
}

var (
	idAttrRe   = regexp.MustCompile(`\sid="([^"]*)"`)
	hrefAttrRe = regexp.MustCompile(`\shref="([^"]*)"`)
	imgSrcRe   = regexp.MustCompile(`<img src="([^"]*)"`)
	// idrefAttrRe matches the attributes that name elements by their ids,
	// a list of them separated by spaces: a label's for, an output's for,
	// a diagram's or widget's aria-labelledby, and the like.
	idrefAttrRe = regexp.MustCompile(`\s(for|aria-labelledby|aria-describedby|aria-controls|aria-owns|aria-details|aria-errormessage|aria-activedescendant|headers)="([^"]*)"`)
	// urlRefRe matches a reference to an element of the page in an
	// attribute, as a diagram's arrows name their marker.
	urlRefRe = regexp.MustCompile(`url\(#([^)"]*)\)`)
)

// imageTypes are the media types of the images a single document carries
// inline, by file extension.
var imageTypes = map[string]string{".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".svg": "image/svg+xml"}

// inlineImages puts the site's images a part shows, whose URLs are
// relative to its page, into the document as data: URLs: the single file
// has no folder beside it. Other sources stay as they are, and so does an
// image larger than MaxInlineImage, of which warn (when set) is told; no
// more of it than that limit is read.
func inlineImages(html, pageURL string, s *output.Site, warn func(string)) string {
	return imgSrcRe.ReplaceAllStringFunc(html, func(m string) string {
		ref := imgSrcRe.FindStringSubmatch(m)[1]
		if strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") {
			return m
		}
		p, _, _ := strings.Cut(ref, "?")
		p, _, _ = strings.Cut(p, "#")
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
		target := strings.TrimPrefix(path.Join(strings.TrimSuffix(pageURL, "/")+"/", p), "/")
		typ := imageTypes[strings.ToLower(path.Ext(target))]
		if typ == "" {
			return m
		}
		data, size, err := readImage(s, target)
		if err != nil {
			return m
		}
		if data == nil {
			if warn != nil {
				warn(fmt.Sprintf("the image /%s (%s) that %s shows is larger than the %d MB an image may be inside a single-file document: it stays a link to the file, shown only beside a copy of it", target, megabytes(size), pageURL, MaxInlineImage>>20))
			}
			return m
		}
		return `<img src="data:` + typ + ";base64," + base64.StdEncoding.EncodeToString(data) + `"`
	})
}

// readImage reads the site's file p when it holds at most MaxInlineImage
// bytes; for a larger one it returns nil data and its size (-1 when it
// grew past the limit since the build), having read no more than that.
func readImage(s *output.Site, p string) ([]byte, int64, error) {
	rc, size, err := s.Open(p)
	if err != nil {
		return nil, 0, err
	}
	defer rc.Close()
	if size > MaxInlineImage {
		return nil, size, nil
	}
	data, err := io.ReadAll(io.LimitReader(rc, MaxInlineImage+1))
	if err != nil {
		return nil, 0, err
	}
	if len(data) > MaxInlineImage { // grown since the build
		return nil, -1, nil
	}
	return data, int64(len(data)), nil
}

// megabytes writes a size in MB, one decimal; -1 is a size past the
// limit.
func megabytes(n int64) string {
	if n < 0 {
		return fmt.Sprintf("over %d MB", MaxInlineImage>>20)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// SingleFile returns one self-contained HTML document per language holding
// every published part of every series in order, with a table of contents,
// the styles inline (the theme's, the code blocks' and those the parts'
// components declared, render.Page.Styles) and the diagrams inline (they
// are SVG in the content already). Printed from a browser it is a book on A4: the theme's print
// stylesheet (no site chrome, no form controls, link URLs, page numbers in
// the footer), the course's title at the head of every page but the
// first, and each part on a new page.
func SingleFile(c Course) (map[string][]byte, error) {
	printSheet := concat(c.Site, published(c.Pages, printStyle)...)
	js := concat(c.Site, published(c.Pages, mainScript)...)
	out := map[string][]byte{}
	langs := map[string]bool{}
	for _, p := range c.Pages {
		if p.Lang != "" {
			langs[p.Lang] = true
		}
	}
	for lang := range langs {
		var parts []singlePart
		anchors := map[string]string{} // page URL → anchor
		var series *render.Series
		var articles []*render.Page
		for _, p := range c.Pages {
			if p.Lang == lang && p.Kind == render.KindArticle && p.Series != nil {
				articles = append(articles, p)
				series = p.Series
			}
		}
		if series == nil {
			continue
		}
		// Order by the series' part order.
		order := map[string]int{}
		for i, pr := range series.Parts {
			order[pr.URL] = i
		}
		sortPages(articles, order)
		css := concat(c.Site, published(c.Pages, stylesheets(outputs(c.Pages), articles)...)...)
		for _, p := range articles {
			anchors[p.URL] = fmt.Sprintf("part-%d", p.Part)
		}
		for _, p := range articles {
			prefix := fmt.Sprintf("p%d-", p.Part)
			// The document carries no calculator: its widgets show their
			// build-time answers, with no promise of interaction.
			content := shortcodes.StaticWidgets(string(p.Content), c.T(lang, "calc_static"))
			content = inlineImages(localise(content, p.URL, prefix, anchors), p.URL, c.Site, c.Warn)
			date := ""
			if !p.Date.IsZero() {
				date = p.Date.Format(c.T(lang, "date_format"))
			}
			parts = append(parts, singlePart{
				Anchor: anchors[p.URL], Number: p.Part, Title: p.Title, Date: date,
				Content: template.HTML(content), // our own rendered HTML, ids and links adjusted
				TOC:     prefixTOC(p.TOC, prefix),
			})
		}
		var buf bytes.Buffer
		err := singleTmpl.Execute(&buf, map[string]any{
			"Lang": lang, "Title": series.Title, "Parts": parts,
			"CSS": template.CSS(css), "JS": template.JS(js), "CSP": singleCSP(js),
			"TOCLabel": c.T(lang, "toc"), "SingleCSS": template.CSS(singleCSS),
			"PrintCSS": template.CSS(printSheet + singlePrintCSS(series.Title)),
		})
		if err != nil {
			return nil, err
		}
		out[lang] = buf.Bytes()
	}
	return out, nil
}

// The theme's own files a single document carries inline, as its layouts
// link them: the screen stylesheet, the print stylesheet and the script.
const (
	mainStyle  = "/css/main.css"
	printStyle = "/css/print.css"
	mainScript = "/js/main.js"
)

// stylesheets are the site-absolute paths of the stylesheets a document
// holding parts carries, in the order a page links them: the theme's, the
// code blocks' (the highlight stylesheet of outs, the site's generated
// files), and those the parts' components declared, each once, in the
// order the parts first need them.
func stylesheets(outs *render.Outputs, parts []*render.Page) []string {
	list := []string{mainStyle}
	for _, o := range outs.All() {
		if o.Kind == render.OutputHighlight {
			list = append(list, o.Path)
		}
	}
	for _, p := range parts {
		for _, st := range p.Styles {
			if !slices.Contains(list, st) {
				list = append(list, st)
			}
		}
	}
	return list
}

// singleCSP is the single document's Content-Security-Policy: its one
// inline script, named by its hash, and no other (the document carries no
// calculator, its widgets are still pictures, shortcodes.StaticWidgets,
// and nothing it holds may load a script).
func singleCSP(js string) string {
	sum := sha256.Sum256([]byte(js))
	return "script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; object-src 'none'; base-uri 'none'"
}

func concat(s *output.Site, paths ...string) string {
	var b strings.Builder
	for _, p := range paths {
		data, _ := s.Get(p)
		b.Write(data)
		b.WriteByte('\n')
	}
	// A stylesheet or script inside the document must not close its own
	// element early.
	return strings.NewReplacer("</style", `<\/style`, "</script", `<\/script`).Replace(b.String())
}

func sortPages(ps []*render.Page, order map[string]int) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && order[ps[j].URL] < order[ps[j-1].URL]; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

// localise makes one part's HTML live inside the single document: its ids
// get the part's prefix (two parts may both have a "まとめ" heading), and
// so do the references to them (labels' for, aria-labelledby and the
// like, url(#id) in a diagram), its in-page links follow, and links to
// other parts become links to their place in the document.
func localise(html, pageURL, prefix string, anchors map[string]string) string {
	html = idAttrRe.ReplaceAllString(html, ` id="`+prefix+`$1"`)
	html = idrefAttrRe.ReplaceAllStringFunc(html, func(m string) string {
		sub := idrefAttrRe.FindStringSubmatch(m)
		ids := strings.Fields(sub[2])
		for i, id := range ids {
			ids[i] = prefix + id
		}
		return " " + sub[1] + `="` + strings.Join(ids, " ") + `"`
	})
	html = urlRefRe.ReplaceAllString(html, "url(#"+prefix+"$1)")
	return hrefAttrRe.ReplaceAllStringFunc(html, func(m string) string {
		ref := hrefAttrRe.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(ref, "#"):
			return ` href="#` + prefix + ref[1:] + `"`
		case strings.Contains(ref, "://"), strings.HasPrefix(ref, "mailto:"):
			return m
		}
		p, frag, _ := strings.Cut(ref, "#")
		target := path.Join(path.Dir(strings.TrimSuffix(pageURL, "/")+"/x"), p)
		if strings.HasSuffix(p, "/") || p == "" {
			target += "/"
		}
		target = strings.TrimSuffix(target, "index.html")
		if a, ok := anchors[target]; ok {
			if frag != "" {
				var n int
				fmt.Sscanf(a, "part-%d", &n)
				return fmt.Sprintf(` href="#p%d-%s"`, n, frag)
			}
			return ` href="#` + a + `"`
		}
		return m
	})
}

func prefixTOC(es []render.TOCEntry, prefix string) []render.TOCEntry {
	out := make([]render.TOCEntry, len(es))
	for i, e := range es {
		out[i] = render.TOCEntry{Level: e.Level, ID: prefix + e.ID, Text: e.Text, Children: prefixTOC(e.Children, prefix)}
	}
	return out
}

// singleCSS lays out the single document on screen and on paper.
const singleCSS = `
.single-part{break-before:page}
.single-toc{break-after:page}
.single-part>h1{margin-top:0}
@media screen{.single{max-width:46rem;margin:0 auto;padding:1rem}}
.single .anchor,.single .code-copy{display:none}
`

// singlePrintCSS puts the course's title at the head of every printed
// page but the title page.
func singlePrintCSS(title string) string {
	return `
@page{@top-right{content:` + cssString(title) + `;font-size:8pt;color:#555}}
@page:first{@top-right{content:none}}
`
}

// cssString quotes s as a CSS string that cannot end its string, its rule
// or the <style> element it is in.
func cssString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\' || r == '<' || r == '>' || r == '&' || r == '\'' || r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\%x ", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

var singleTmpl = template.Must(template.New("single").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="color-scheme" content="light dark">
<title>{{.Title}}</title>
<style>{{.CSS}}{{.SingleCSS}}</style>
<style media="print">{{.PrintCSS}}</style>
</head>
<body class="kind-single">
<main class="single" id="main">
<h1>{{.Title}}</h1>
<nav class="single-toc" aria-labelledby="single-toc-title">
<h2 id="single-toc-title">{{.TOCLabel}}</h2>
<ol>
{{- range .Parts}}
<li><a href="#{{.Anchor}}">#{{.Number}} {{.Title}}</a>
{{- if .TOC}}<ol>{{range .TOC}}<li><a href="#{{.ID}}">{{.Text}}</a></li>{{end}}</ol>{{end}}</li>
{{- end}}
</ol>
</nav>
{{- range .Parts}}
<article class="single-part article" id="{{.Anchor}}">
<h1>#{{.Number}} {{.Title}}</h1>
{{- with .Date}}<p class="meta">{{.}}</p>{{end}}
<div class="content prose">
{{.Content}}
</div>
</article>
{{- end}}
</main>
<script>{{.JS}}</script>
</body>
</html>
`))
