package shortcodes

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/template/parse"
	"unicode/utf8"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/spf13/afero"
)

// templateErr matches "template: NAME:LINE:[COL:] message".
var templateErr = regexp.MustCompile(`^template: [^:]*:(\d+):(?:(\d+):)? ?(.*)$`)

// LoadTemplates defines a site shortcode for every NAME.html in the
// folders dirs of fsys, read in order: a template in a later folder
// replaces one of the same name in an earlier (config.Layout.Shortcodes
// lists a site's, its theme's first). Each is an html/template executed
// with a TemplateData, Hugo's shortcode context, and Hugo's functions
// (templateFuncs: T and i18n give the page's UI strings). A template in a
// subfolder is named by its path, as in Hugo: dir/test/hello.html is
// {{< test/hello >}}. A template that mentions .Inner takes inner content
// (it is used as a pair). A template that defines "assets" lists there
// the stylesheets and scripts its HTML needs (Shortcode.Assets),
// site-absolute paths of static files separated by spaces:
//
//	{{define "assets"}}/css/glossary.css /js/glossary.js{{end}}
//
// A template named like a built-in replaces it; the names so overridden
// are returned, sorted, each once. A missing folder is no error.
// A cancelled ctx stops the reading with its error.
func (r *Registry) LoadTemplates(ctx context.Context, fsys afero.Fs, dirs ...string) ([]string, diag.List) {
	var overridden []string
	var errs diag.List
	for _, dir := range dirs {
		names, derrs := r.loadDir(ctx, fsys, dir)
		errs = append(errs, derrs...)
		for _, n := range names {
			if !slices.Contains(overridden, n) {
				overridden = append(overridden, n)
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, errs
		}
	}
	sort.Strings(overridden)
	return overridden, errs
}

// loadDir defines the templates of dir (LoadTemplates), returning the
// built-ins they replace.
func (r *Registry) loadDir(ctx context.Context, fsys afero.Fs, dir string) ([]string, diag.List) {
	if ok, _ := afero.DirExists(fsys, dir); !ok {
		return nil, nil
	}
	var overridden []string
	var errs diag.List
	err := afero.Walk(fsys, dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			errs = append(errs, diag.File(p, "reading shortcode templates: %v", err))
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if fi.IsDir() || !strings.HasSuffix(fi.Name(), ".html") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			errs = append(errs, diag.File(p, "reading shortcode template: %v", err))
			return nil
		}
		p = path.Join(filepath.ToSlash(dir), filepath.ToSlash(rel))
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".html")
		if s, ok := r.loadTemplate(fsys, p, name, fi.Name(), &errs); ok && r.Add(s) {
			overridden = append(overridden, name)
		}
		return nil
	})
	if err != nil {
		return nil, diag.List{diag.File(dir, "reading shortcode templates: %v", err)}
	}
	return overridden, errs
}

// loadTemplate reads the template file p of the shortcode name.
func (r *Registry) loadTemplate(fsys afero.Fs, p, name, file string, errs *diag.List) (*Shortcode, bool) {
	src, err := afero.ReadFile(fsys, p)
	if err != nil {
		*errs = append(*errs, diag.File(p, "reading shortcode template: %v", err))
		return nil, false
	}
	if !validName(name) {
		*errs = append(*errs, diag.File(p, "%q is not a valid shortcode name: use letters, digits, \"-\" and \"_\"", name))
		return nil, false
	}
	t, err := template.New(file).Funcs(templateFuncs{}.funcMap()).Parse(string(src))
	if err != nil {
		*errs = append(*errs, templateDiag(p, src, err))
		return nil, false
	}
	s := &Shortcode{Name: name, AnyArgs: true, Inner: bytes.Contains(src, []byte(".Inner")), Source: p}
	var aerrs diag.List
	s.Assets, aerrs = templateAssets(p, src, t)
	*errs = append(*errs, aerrs...)
	s.Render = templateRender(t, p, src)
	return s, true
}

// assetsTemplate is the template a site shortcode's file defines to list
// the stylesheets and scripts it needs.
const assetsTemplate = "assets"

