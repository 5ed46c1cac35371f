package shortcodes

import (
	"encoding/json"
	"html/template"
	"regexp"
	"strings"

	"github.com/kakehashi-dev/kakehashi/shortcodes/calc"
)

// Site paths of the calculator assets the build writes.
const (
	CalcWasmPath     = "/calc/calc.wasm"
	CalcX509WasmPath = "/calc/calc-x509.wasm"
	WasmExecPath     = "/js/wasm_exec.js"
	CalcScriptPath   = "/js/calc.js"
	CalcStylePath    = "/css/calc.css"
)

// widgetTemplates are the markup the three calculators share; each
// widget's own (quorumTemplate, sanTemplate, haSimTemplate) follows it in
// one template set. Every value comes from the page's UI strings, the
// calculators or the shortcode's arguments and is escaped by html/template.
//
// Until calc.js has its module running, a widget shows its build-time
// answers with a note: with scripting on, that the calculator is loading
// (calc_loading, a live region, hidden by calc.css where scripting is off
// and on paper; calc.js says calc_load_failed in it if the module cannot
// run); with scripting off, the <noscript> that JavaScript is needed to try
// other values (calc_noscript). StaticWidgets makes the widgets of a copy
// that runs no calculator script say neither.
const widgetTemplates = `
{{define "root"}} data-calc="{{.Kind}}" id="{{.ID}}" lang="{{.Lang}}" aria-labelledby="{{.ID}}-title" data-input="{{.Input}}" data-text="{{.Text}}"
{{- end}}
{{define "head"}}<p class="calc-title" id="{{.ID}}-title">{{.Title}}</p>
<p class="calc-static" data-static><span class="calc-loading" data-loading role="status">{{.Loading}}</span><noscript>{{.NoScript}}</noscript></p>
{{end}}
{{define "error"}}<p class="calc-error" id="{{.ID}}-error" data-out="error" role="alert"{{if not .Error}} hidden{{end}}>{{.Error}}</p>{{end}}
{{define "notes"}}<ul class="calc-notes" data-out="{{.Name}}">
{{- range .Items}}
<li data-code="{{.Code}}">{{.Text}}</li>
{{- end}}
</ul>{{end}}

`

// note is one advice, warning or reason line.
type note struct{ Code, Text string }

// noteList is a list of notes and the data-out name JS fills it by.
type noteList struct {
	Name  string
	Items []note
}

// option is one <option> of a select.
type option struct {
	Value, Label string
	Selected     bool
}

// widgets renders the calculator widgets; it holds the parsed templates.
type widgets struct {
	tmpl *template.Template
}

func newWidgets() *widgets {
	all := widgetTemplates + quorumTemplate + sanTemplate + haSimTemplate
	return &widgets{tmpl: template.Must(template.New("widgets").Parse(all))}
}

// shortcodes returns the quorum, san and ha-sim shortcodes, each needing
// the calculators' stylesheet and script (CalcAssets).
func (wd *widgets) shortcodes() []*Shortcode {
	out := []*Shortcode{wd.quorumShortcode(), wd.sanShortcode(), wd.haSimShortcode()}
	for _, s := range out {
		s.Assets = CalcAssets()
	}
	return out
}

// CalcAssets are what a page holding a calculator widget links: calc.css
// and calc.js, which loads the calculators' modules.
func CalcAssets() Assets {
	return Assets{Styles: []string{CalcStylePath}, Scripts: []string{CalcScriptPath}}
}

// root is what every widget's root element carries.
type root struct {
	Kind, ID, Lang, Title string
	Loading, NoScript     string // the note until the module runs
	Input, Text           string // JSON
	Error                 string
	L                     map[string]string
}

