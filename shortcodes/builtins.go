package shortcodes

import (
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"

	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
	"github.com/kakehashi-dev/kakehashi/shortcodes/diagram"
)

// translator returns a T that asks t first, then i18n's fallback for
// lang (i18n.WithFallback), and at last gives the key itself.
func translator(lang string, t func(string) string) func(string) string {
	t = i18n.WithFallback(lang, t)
	return func(key string) string {
		if s := t(key); s != "" {
			return s
		}
		return key
	}
}

// builtinTemplates are the markup of the built-ins that need no Go logic.
const builtinTemplates = `
{{define "callout"}}<aside class="callout callout-{{.Kind}}" role="note">
<p class="callout-title">{{.Title}}</p>
{{.Inner}}</aside>
{{end}}
{{define "tabs"}}<div class="tabs" data-tabs>
<div class="tabs-list" role="tablist" hidden>
{{- range $i, $t := .Tabs}}
<button type="button" role="tab" id="{{$t.ID}}-tab" aria-controls="{{$t.ID}}" aria-selected="{{if eq $i 0}}true{{else}}false{{end}}" tabindex="{{if eq $i 0}}0{{else}}-1{{end}}">{{$t.Label}}</button>
{{- end}}
</div>
{{range .Tabs}}{{template "tab" .}}{{end}}</div>
{{end}}
{{define "tab"}}<section class="tab-panel" role="tabpanel" id="{{.ID}}" aria-labelledby="{{.ID}}-tab" tabindex="0">
<h4 class="tab-heading">{{.Label}}</h4>
{{.Inner}}</section>
{{end}}
{{define "part"}}{{if .Published}}<a class="part-ref" href="{{.Href}}">#{{.N}} {{.Title}}</a>{{else -}}
<span class="part-ref planned">#{{.N}}{{with .Title}} {{.}}{{end}}<span class="planned-mark">{{.Mark}}</span></span>{{end}}{{end}}
{{define "topology"}}{{if .Caption}}<figure class="diagram">
{{.SVG}}
<figcaption>{{.Caption}}</figcaption>
</figure>{{else}}<div class="diagram">
{{.SVG}}
</div>{{end}}
{{end}}
{{define "quorum-table"}}<table class="quorum-table">
<thead>
<tr><th scope="col">{{.Members}}</th><th scope="col">{{.Quorum}}</th><th scope="col">{{.Tolerance}}</th></tr>
</thead>
<tbody>
{{- range .Rows}}
<tr><td>{{.Members}}</td><td>{{.Quorum}}</td><td>{{.Tolerance}}</td></tr>
{{- end}}
</tbody>
</table>
{{end}}
`

// execFunc executes the named template of the built-ins' set.
type execFunc func(name string, w io.Writer, data any) error

// builtins returns the built-in shortcodes, kakehashi's sharing one
// parsed template set, and Hugo's (hugo_builtins.go).
func builtins() []*Shortcode {
	tmpl := template.Must(template.New("builtins").Parse(builtinTemplates))
	exec := func(name string, w io.Writer, data any) error { return tmpl.ExecuteTemplate(w, name, data) }
	return append([]*Shortcode{
		partShortcode(exec),
		calloutShortcode(exec),
		tabsShortcode(exec),
		tabShortcode(exec),
		topologyShortcode(exec),
		quorumTableShortcode(exec),
		termShortcode(),
	}, hugoBuiltins()...)
}

// partShortcode is the "#N" link as a shortcode, {{< part 7 >}}, with the
// part's title; {{< part series="ckad" n=3 >}} names a part of another
// series (or of the page's own), on any page.
func partShortcode(exec execFunc) *Shortcode {
	return &Shortcode{
		Name: "part",
		Args: []ArgSpec{{Name: "n", Type: Int, Required: true, Position: 1}, {Name: "series", Type: String}},
		Render: func(w io.Writer, c *Context) error {
			n := c.Int("n")
			parts, where := c.Parts, "this series"
			if id := c.String("series"); id != "" {
				if !slices.Contains(c.SeriesIDs, id) {
					if near := diag.Suggest(id, c.SeriesIDs); near != "" {
						c.Report("series %q is not known; did you mean %q?", id, near)
					} else {
						c.Report("series %q is not known (the site's series: %s)", id, seriesList(c.SeriesIDs))
					}
					_, err := fmt.Fprintf(w, "#%d", n)
					return err
				}
				parts = func(n int) (markdown.PartLink, bool) { return c.SeriesParts(id, n) }
				where = fmt.Sprintf("series %q", id)
			}
			if parts == nil {
				c.Report("shortcode \"part\" works only on pages of a series, or with series=\"id\"")
				_, err := fmt.Fprintf(w, "#%d", n)
				return err
			}
			link, ok := parts(n)
			if !ok {
				c.Report("part %d is not in %s", n, where)
				_, err := fmt.Fprintf(w, "#%d", n)
				return err
			}
			return exec("part", w, map[string]any{"N": n, "Href": link.Href, "Title": link.Title,
				"Published": link.Published, "Mark": c.T("planned")})
		},
	}
}