// templateAssets reads the paths the template t of the file p (src)
// lists in its assetsTemplate: each site-absolute, a stylesheet (.css) or a
// script (.js). Anything else is an error at its place.
func templateAssets(p string, src []byte, t *template.Template) (Assets, diag.List) {
	var a Assets
	at := t.Lookup(assetsTemplate)
	if at == nil || at.Tree == nil || at.Tree.Root == nil {
		return a, nil
	}
	var errs diag.List
	for _, n := range at.Tree.Root.Nodes {
		tn, ok := n.(*parse.TextNode)
		if !ok {
			off := int(n.Position()) // inside the action: point at its "{{"
			if i := bytes.LastIndex(src[:min(off, len(src))], []byte("{{")); i >= 0 {
				off = i
			}
			errs = append(errs, diag.At(p, src, off, "the %q template lists the paths of stylesheets and scripts, without actions", assetsTemplate))
			continue
		}
		off := int(tn.Position())
		for _, f := range strings.Fields(string(tn.Text)) {
			at := off
			if i := bytes.Index(src[min(off, len(src)):], []byte(f)); i >= 0 {
				at = off + i
				off = at + len(f)
			}
			switch {
			case !assetPath(f):
				errs = append(errs, diag.At(p, src, at, "%q is not the site-absolute path of a stylesheet or script (\"/css/%s.css\", \"/js/%s.js\")", f, path.Base(strings.TrimSuffix(p, ".html")), path.Base(strings.TrimSuffix(p, ".html"))))
			case strings.HasSuffix(f, ".css"):
				a.Styles = append(a.Styles, f)
			default:
				a.Scripts = append(a.Scripts, f)
			}
		}
	}
	return a, errs
}

// assetPath reports whether p is a site-absolute, clean path of a .css or
// .js file, with no query or fragment.
func assetPath(p string) bool {
	return strings.HasPrefix(p, "/") && path.Clean(p) == p && !strings.ContainsAny(p, "?#\\") &&
		(strings.HasSuffix(p, ".css") || strings.HasSuffix(p, ".js")) && len(path.Base(p)) > len(path.Ext(p))
}

// templateDiag places a template parse error at its line in the file,
// at the column of what it is about (see TemplateErrorCol).
func templateDiag(p string, src []byte, err error) diag.Diagnostic {
	m := templateErr.FindStringSubmatch(err.Error())
	if m == nil {
		return diag.File(p, "%v", err)
	}
	line, _ := strconv.Atoi(m[1])
	line = TemplateErrorLine(line, m[3])
	col := max(TemplateErrorCol(diag.LineText(src, line), m[3]), 1)
	return diag.AtLine(p, src, line, col, "%s", m[3])
}

// templateRender returns the RenderFunc of a site template: Hugo's
// shortcode template, run with its context (hugoCall.run). Outside the
// extension's rendering (a Context made without a hugoCall), it gets the
// call's arguments and its inner content as rendered.
func templateRender(t *template.Template, p string, src []byte) RenderFunc {
	exec := func(w *bytes.Buffer, data *TemplateData, f templateFuncs) error {
		ct, err := t.Clone()
		if err != nil {
			return err
		}
		ct.Funcs(f.funcMap())
		if err := ct.Execute(w, data); err != nil {
			msg := err.Error()
			if m := templateErr.FindStringSubmatch(msg); m != nil {
				msg = fmt.Sprintf("%s:%s: %s", p, execPlace(src, m[1], m[2]), m[3])
			}
			f.c.Report("shortcode %q: %s", f.c.Call.Name, msg)
			w.Reset()
		}
		return nil
	}
	return func(w io.Writer, c *Context) error {
		var buf bytes.Buffer
		if c.hugo != nil {
			if err := c.hugo.run(&buf, c, exec); err != nil {
				return err
			}
		} else {
			data := &TemplateData{Name: c.Call.Name, Args: c.Args, Pos: c.Positional, Inner: c.Inner(),
				Markdown: c.Call.Markdown, Lang: c.Lang}
			data.Params, data.IsNamedParams = hugoParams(c.Call, true)
			if err := exec(&buf, data, templateFuncs{c: c}); err != nil {
				return err
			}
		}
		_, err := w.Write(buf.Bytes())
		return err
	}
}

// execPlace is "LINE:COL" for an execution error of a template, with the
// column counted in characters: text/template gives the byte offset in
// the line, from 0. Without a column it is the line alone.
func execPlace(src []byte, line, col string) string {
	n, err1 := strconv.Atoi(line)
	b, err2 := strconv.Atoi(col)
	if col == "" || err1 != nil || err2 != nil {
		return line
	}
	lines := strings.SplitN(string(src), "\n", n+1)
	if n < 1 || n > len(lines) {
		return line
	}
	text := lines[n-1]
	b = min(max(b, 0), len(text))
	return fmt.Sprintf("%d:%d", n, utf8.RuneCountInString(text[:b])+1)
}

var (
	// tmplQuoted is a quoted token in a text/template error: "foo", '<'.
	tmplQuoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)+'`)
	// tmplKeyword names the action a text/template error is about.
	tmplKeyword = regexp.MustCompile(`unexpected \{\{(\w+)\}\}|missing value for (\w+)|in (\w+) clause|declarations in (\w+)`)
)

