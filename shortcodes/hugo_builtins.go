package shortcodes

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark"
	gmext "github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/util"
)

// Hugo's built-in shortcodes, with Hugo's arguments, as Hugo v0.169.0
// has them (tpl/tplimpl/embedded/templates/_shortcodes/): details,
// figure, highlight, youtube and comment; ref, relref and param, which
// take what they show from the page's environment, are in hugo_refs.go.
// Where kakehashi's own details
// and figure took other arguments, they take both. What differs from
// Hugo, by design:
//
//   - details and figure keep kakehashi's classes (details, figure)
//     beside the one given; a figure with a caption alone writes it in
//     its <figcaption> without Hugo's <p>.
//   - figure takes its image as a markdown image does (checked, sized,
//     lazy but the page's first), and warns of an image without alt
//     text: neither alt nor a caption, whose text is the alt text then,
//     as in Hugo.
//   - highlight makes the same figure as a fenced block (copy button,
//     line numbers), as the page's code blocks are; with hl_inline=true,
//     a code span without colours, warned of.
//   - comment is warned of at each call, as Hugo warns (deprecated).
//   - youtube embeds youtube-nocookie.com (Hugo's privacy-enhanced
//     mode, which Hugo leaves off by default), sizes the player with a
//     stylesheet (video.css) instead of inline styles, and adds a link
//     to the video on YouTube, for a reader whose page cannot play it
//     (from file://, or printed).
//   - an argument takes what Hugo's template takes (HugoBool, HugoInt,
//     HugoString): a flag true, false, 1 or 0, quoted or not (another
//     value keeps its default, as in Hugo, but with a warning), a number
//     or a string of one (width="600"), any value as text (title=2024);
//     a number that is no integer (width="50%") is an error, where
//     Hugo writes it as given. kakehashi's own shortcodes keep strict
//     types.

// hugoTemplates are the markup of Hugo's built-ins.
const hugoTemplates = `
{{define "details"}}<details class="details{{with .Class}} {{.}}{{end}}"{{with .Name}} name="{{.}}"{{end}}{{if .Open}} open{{end}}{{with .Title}} title="{{.}}"{{end}}>
<summary>{{.Summary}}</summary>
{{.Inner}}</details>
{{end}}
{{define "figure"}}<figure class="figure{{with .Class}} {{.}}{{end}}">
{{if .Link}}<a href="{{.Link}}"{{with .Target}} target="{{.}}"{{end}}{{with .Rel}} rel="{{.}}"{{end}}>{{end -}}
<img src="{{.Src}}" alt="{{.Alt}}"{{with .Width}} width="{{.}}"{{end}}{{with .Height}} height="{{.}}"{{end}}{{if .Lazy}} loading="lazy" decoding="async"{{end}}>
{{- if .Link}}</a>{{end}}
{{- if or .Title .Attr}}
<figcaption>{{with .Title}}<h4>{{.}}</h4>{{end}}
{{- if or .Caption .Attr}}<p>{{.Caption}}{{if and .Caption .Attr}} {{end}}
{{- if .AttrLink}}<a href="{{.AttrLink}}">{{.Attr}}</a>{{else}}{{.Attr}}{{end}}</p>{{end}}</figcaption>
{{- else if .Caption}}
<figcaption>{{.Caption}}</figcaption>{{end}}
</figure>
{{end}}
{{define "youtube"}}<div class="video{{with .Class}} {{.}}{{end}}">
<iframe src="{{.Src}}" title="{{.Title}}" allow="{{.Allow}}" referrerpolicy="strict-origin-when-cross-origin" loading="{{.Loading}}"{{if .FullScreen}} allowfullscreen{{end}}></iframe>
<a class="video-link" href="{{.Watch}}">{{.Link}}</a>
</div>
{{end}}
{{define "highlight"}}<pre><code>{{.}}</code></pre>
{{end}}
{{define "highlight-inline"}}<code class="code-inline{{with .Lang}} language-{{.}}{{end}}">{{.Code}}</code>{{end}}
`

// VideoStylePath is the stylesheet of the youtube shortcode's player.
const VideoStylePath = "/css/video.css"

// hugoKit is what Hugo's built-ins share: their templates, and the
// markdown renderer of the arguments Hugo renders as markdown (a
// figure's caption, a details' summary).
type hugoKit struct {
	tmpl *template.Template
	md   goldmark.Markdown
}