// seriesList names the series ids for a message, "none" when there are
// none.
func seriesList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// calloutShortcode is an aside of kind note, tip, warning or exam.
func calloutShortcode(exec execFunc) *Shortcode {
	return &Shortcode{
		Name: "callout", Inner: true, Block: true,
		Args: []ArgSpec{
			{Name: "kind", Type: String, Default: "note", Position: 1, OneOf: []string{"note", "tip", "warning", "exam"}},
			{Name: "title", Type: String},
		},
		Render: func(w io.Writer, c *Context) error {
			kind := c.String("kind")
			title := c.String("title")
			if title == "" {
				title = c.T("callout_" + kind)
			}
			return exec("callout", w, map[string]any{"Kind": kind, "Title": title, "Inner": c.Inner()})
		},
	}
}

// TabsScriptPath is the script that makes tabs' panels a tab list.
const TabsScriptPath = "/js/tabs.js"

// tabsShortcode is a tab list over its tab children; its script shows
// the list and switches the panels (without it every panel shows, each
// under its heading).
func tabsShortcode(exec execFunc) *Shortcode {
	return &Shortcode{
		Name: "tabs", Inner: true, Block: true, OnlyChild: "tab",
		Assets: Assets{Scripts: []string{TabsScriptPath}},
		Render: func(w io.Writer, c *Context) error {
			base := c.ID("tabs")
			var tabs []map[string]any
			for i, it := range c.Items() {
				label, _ := it.Args["label"].(string)
				tabs = append(tabs, map[string]any{"ID": fmt.Sprintf("%s-%d", base, i+1), "Label": label, "Inner": it.Inner})
			}
			return exec("tabs", w, map[string]any{"Tabs": tabs})
		},
	}
}

// tabShortcode is one panel of tabs.
func tabShortcode(exec execFunc) *Shortcode {
	return &Shortcode{
		Name: "tab", Inner: true, Block: true, Parent: "tabs",
		Args: []ArgSpec{{Name: "label", Type: String, Required: true, Position: 1}},
		Render: func(w io.Writer, c *Context) error {
			// A tab outside tabs (already reported) still shows its content.
			return exec("tab", w, map[string]any{"ID": c.ID("tab"), "Label": c.String("label"), "Inner": c.Inner()})
		},
	}
}

// topologyShortcode is an SVG diagram of an HA cluster (shortcodes/diagram).
func topologyShortcode(exec execFunc) *Shortcode {
	return &Shortcode{
		Name: "topology", Block: true,
		Args: []ArgSpec{
			{Name: "type", Type: String, Default: diagram.Stacked, OneOf: []string{diagram.Stacked, diagram.External}},
			{Name: "controlPlanes", Type: Int, Default: int64(3)},
			{Name: "etcd", Type: Int},
			{Name: "workers", Type: Int},
			{Name: "endpoint", Type: String, Default: diagram.EndpointLB, OneOf: []string{diagram.EndpointLB, diagram.EndpointNode}},
			{Name: "endpointAddr", Type: String},
			{Name: "down", Type: String},
			{Name: "addrs", Type: String},
			{Name: "oldAddrs", Type: String},
			{Name: "idPrefix", Type: String},
			{Name: "caption", Type: String},
		},
		Render: func(w io.Writer, c *Context) error {
			args := map[string]string{}
			for k, v := range c.Args {
				if k != "caption" {
					args[k] = fmt.Sprint(v)
				}
			}
			if c.Args["type"] == diagram.External {
				if _, ok := c.Args["etcd"]; !ok {
					args["etcd"] = "3"
				}
			}
			spec, err := diagram.ParseSpec(args)
			if err == nil {
				labels := diagram.Labels{Lang: c.Lang, T: c.T}
				var svg string
				spec.NoStyle = !c.First("topology-style")
				if svg, err = diagram.Topology(spec, labels); err == nil {
					return exec("topology", w, map[string]any{"SVG": template.HTML(svg), "Caption": c.String("caption")})
				}
			}
			if u, ok := err.(interface{ Unwrap() []error }); ok {
				for _, e := range u.Unwrap() {
					c.Report("topology: %v", e)
				}
			} else {
				c.Report("topology: %v", err)
			}
			return nil
		},
	}
}

// quorumTableShortcode is the table of quorum and failures tolerated per member count.
func quorumTableShortcode(exec execFunc) *Shortcode {
	return &Shortcode{
		Name: "quorum-table", Block: true,
		Args: []ArgSpec{
			{Name: "max", Type: Int, Default: int64(7), Position: 1},
			{Name: "min", Type: Int, Default: int64(1)},
		},
		Render: func(w io.Writer, c *Context) error {
			lo, hi := c.Int("min"), c.Int("max")
			if lo < 1 || hi < lo || hi > 99 {
				c.Report("quorum-table needs 1 <= min <= max <= 99, got min=%d max=%d", lo, hi)
				return nil
			}
			var rows []calc.QuorumResult
			for n := lo; n <= hi; n++ {
				q, err := calc.Quorum(n, 0)
				if err != nil {
					return err
				}
				rows = append(rows, q)
			}
			return exec("quorum-table", w, map[string]any{"Rows": rows,
				"Members": c.T("quorum_members"), "Quorum": c.T("quorum_quorum"), "Tolerance": c.T("quorum_tolerance")})
		},
	}
}
