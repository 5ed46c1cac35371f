package render

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template/parse"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/spf13/afero"
)

// KeyUse is one use of a UI string key in a template: a constant key, a
// key built with printf from a constant format, or a key the parse trees
// do not tell (Unknown).
type KeyUse struct {
	// Key is the key, for a constant one.
	Key string
	// Format is the printf format of a key built at run time, {{T (printf
	// "lang_%s" .Lang)}}: every key it can give counts as used.
	Format string
	// Unknown: the key is neither (T .Key, say); it cannot be checked.
	Unknown bool
	// File is the template file, as diagnostics name it (a theme layout
	// by source.Origin); Line and Col are 1-based, Col in characters, of
	// the key's string in it.
	File      string
	Line, Col int
	src       []byte
	off       int
}

// At is a diagnostic at the use.
func (u KeyUse) At(format string, args ...any) diag.Diagnostic {
	if u.src == nil {
		return diag.File(u.File, format, args...)
	}
	return diag.At(u.File, u.src, u.off, format, args...)
}

// String is "file:line:col key" (or the format, or "?").
func (u KeyUse) String() string {
	k := u.Key
	switch {
	case u.Format != "":
		k = "printf " + u.Format
	case u.Unknown:
		k = "?"
	}
	return fmt.Sprintf("%s:%d:%d %s", u.File, u.Line, u.Col, k)
}

// LayoutLookups are the template functions of a theme's layouts that take
// a UI string key, with the index of the key among the call's words
// (the function's name is 0): T key, Tf key args..., Tin lang key.
var LayoutLookups = map[string]int{"T": 1, "Tf": 1, "Tin": 2}

// ShortcodeLookups are those of the site shortcode templates: T key and
// i18n key, Hugo's two names for it.
var ShortcodeLookups = map[string]int{"T": 1, "i18n": 1}

// Keys lists every use of a UI string key in the theme's layouts, as
// TemplateKeys finds them, each once, in file order.
func (th *Theme) Keys() []KeyUse {
	var trees []*parse.Tree
	for _, k := range kinds {
		l := th.layouts[k]
		if l == nil {
			continue
		}
		for _, t := range l.master.Templates() {
			if t.Tree != nil {
				trees = append(trees, t.Tree)
			}
		}
	}
	return TemplateKeys(trees, th.sources, LayoutLookups)
}

// ShortcodeKeys lists every use of a UI string key in the site shortcode
// templates NAME.html of the folders dirs of fsys and their subfolders
// (see shortcodes.LoadTemplates, which reports their errors: a template
// that does not parse is skipped here). The templates are parsed without
// their functions, which only shortcodes knows.
func ShortcodeKeys(fsys afero.Fs, dirs ...string) []KeyUse {
	var trees []*parse.Tree
	sources := make(map[string][]byte)
	for _, dir := range dirs {
		_ = afero.Walk(fsys, dir, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() || !strings.HasSuffix(fi.Name(), ".html") {
				return nil
			}
			p = filepath.ToSlash(p)
			src, err := afero.ReadFile(fsys, p)
			if err != nil {
				return nil
			}
			t := parse.New(p)
			t.Mode = parse.SkipFuncCheck
			set := map[string]*parse.Tree{}
			if _, err := t.Parse(string(src), "", "", set); err != nil {
				return nil
			}
			sources[p] = src
			names := make([]string, 0, len(set))
			for name := range set {
				names = append(names, name)
			}
			slices.Sort(names)
			for _, name := range names {
				tree := set[name]
				tree.ParseName = p
				trees = append(trees, tree)
			}
			return nil
		})
	}
	return TemplateKeys(trees, sources, ShortcodeLookups)
}

// TemplateKeys walks parse trees for the calls of the lookup functions
// (name → the index of the key among the call's words) and lists the
// keys they are given, each use once, in file order. A key is found as a
// string constant ({{T "toc"}}, {{"toc" | T}}), as printf of a constant
// format ({{T (printf "lang_%s" .Lang)}}), or, for {{T .name}} in a
// template every caller of which gives name as a constant of dict
// ({{template "pagerlink" dict "class" "prev"}}), as each such constant,
// at the caller. sources holds each tree's file by its ParseName, to
// place the uses.
func TemplateKeys(trees []*parse.Tree, sources map[string][]byte, lookups map[string]int) []KeyUse {
	w := &keyWalker{sources: sources, lookups: lookups, seen: map[string]bool{}, calls: map[string][]call{}}
	for _, t := range trees {
		w.tree = t
		w.collectCalls(t.Root)
	}
	for _, t := range trees {
		w.tree = t
		w.walk(t.Root, true)
	}
	slices.SortFunc(w.uses, func(a, b KeyUse) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.off, b.off), cmp.Compare(a.Key, b.Key))
	})
	return w.uses
}

// call is one {{template NAME pipe}} and the tree it is in.
type call struct {
	tree *parse.Tree
	pipe *parse.PipeNode
}

type keyWalker struct {
	sources map[string][]byte
	lookups map[string]int
	tree    *parse.Tree
	uses    []KeyUse
	seen    map[string]bool
	// calls maps each template's name to the {{template}} calls of it.
	calls map[string][]call
}

// add records a use at off in tree t.
func (w *keyWalker) add(t *parse.Tree, off parse.Pos, u KeyUse) {
	u.File = t.ParseName
	u.src = w.sources[u.File]
	u.off = int(off)
	if u.src != nil {
		u.Line, u.Col = diag.Position(u.src, u.off)
	}
	id := fmt.Sprintf("%s\x00%d\x00%s\x00%s\x00%v", u.File, u.off, u.Key, u.Format, u.Unknown)
	if !w.seen[id] {
		w.seen[id] = true
		w.uses = append(w.uses, u)
	}
}