// hugoBuiltins returns Hugo's built-in shortcodes.
func hugoBuiltins() []*Shortcode {
	k := &hugoKit{
		tmpl: template.Must(template.New("hugo").Parse(hugoTemplates)),
		// Safe mode, as the pages': raw HTML is omitted, and a link to a
		// javascript: URL loses it.
		md: goldmark.New(goldmark.WithExtensions(gmext.Strikethrough, gmext.Linkify)),
	}
	return append([]*Shortcode{
		k.details(), k.figure(), k.highlight(), k.youtube(), comment(),
	}, hugoRefs()...)
}

// exec executes the named template of the kit.
func (k *hugoKit) exec(name string, w io.Writer, data any) error {
	return k.tmpl.ExecuteTemplate(w, name, data)
}

// markdownify renders s as Hugo's markdownify does: markdown, one
// paragraph's worth of it without its <p>. Text without markdown is
// escaped as the templates escape text, as it was before captions were
// markdown.
func (k *hugoKit) markdownify(s string) template.HTML {
	if s == "" {
		return ""
	}
	var b bytes.Buffer
	if err := k.md.Convert([]byte(s), &b); err != nil {
		return template.HTML(template.HTMLEscapeString(s))
	}
	h := strings.TrimSpace(b.String())
	if inner, ok := strings.CutPrefix(h, "<p>"); ok && strings.HasSuffix(inner, "</p>") && !strings.Contains(inner, "<p>") {
		h = strings.TrimSuffix(inner, "</p>")
	}
	if h == string(util.EscapeHTML([]byte(strings.TrimSpace(s)))) {
		return template.HTML(template.HTMLEscapeString(s))
	}
	return template.HTML(h) // goldmark's, in safe mode
}

// tags matches an HTML tag, for plainify.
var tags = regexp.MustCompile(`<[^>]*>`)

// plainify is the text of HTML, as Hugo's plainify gives it.
func plainify(h template.HTML) string {
	return html.UnescapeString(tags.ReplaceAllString(string(h), ""))
}

// details is a <details> disclosure: Hugo's (summary, open, class, name,
// title; the summary markdown, by default the UI string details_summary),
// which is kakehashi's too (its summary may be given first, by position).
func (k *hugoKit) details() *Shortcode {
	return &Shortcode{
		Name: "details", Inner: true, Block: true,
		Args: []ArgSpec{
			{Name: "summary", Type: HugoString, Position: 1},
			{Name: "open", Type: HugoBool, Default: false},
			{Name: "class", Type: HugoString},
			{Name: "name", Type: HugoString},
			{Name: "title", Type: HugoString},
		},
		Render: func(w io.Writer, c *Context) error {
			summary := k.markdownify(c.String("summary"))
			if _, given := c.Args["summary"]; !given {
				summary = template.HTML(template.HTMLEscapeString(c.T("details_summary")))
			}
			return k.exec("details", w, map[string]any{"Summary": summary, "Open": c.Bool("open"),
				"Class": c.String("class"), "Name": c.String("name"), "Title": c.String("title"), "Inner": c.Inner()})
		},
	}
}

// figure is an image with its caption: Hugo's arguments (src, alt,
// caption and attr in markdown, title, link, target, rel, attrlink,
// width, height, loading, class). Without alt, the caption's text is
// the image's alt text, as in Hugo.
func (k *hugoKit) figure() *Shortcode {
	return &Shortcode{
		Name: "figure", Block: true,
		Args: []ArgSpec{
			{Name: "src", Type: HugoString, Required: true},
			{Name: "alt", Type: HugoString},
			{Name: "caption", Type: HugoString},
			{Name: "width", Type: HugoInt},
			{Name: "height", Type: HugoInt},
			{Name: "title", Type: HugoString},
			{Name: "link", Type: HugoString},
			{Name: "target", Type: HugoString},
			{Name: "rel", Type: HugoString},
			{Name: "attr", Type: HugoString},
			{Name: "attrlink", Type: HugoString},
			{Name: "loading", Type: HugoString, OneOf: []string{"lazy", "eager"}},
			{Name: "class", Type: HugoString},
		},
		ImageArg: "src", AltArg: "alt", Alt: k.figureAlt,
		Render: func(w io.Writer, c *Context) error {
			src, width, height, lazy := c.String("src"), c.Int("width"), c.Int("height"), true
			if img, ok := c.Image(); ok {
				src, lazy = img.URL, img.Lazy
				if width == 0 && height == 0 {
					width, height = img.Width, img.Height
				}
			}
			switch c.String("loading") {
			case "lazy":
				lazy = true
			case "eager":
				lazy = false
			}
			caption := k.markdownify(c.String("caption"))
			alt := k.figureAlt(c.Args)
			return k.exec("figure", w, map[string]any{"Src": src, "Alt": alt,
				"Caption": caption, "Width": width, "Height": height, "Lazy": lazy,
				"Title": c.String("title"), "Link": c.String("link"), "Target": c.String("target"), "Rel": c.String("rel"),
				"Attr": k.markdownify(c.String("attr")), "AttrLink": c.String("attrlink"), "Class": c.String("class")})
		},
	}
}