// unclosedAt finds where an unclosed action began in a text/template
// parse error, which names the end of the file as its line.
var unclosedAt = regexp.MustCompile(`^unclosed action started at [^:]*:(\d+)$`)

// TemplateErrorLine is the line a text/template parse error msg is about:
// line as the error gives it, except for an unclosed action, whose error
// is reported at the end of the file but names the line it opened on.
// build/render places theme template errors with it too.
func TemplateErrorLine(line int, msg string) int {
	if m := unclosedAt.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 1 {
			return n
		}
	}
	return line
}

// TemplateErrorCol finds the 1-based column, in characters, of what a
// text/template parse error msg is about on line, the line the error
// names: text/template gives only the line. It looks, inside the line's
// actions, for the token the message quotes (function "foo" not defined,
// unexpected "}" in operand, bad character U+003C '<'), else for the
// action the message names ({{end}}, missing value for if), else for the
// opening of the first action; it returns 0 when the line has no action.
// build/render places theme template errors with it too.
func TemplateErrorCol(line, msg string) int {
	type span struct{ start, inner, end int } // "{{", after "{{", after "}}"
	var actions []span
	for i := 0; ; {
		j := strings.Index(line[i:], "{{")
		if j < 0 {
			break
		}
		s := span{start: i + j, inner: i + j + 2, end: len(line)}
		if k := strings.Index(line[s.inner:], "}}"); k >= 0 {
			s.end = s.inner + k + 2
		}
		actions = append(actions, s)
		i = s.end
		if i >= len(line) {
			break
		}
	}
	if len(actions) == 0 {
		return 0
	}
	col := func(off int) int { return utf8.RuneCountInString(line[:off]) + 1 }
	if m := tmplKeyword.FindStringSubmatch(msg); m != nil {
		kw := m[1] + m[2] + m[3] + m[4]
		var named []span
		for _, a := range actions {
			words := strings.Fields(strings.TrimPrefix(strings.TrimSuffix(line[a.inner:a.end], "}}"), "-"))
			if len(words) > 0 && words[0] == "else" {
				words = words[1:]
			}
			if len(words) > 0 && strings.TrimSuffix(words[0], "-") == kw {
				named = append(named, a)
			}
		}
		if len(named) > 0 {
			actions = named[:1]
		}
		if !tmplQuoted.MatchString(msg) {
			return col(actions[0].start)
		}
	}
	var needle string
	last := false
	switch {
	case strings.Contains(msg, "unterminated quoted string"):
		needle, last = `"`, true
	case strings.Contains(msg, "unterminated raw quoted string"):
		needle, last = "`", true
	case strings.Contains(msg, "unterminated character constant"):
		needle, last = "'", true
	case strings.Contains(msg, "comment"):
		needle = "/*"
	case strings.Contains(msg, "unclosed left paren"):
		needle = "("
	default:
		if q := tmplQuoted.FindString(msg); q != "" {
			if q[0] == '\'' {
				q = `"` + strings.ReplaceAll(q[1:len(q)-1], `"`, `\"`) + `"`
			}
			needle, _ = strconv.Unquote(q)
		}
	}
	if needle != "" {
		for _, a := range actions {
			text := line[a.inner:a.end]
			if needle != "}}" {
				text = strings.TrimSuffix(text, "}}")
			}
			switch {
			case needle == "(":
				// The "(" no ")" closes.
				var open []int
				for i := 0; i < len(text); i++ {
					switch text[i] {
					case '(':
						open = append(open, i)
					case ')':
						if len(open) > 0 {
							open = open[:len(open)-1]
						}
					}
				}
				if len(open) > 0 {
					return col(a.inner + open[0])
				}
				continue
			case last && strings.Count(text, needle)%2 == 0:
				continue // its quotes are closed
			}
			if i := findToken(text, needle, last); i >= 0 {
				return col(a.inner + i)
			}
		}
	}
	return col(actions[0].start)
}

// findToken is the byte offset of needle in text (the last one if last),
// not inside a longer name when needle is a name, or -1.
func findToken(text, needle string, last bool) int {
	name := func(b byte) bool {
		return b == '_' || b == '$' || b >= '0' && b <= '9' || b|0x20 >= 'a' && b|0x20 <= 'z' || b >= utf8.RuneSelf
	}
	isName := name(needle[0]) && name(needle[len(needle)-1])
	found := -1
	for i := 0; i+len(needle) <= len(text); i++ {
		if text[i:i+len(needle)] != needle {
			continue
		}
		if isName && (i > 0 && name(text[i-1]) || i+len(needle) < len(text) && name(text[i+len(needle)])) {
			continue
		}
		found = i
		if !last {
			break
		}
	}
	return found
}
