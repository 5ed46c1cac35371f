package render

// The diagnostics of a theme's templates: where a parse or an
// execution error is in the layout files, by line and column.

import (
	"errors"
	htmltemplate "html/template"
	"regexp"
	"strconv"
	"strings"
	"text/template/parse"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// parseDiag places a template parse error in its file, at the column of
// the token or action it is about: text/template gives only the line.
func (th *Theme) parseDiag(p string, err error) diag.Diagnostic {
	msg := err.Error()
	m := parseErrRE.FindStringSubmatch(msg)
	if m == nil {
		return diag.File(p, "%s", strings.TrimPrefix(msg, "template: "))
	}
	file := m[1]
	src, ok := th.sources[file]
	if !ok {
		file, src = p, th.sources[p]
	}
	line, _ := strconv.Atoi(m[2])
	line = shortcodes.TemplateErrorLine(line, m[4])
	col := shortcodes.TemplateErrorCol(diag.LineText(src, line), m[4])
	if col == 0 {
		col = firstCol(src, line)
	}
	return diag.AtLine(file, src, line, col, "%s", m[4])
}

// execDiag places an execution error in its template file.
func (th *Theme) execDiag(l *layout, err error) error {
	var he *htmltemplate.Error
	if errors.As(err, &he) {
		return th.escapeDiag(l, he)
	}
	msg := err.Error()
	m := parseErrRE.FindStringSubmatch(msg)
	if m == nil {
		// "template: NAME: msg", without a place: name the file
		// defining NAME.
		if n := nameErrRE.FindStringSubmatch(msg); n != nil && l.files[n[1]] != "" {
			return diag.File(l.files[n[1]], "%s", n[2])
		}
		return diag.File(th.dir, "%s", msg)
	}
	src, ok := th.sources[m[1]]
	if !ok {
		return diag.File(m[1], "%s", m[4])
	}
	line, _ := strconv.Atoi(m[2])
	if m[3] == "" {
		return diag.AtLine(m[1], src, line, firstCol(src, line), "%s", m[4])
	}
	col, _ := strconv.Atoi(m[3]) // a 0-based byte column
	return diag.At(m[1], src, diag.Offset(src, line, 1)+col, "%s", m[4])
}

// escapeDiag places an html/template escaping error, whose Name is a
// defined template's name, in the file that defines it.
func (th *Theme) escapeDiag(l *layout, he *htmltemplate.Error) diag.Diagnostic {
	file := l.files[he.Name]
	src, ok := th.sources[file]
	if !ok {
		return diag.File(th.dir, "%s", he.Error())
	}
	if he.Node != nil {
		if d := l.master.Lookup(he.Name); d != nil && d.Tree != nil {
			loc, _ := safeErrorContext(d.Tree, he.Node)
			if m := locRE.FindStringSubmatch(loc); m != nil {
				line, _ := strconv.Atoi(m[1])
				col, _ := strconv.Atoi(m[2])
				return diag.At(file, src, diag.Offset(src, line, 1)+col, "%s", he.Description)
			}
		}
	}
	if he.Line > 0 {
		return diag.AtLine(file, src, he.Line, firstCol(src, he.Line), "%s", he.Description)
	}
	// No position (for example "ends in a non-text context"): point at
	// the template's definition.
	for _, kw := range []string{"define", "block"} {
		if m := regexp.MustCompile(`\{\{-?\s*` + kw + `\s+"` + regexp.QuoteMeta(he.Name) + `"`).FindIndex(src); m != nil {
			return diag.At(file, src, m[0], "template %q: %s", he.Name, he.Description)
		}
	}
	return diag.File(file, "template %q: %s", he.Name, he.Description)
}

// safeErrorContext calls tree.ErrorContext, which can panic on a node from
// another tree.
func safeErrorContext(tree *parse.Tree, n parse.Node) (loc, ctx string) {
	defer func() {
		if recover() != nil {
			loc, ctx = "", ""
		}
	}()
	return tree.ErrorContext(n)
}

// firstCol is the 1-based column of the first non-blank character of line.
func firstCol(src []byte, line int) int {
	s := diag.LineText(src, line)
	return len([]rune(s)) - len([]rune(strings.TrimLeft(s, " \t"))) + 1
}