// figureAlt is the alt text of a figure's image, its arguments args:
// its alt, else its caption's text, as Hugo's figure has it (the
// caption's markdown rendered, then its tags taken out).
func (k *hugoKit) figureAlt(args map[string]any) string {
	if alt, _ := args["alt"].(string); alt != "" {
		return alt
	}
	caption, _ := args["caption"].(string)
	return plainify(k.markdownify(caption))
}

// highlight is a code block of its inner text, {{< highlight go
// "linenos=table,hl_lines=2 5-7" >}}: the language, then Hugo's
// highlighting options, which a fence's attributes take too. Its inner
// text is the code as written (RawInner): no markdown is read in it,
// and a shortcode call in it is shown as written, as in code. The
// markdown stage makes the call a code figure (markdown.CodeSource,
// Block.CodeSpec); rendered, it is plain preformatted text.
func (k *hugoKit) highlight() *Shortcode {
	return &Shortcode{
		Name: "highlight", Inner: true, RawInner: true, Block: true,
		Args: []ArgSpec{
			{Name: "lang", Type: HugoString, Position: 1},
			{Name: "options", Type: HugoString, Position: 2},
		},
		InlineIf: func(args map[string]any) (bool, string) {
			if !hlInline(args) {
				return false, ""
			}
			return true, "highlight with hl_inline=true is a code span here, as in Hugo, but without colours: kakehashi colours the code of code blocks only"
		},
		Render: func(w io.Writer, c *Context) error {
			if hlInline(c.Args) {
				lang := c.String("lang")
				return k.exec("highlight-inline", w, map[string]string{"Lang": lang, "Code": strings.Trim(c.Call.Inner, "\r\n")})
			}
			return k.exec("highlight", w, highlightCode(c.Call, nil))
		},
	}
}

// hlInline reports whether a highlight's options, args["options"], hold
// Hugo's hl_inline=true (a code span, not a block).
func hlInline(args map[string]any) bool {
	opts, _ := args["options"].(string)
	for _, o := range strings.Split(opts, ",") {
		k, v, _ := strings.Cut(o, "=")
		if strings.EqualFold(strings.TrimSpace(k), "hl_inline") {
			b, ok := hugoBool(Value{Kind: String, Str: strings.TrimSpace(v)})
			return b && ok
		}
	}
	return false
}

var _ markdown.CodeSource = (*Block)(nil)

// CodeSpec implements markdown.CodeSource: a call of the built-in
// highlight is the code block of its inner text, deindented by the
// indentation of its opening tag and without the line breaks around it,
// as Hugo's .InnerDeindent and trim make it. Its arguments, when they
// had errors (reported), are those that had none.
func (n *Block) CodeSpec(src []byte) (markdown.CodeSpec, bool) {
	if n.spec == nil || n.spec.Name != "highlight" || n.spec.Source != "" || !n.call.Paired {
		return markdown.CodeSpec{}, false
	}
	spec := markdown.CodeSpec{Code: highlightCode(&n.call, src)}
	spec.Lang, _ = n.args["lang"].(string)
	spec.Options, _ = n.args["options"].(string)
	nth := 0 // positional arguments so far
	for _, a := range n.call.Args {
		if a.Name == "" {
			nth++
		}
		if a.Name == "options" || a.Name == "" && nth == 2 {
			spec.OptionsOff = a.Pos
			if a.Pos < len(src) && (src[a.Pos] == '"' || src[a.Pos] == '`') {
				spec.OptionsOff++
			}
		}
	}
	return spec, true
}

