package shortcodes

import (
	"html/template"
	"io"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// TermCSS is the stylesheet of the term shortcode's tooltip (the theme's,
// shared with the glossary page).
const TermCSS = "/css/glossary.css"

// termTemplate is the term shortcode's markup: a link to the entry on the
// glossary page, its definition in a tooltip the link is described by,
// shown on hover and keyboard focus (CSS), positioned out of the flow so
// that showing it moves nothing.
var termTemplate = template.Must(template.New("term").Parse(
	`<span class="term"><a href="{{.Href}}"{{with .TextLang}} lang="{{.}}"{{end}}{{if .Definition}} aria-describedby="{{.ID}}"{{end}}>{{.Text}}</a>` +
		`{{with .Definition}}<span class="term-tip" role="tooltip" id="{{$.ID}}">{{.}}</span>{{end}}</span>`))

// termShortcode is {{< term id >}}: the glossary's term for id in the
// page's language, linked to its entry on the glossary page, with its
// definition on hover and focus. An id the glossary lacks is an error at
// the call, naming the nearest one.
func termShortcode() *Shortcode {
	return &Shortcode{
		Name:   "term",
		Args:   []ArgSpec{{Name: "id", Type: String, Required: true, Position: 1}},
		Assets: Assets{Styles: []string{TermCSS}},
		Render: func(w io.Writer, c *Context) error {
			id := c.String("id")
			var t markdown.Term
			ok := false
			if c.Term != nil {
				t, ok = c.Term(id)
			}
			if !ok {
				switch near := diag.Suggest(id, c.TermIDs); {
				case c.Term == nil:
					c.Report("term %q: the site has no glossary (content/glossary.yaml)", id)
				case near != "":
					c.Report("term %q is not in the glossary; did you mean %q?", id, near)
				default:
					c.Report("term %q is not in the glossary (its ids: %s)", id, strings.Join(c.TermIDs, ", "))
				}
				template.HTMLEscape(w, []byte(id))
				return nil
			}
			return termTemplate.Execute(w, struct {
				markdown.Term
				ID string
			}{t, c.ID("term-" + id)})
		},
	}
}

// term is the glossary lookup of the document's page; nil without one.
func (d *doc) term() func(string) (markdown.Term, bool) {
	if d.env == nil {
		return nil
	}
	return d.env.Term
}

// termIDs lists the glossary's ids for the document's page.
func (d *doc) termIDs() []string {
	if d.env == nil {
		return nil
	}
	return d.env.TermIDs
}