// newRoot fills the common part of a widget; keys are the UI strings (after
// the "calc_" prefix) the markup and calc.js need, and other pairs a name
// the markup and calc.js know a UI string by, then its whole key. An input
// error's field is known by its label: the UI string named as the field
// (calc.InputError.Key).
func newRoot(c *Context, kind, title string, input any, keys []string, other ...string) (root, error) {
	r := root{Kind: kind, ID: c.ID("calc-" + kind), Lang: c.Lang, L: map[string]string{}}
	// What every widget's calc.js needs: how an input error reads with its
	// field's label, and the note when the module cannot run.
	r.L["field_error"], r.L["load_failed"] = c.T("calc_field_error"), c.T("calc_load_failed")
	for _, k := range keys {
		r.L[k] = c.T("calc_" + k)
	}
	for i := 0; i+1 < len(other); i += 2 {
		r.L[other[i]] = c.T(other[i+1])
	}
	r.Title = c.T(title)
	r.Loading, r.NoScript = c.T("calc_loading"), c.T("calc_noscript")
	in, err := json.Marshal(input)
	if err != nil {
		return r, err
	}
	text, err := json.Marshal(r.L)
	if err != nil {
		return r, err
	}
	r.Input, r.Text = string(in), string(text)
	return r, nil
}

// fill replaces {name} placeholders in s with the values of kv.
func fill(s string, kv ...string) string {
	for i := 0; i+1 < len(kv); i += 2 {
		s = strings.ReplaceAll(s, "{"+kv[i]+"}", kv[i+1])
	}
	return s
}

func notes(name string, rs []calc.Reason, lang string) noteList {
	l := noteList{Name: name}
	for _, r := range rs {
		l.Items = append(l.Items, note{Code: r.Code, Text: r.Text(lang)})
	}
	return l
}

// inputErrorText is the English text of a calculator error, naming the
// field as the shortcode's arguments do: what the author is told.
func inputErrorText(err error) string {
	if e, ok := err.(*calc.InputError); ok {
		return e.Text("en")
	}
	return err.Error()
}

// fieldError is the text of a calculator error a reader sees, in the
// widget's language: the field's visible label, then what to enter.
func (r root) fieldError(err error) string {
	if e, ok := err.(*calc.InputError); ok {
		return e.FieldText(r.Lang, r.L[e.Key()], r.L["field_error"])
	}
	return err.Error()
}

// mark prefixes a verdict with a sign, so it does not rest on colour.
func mark(ok bool, yes, no string) string {
	if ok {
		return "✓ " + yes
	}
	return "✗ " + no
}

// The parts of a widget's markup only a page that runs calc.js uses.
var (
	staticForm    = regexp.MustCompile(`(?s)<form class="calc-form" data-form>.*?</form>\n?`)
	staticHint    = regexp.MustCompile(`<p class="calc-hint" id="[^"]*">[^<]*</p>\n?`)
	staticHintRef = regexp.MustCompile(` aria-describedby="[^"]*-hint"`)
	staticNote    = regexp.MustCompile(`<p class="calc-static" data-static>.*?</p>`)
	staticFor     = regexp.MustCompile(`(<output class="calc-status") for="[^"]*"`)
	staticButton  = regexp.MustCompile(`<g data-node="([^"]*)" tabindex="0" role="button" aria-pressed="(?:true|false)" aria-label="[^"]*">`)
	staticGroup   = regexp.MustCompile(`(<div class="diagram calc-diagram"[^>]*>\s*<svg [^>]*?)role="group"`)
	staticData    = regexp.MustCompile(` data-(?:input|text|down-label)="[^"]*"`)
)

// StaticWidgets returns html, rendered content, with each calculator
// widget a still picture of its build-time answers, for a copy that runs
// no calculator script (the single-file course, which ships none): no
// form, hint or loading note, no word of JavaScript, no focusable node in
// a simulator's drawing (it becomes an image, as a topology's is), no
// data for calc.js; the note says only that the answers are computed from
// the starting values (static, the UI string calc_static in the content's
// language). Content without widgets comes back unchanged.
func StaticWidgets(html, static string) string {
	if !strings.Contains(html, ` data-calc="`) {
		return html
	}
	html = staticForm.ReplaceAllString(html, "")
	html = staticHint.ReplaceAllString(html, "")
	html = staticHintRef.ReplaceAllString(html, "")
	note := `<p class="calc-static">` + template.HTMLEscapeString(static) + `</p>`
	html = staticNote.ReplaceAllLiteralString(html, note)
	html = staticFor.ReplaceAllString(html, "$1")
	html = staticButton.ReplaceAllString(html, `<g data-node="$1">`)
	html = staticGroup.ReplaceAllString(html, `${1}role="img"`)
	return staticData.ReplaceAllString(html, "")
}