// highlightCode is the code of a highlight call: its inner text less the
// indentation of its opening tag's line (as read in src; none without
// src) on each line, and less the line breaks it starts and ends with.
func highlightCode(c *Call, src []byte) string {
	indent := ""
	if src != nil && c.Pos <= len(src) {
		start := bytes.LastIndexByte(src[:c.Pos], '\n') + 1
		if pre := src[start:c.Pos]; len(bytes.TrimLeft(pre, " \t")) == 0 {
			indent = string(pre)
		}
	}
	code := c.Inner
	if indent != "" {
		lines := strings.SplitAfter(code, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(l, indent)
		}
		code = strings.Join(lines, "")
	}
	return strings.Trim(code, "\r\n")
}

// youtube embeds a YouTube video: Hugo's arguments (id, by position or
// name; title, start, end, autoplay, loop, mute, controls,
// allowFullScreen, class, loading), from youtube-nocookie.com, with a
// link to the video for a reader whose page cannot play it.
func (k *hugoKit) youtube() *Shortcode {
	return &Shortcode{
		Name: "youtube", Block: true,
		Args: []ArgSpec{
			{Name: "id", Type: HugoString, Required: true, Position: 1},
			{Name: "title", Type: HugoString},
			{Name: "start", Type: HugoInt},
			{Name: "end", Type: HugoInt},
			{Name: "autoplay", Type: HugoBool, Default: false},
			{Name: "loop", Type: HugoBool, Default: false},
			{Name: "mute", Type: HugoBool, Default: false},
			{Name: "controls", Type: HugoBool, Default: true},
			{Name: "allowFullScreen", Type: HugoBool, Default: true},
			{Name: "class", Type: HugoString},
			{Name: "loading", Type: HugoString, Default: "eager", OneOf: []string{"eager", "lazy"}},
		},
		Assets: Assets{Styles: []string{VideoStylePath}},
		Render: func(w io.Writer, c *Context) error {
			id := c.String("id")
			if !youtubeID.MatchString(id) {
				c.Report("youtube: %q is no video id: an id is letters, digits, \"-\" and \"_\" (the v= of the video's address)", id)
				return nil
			}
			flag := func(name string) string {
				if c.Bool(name) {
					return "1"
				}
				return "0"
			}
			q := url.Values{}
			q.Set("autoplay", flag("autoplay"))
			q.Set("controls", flag("controls"))
			q.Set("end", strconv.Itoa(c.Int("end")))
			q.Set("loop", flag("loop"))
			q.Set("start", strconv.Itoa(c.Int("start")))
			mute := flag("mute")
			if c.Bool("autoplay") {
				mute = "1" // a browser plays only a muted video unasked
			}
			q.Set("mute", mute)
			if c.Bool("loop") {
				q.Set("playlist", id)
			}
			allow := "accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
			if c.Bool("allowFullScreen") {
				allow += "; fullscreen"
			}
			title := c.String("title")
			if title == "" {
				title = c.T("youtube_title")
			}
			watch := "https://www.youtube.com/watch?v=" + id
			if s := c.Int("start"); s > 0 {
				watch += fmt.Sprintf("&t=%ds", s)
			}
			return k.exec("youtube", w, map[string]any{
				"Src":   "https://www.youtube-nocookie.com/embed/" + id + "?" + q.Encode(),
				"Title": title, "Allow": allow, "Loading": c.String("loading"), "FullScreen": c.Bool("allowFullScreen"),
				"Class": c.String("class"), "Watch": watch, "Link": c.T("youtube_link"),
			})
		},
	}
}

// youtubeID matches a YouTube video id.
var youtubeID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// comment renders nothing of what it holds, {{< comment >}}…{{<
// /comment >}}, in a line or on lines of its own; what it holds is not
// read (RawInner), so an unclosed fence or a call of an unknown
// shortcode may be commented out; its arguments, any, are ignored.
// Hugo v0.143.0 deprecated it for HTML comments, which kakehashi, raw
// HTML being off, leaves out too: each call is warned of, as Hugo warns.
func comment() *Shortcode {
	return &Shortcode{
		Name: "comment", Inner: true, RawInner: true, AnyArgs: true,
		Warning: `the "comment" shortcode was deprecated in Hugo v0.143.0, which will remove it, as Hugo warns: write an HTML comment, <!-- … -->, which kakehashi and Hugo leave out too`,
		Render:  func(io.Writer, *Context) error { return nil },
	}
}
