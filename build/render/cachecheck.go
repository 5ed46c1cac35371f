// What a theme's cached partials may be keyed by: the names a template
// caches and the check that their data can make a key.

package render

import (
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"reflect"
	"slices"
	"sort"
	"text/template/parse"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// cachedSeen is what Load found of the calls of cached in the layouts of
// the kinds before: the templates named, and the calls naming none, by
// file and offset. Each is checked once, though several kinds' layouts
// share it.
type cachedSeen struct {
	names, missing map[string]bool
}

// cachedNames lists the templates t's layouts give cached by a constant
// name ({{cached "part" .}}) that no other kind's layout named before,
// to check them once, and adds to diags an error for each call naming a
// template that t does not define.
func (th *Theme) cachedNames(t *htmltemplate.Template, seen cachedSeen, diags diag.List) ([]string, diag.List) {
	var names []string
	for _, d := range t.Templates() {
		if d.Tree == nil {
			continue
		}
		tree := d.Tree
		walkCommands(tree.Root, func(c *parse.CommandNode) {
			id, ok := c.Args[0].(*parse.IdentifierNode)
			if !ok || id.Ident != "cached" || len(c.Args) < 2 {
				return
			}
			name, ok := c.Args[1].(*parse.StringNode)
			if !ok {
				return
			}
			if t.Lookup(name.Text) == nil {
				file := tree.ParseName
				if at := fmt.Sprintf("%s:%d", file, name.Pos); !seen.missing[at] {
					seen.missing[at] = true
					diags = append(diags, diag.At(file, th.sources[file], int(name.Pos), "cached: no template %q is defined", name.Text))
				}
				return
			}
			if !seen.names[name.Text] {
				seen.names[name.Text] = true
				names = append(names, name.Text)
			}
		})
	}
	return names, diags
}

// keyable reports whether every value of type t can stand for the output
// of a cached template, as a map key: a comparable type with no interface
// in it, whose value might not be.
func (th *Theme) keyable(t reflect.Type) bool {
	if ok, known := th.keyTypes.Load(t); known {
		return ok.(bool)
	}
	ok := keyableType(t)
	th.keyTypes.Store(t, ok)
	return ok
}

func keyableType(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return false
	case reflect.Array:
		return keyableType(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !keyableType(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return t.Comparable()
}

// walkCommands calls f with every command under n.
func walkCommands(n parse.Node, f func(*parse.CommandNode)) {
	if n == nil {
		return
	}
	if c, ok := n.(*parse.CommandNode); ok && len(c.Args) > 0 {
		f(c)
	}
	for _, c := range children(n) {
		walkCommands(c, f)
	}
}

// check runs the escaper on kind's templates, by executing them once with a
// stand-in page, so escaping errors surface at Load; cached are the
// templates that cached executes, which no other template calls, checked
// with kind's (an error in one that another kind's check took is not
// reported again). Execution errors on the stand-in page are expected and
// ignored.
func (th *Theme) check(kind string, cached []string, seen cachedSeen) diag.List {
	l := th.layouts[kind]
	inst := l.pool.Get().(*instance)
	if inst.t == nil {
		return diag.List{diag.File(th.dir, "cannot clone the %s layout", kind)}
	}
	langs := th.bundle.Langs()
	site := &Site{Title: map[string]string{}, Langs: langs}
	p := &Page{Site: site, Kind: Kind(kind), URL: "/"}
	if len(langs) > 0 {
		p.Lang = langs[0]
	}
	inst.state.page = p
	defer func() {
		inst.state.page = nil
		l.pool.Put(inst)
	}()
	// The kind's own templates first, each alone, so that an escaping
	// error is reported in the file that causes it rather than in "base".
	var names []string
	for name, file := range l.files {
		if name != file && file == th.kindFile(kind) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range slices.Concat(names, cached, []string{"base"}) {
		err := inst.t.ExecuteTemplate(io.Discard, name, p)
		var he *htmltemplate.Error
		if errors.As(err, &he) && (!seen.names[he.Name] || slices.Contains(cached, he.Name)) {
			return diag.List{th.escapeDiag(l, he)}
		}
	}
	return nil
}
