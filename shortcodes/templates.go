package shortcodes

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/spf13/afero"
)

// TemplateData is what a site shortcode template executes with.
type TemplateData struct {
	Name     string
	Args     map[string]any // named arguments: string, int64, float64 or bool
	Pos      []any          // positional arguments
	Inner    template.HTML  // the rendered inner content of a pair
	Markdown bool           // called with {{% %}}
	Lang     string
	Page     any // the page's environment Values["page"]
}

// templateErr matches "template: NAME:LINE:[COL:] message".
var templateErr = regexp.MustCompile(`^template: [^:]*:(\d+):(?:(\d+):)? ?(.*)$`)

// LoadTemplates defines a site shortcode for every dir/NAME.html in fsys,
// an html/template executed with TemplateData and a T function giving the
// page's UI strings. A template that mentions .Inner takes inner content
// (it is used as a pair). A template named like a built-in replaces it;
// the names so overridden are returned, sorted. A missing dir is no error.
func (r *Registry) LoadTemplates(fsys afero.Fs, dir string) ([]string, diag.List) {
	infos, err := afero.ReadDir(fsys, dir)
	if err != nil {
		if ok, _ := afero.DirExists(fsys, dir); !ok {
			return nil, nil
		}
		return nil, diag.List{diag.File(dir, "reading shortcode templates: %v", err)}
	}
	var overridden []string
	var errs diag.List
	for _, fi := range infos {
		if fi.IsDir() || !strings.HasSuffix(fi.Name(), ".html") {
			continue
		}
		p := path.Join(dir, fi.Name())
		name := strings.TrimSuffix(fi.Name(), ".html")
		src, err := afero.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, diag.File(p, "reading shortcode template: %v", err))
			continue
		}
		if !isIdent(name) {
			errs = append(errs, diag.File(p, "%q is not a valid shortcode name: use letters, digits, \"-\" and \"_\"", name))
			continue
		}
		t, err := template.New(fi.Name()).Funcs(template.FuncMap{"T": func(string) string { return "" }}).Parse(string(src))
		if err != nil {
			errs = append(errs, templateDiag(p, src, err))
			continue
		}
		s := &Shortcode{Name: name, AnyArgs: true, Inner: bytes.Contains(src, []byte(".Inner")), Source: p}
		s.Render = templateRender(t, p)
		if r.Add(s) {
			overridden = append(overridden, name)
		}
	}
	sort.Strings(overridden)
	return overridden, errs
}

// templateDiag places a template parse error at its line in the file.
func templateDiag(p string, src []byte, err error) diag.Diagnostic {
	m := templateErr.FindStringSubmatch(err.Error())
	if m == nil {
		return diag.File(p, "%v", err)
	}
	line, _ := strconv.Atoi(m[1])
	col := 1
	if m[2] != "" {
		col, _ = strconv.Atoi(m[2])
	}
	return diag.AtLine(p, src, line, col, "%s", m[3])
}

// templateRender returns the RenderFunc of a site template.
func templateRender(t *template.Template, p string) RenderFunc {
	return func(w io.Writer, c *Context) error {
		ct, err := t.Clone()
		if err != nil {
			return err
		}
		ct.Funcs(template.FuncMap{"T": c.T})
		data := TemplateData{Name: c.Call.Name, Args: c.Args, Pos: c.Positional, Inner: c.Inner(),
			Markdown: c.Call.Markdown, Lang: c.Lang, Page: c.Page}
		var buf bytes.Buffer
		if err := ct.Execute(&buf, data); err != nil {
			msg := err.Error()
			if m := templateErr.FindStringSubmatch(msg); m != nil {
				msg = fmt.Sprintf("%s:%s: %s", p, m[1], m[3])
			}
			c.Report("shortcode %q: %s", c.Call.Name, msg)
			return nil
		}
		_, err = w.Write(buf.Bytes())
		return err
	}
}