// children are the nodes under n that hold actions.
func children(n parse.Node) []parse.Node {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return nil
		}
		return n.Nodes
	case *parse.ActionNode:
		return []parse.Node{n.Pipe}
	case *parse.IfNode:
		return branch(&n.BranchNode)
	case *parse.RangeNode:
		return branch(&n.BranchNode)
	case *parse.WithNode:
		return branch(&n.BranchNode)
	case *parse.TemplateNode:
		if n.Pipe == nil {
			return nil
		}
		return []parse.Node{n.Pipe}
	case *parse.PipeNode:
		if n == nil {
			return nil
		}
		out := make([]parse.Node, len(n.Cmds))
		for i, c := range n.Cmds {
			out[i] = c
		}
		return out
	case *parse.CommandNode:
		return n.Args
	case *parse.ChainNode:
		return []parse.Node{n.Node}
	}
	return nil
}

func branch(b *parse.BranchNode) []parse.Node {
	out := []parse.Node{b.Pipe, b.List}
	if b.ElseList != nil {
		out = append(out, b.ElseList)
	}
	return out
}

// collectCalls records the {{template}} calls under n.
func (w *keyWalker) collectCalls(n parse.Node) {
	if n == nil {
		return
	}
	if tn, ok := n.(*parse.TemplateNode); ok && tn.Pipe != nil {
		w.calls[tn.Name] = append(w.calls[tn.Name], call{tree: w.tree, pipe: tn.Pipe})
	}
	for _, c := range children(n) {
		w.collectCalls(c)
	}
}

// walk finds the lookups under n; dotIsData: dot is still what the
// template was executed with (not inside with or range).
func (w *keyWalker) walk(n parse.Node, dotIsData bool) {
	if n == nil {
		return
	}
	switch n := n.(type) {
	case *parse.RangeNode:
		w.walk(n.Pipe, dotIsData)
		w.walk(n.List, false)
		w.walk(n.ElseList, dotIsData)
		return
	case *parse.WithNode:
		w.walk(n.Pipe, dotIsData)
		w.walk(n.List, false)
		w.walk(n.ElseList, dotIsData)
		return
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for i, c := range n.Cmds {
			w.command(c, n, i, dotIsData)
		}
	}
	for _, c := range children(n) {
		w.walk(c, dotIsData)
	}
}

// command looks at the i-th command of pipe for a lookup.
func (w *keyWalker) command(c *parse.CommandNode, pipe *parse.PipeNode, i int, dotIsData bool) {
	if len(c.Args) == 0 {
		return
	}
	id, ok := c.Args[0].(*parse.IdentifierNode)
	if !ok {
		return
	}
	at, ok := w.lookups[id.Ident]
	if !ok {
		return
	}
	switch {
	case at < len(c.Args):
		w.key(c.Args[at], c, dotIsData)
	case at == len(c.Args) && i > 0 && len(pipe.Cmds[i-1].Args) == 1:
		// {{"toc" | T}}: the key is the previous command's value.
		w.key(pipe.Cmds[i-1].Args[0], c, dotIsData)
	default:
		w.add(w.tree, c.Pos, KeyUse{Unknown: true})
	}
}

// key records the key argument arg of the lookup c.
func (w *keyWalker) key(arg parse.Node, c *parse.CommandNode, dotIsData bool) {
	switch a := arg.(type) {
	case *parse.StringNode:
		w.add(w.tree, a.Pos, KeyUse{Key: a.Text})
		return
	case *parse.PipeNode:
		if len(a.Decl) == 0 && len(a.Cmds) == 1 && len(a.Cmds[0].Args) >= 2 {
			if f, ok := a.Cmds[0].Args[0].(*parse.IdentifierNode); ok && f.Ident == "printf" {
				if s, ok := a.Cmds[0].Args[1].(*parse.StringNode); ok {
					w.add(w.tree, s.Pos, KeyUse{Format: s.Text})
					return
				}
			}
		}
	case *parse.FieldNode:
		if dotIsData && len(a.Ident) == 1 && w.fromCallers(w.tree.Name, a.Ident[0]) {
			return
		}
	}
	w.add(w.tree, arg.Position(), KeyUse{Unknown: true})
}

// fromCallers records, for {{T .field}} in template name, the constant
// every caller gives field in its dict; false when some caller gives no
// constant (or there is no caller).
func (w *keyWalker) fromCallers(name, field string) bool {
	calls := w.calls[name]
	if len(calls) == 0 {
		return false
	}
	type found struct {
		tree *parse.Tree
		s    *parse.StringNode
	}
	var all []found
	for _, c := range calls {
		s := dictString(c.pipe, field)
		if s == nil {
			return false
		}
		all = append(all, found{c.tree, s})
	}
	for _, f := range all {
		w.add(f.tree, f.s.Pos, KeyUse{Key: f.s.Text})
	}
	return true
}

// dictString is the constant string pipe, a call of dict, gives key, or
// nil.
func dictString(pipe *parse.PipeNode, key string) *parse.StringNode {
	if pipe == nil || len(pipe.Cmds) != 1 {
		return nil
	}
	args := pipe.Cmds[0].Args
	if len(args) == 1 {
		// {{template "x" (dict ...)}}
		if p, ok := args[0].(*parse.PipeNode); ok {
			return dictString(p, key)
		}
		return nil
	}
	if f, ok := args[0].(*parse.IdentifierNode); !ok || f.Ident != "dict" {
		return nil
	}
	for i := 1; i+1 < len(args); i += 2 {
		if k, ok := args[i].(*parse.StringNode); ok && k.Text == key {
			s, _ := args[i+1].(*parse.StringNode)
			return s
		}
	}
	return nil
}
