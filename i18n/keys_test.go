package i18n

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// lookupKeyArg maps each name of a UI string lookup in Go code to how
// to find its key among a call's arguments: Bundle.T(lang, key),
// Bundle.Tf(lang, key, args...), markdown's env.t(key), the shortcodes'
// c.T(key), page's a.t(lang, key), i18n.Fallback(lang, key), the themes'
// Tin(lang, key).
var lookupKeyArg = map[string]func(args []ast.Expr) ast.Expr{
	"T":        lastOfTwo,
	"t":        lastOfTwo,
	"Tin":      lastOfTwo,
	"Fallback": lastOfTwo,
	"Tf": func(args []ast.Expr) ast.Expr {
		if len(args) >= 2 {
			return args[1]
		}
		return nil
	},
}

func lastOfTwo(args []ast.Expr) ast.Expr {
	if len(args) == 1 || len(args) == 2 {
		return args[len(args)-1]
	}
	return nil
}

// wrapper is a function that looks UI strings up for its callers: the
// keys are its callers' arguments, and the lookups with a key not
// constant in its body are its own working.
type wrapper struct {
	key    int    // the argument that is a key, or -1
	list   int    // the argument that is a []string of keys after prefix, or -1
	prefix string // what the function puts before each key of list
}

// wrappers are the shortcodes' newRoot(c, kind, title, input, keys): title
// is a key, each of keys one after "calc_".
var wrappers = map[string]wrapper{
	"newRoot": {key: 2, list: 4, prefix: "calc_"},
}

// codeUse is one key asked for in Go code: a constant key, or the
// constant prefix of a key built at run time.
type codeUse struct {
	key    string
	prefix string
	pkg    string // the folder of the file, from the module root
	pos    token.Position
}

// scanner finds the UI string lookups of Go files.
type scanner struct {
	fset *token.FileSet
	uses []codeUse
	// problems are lookups whose key the scanner cannot tell, each
	// "file:line: ...".
	problems []string
}

// scanFile finds the lookups of one parsed file of package folder pkg.
func (s *scanner) scanFile(f *ast.File, pkg string) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		_, inWrapper := wrappers[fd.Name.Name]
		s.scanFunc(fd.Type, fd.Body, nil, inWrapper, pkg)
	}
}

// scanFunc scans the body of a function of type ft, inside the
// functions whose parameters are in outer.
func (s *scanner) scanFunc(ft *ast.FuncType, body *ast.BlockStmt, outer map[string]bool, inWrapper bool, pkg string) {
	params := make(map[string]bool)
	for k := range outer {
		params[k] = true
	}
	if ft.Params != nil {
		for _, f := range ft.Params.List {
			for _, n := range f.Names {
				params[n.Name] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			s.scanFunc(n.Type, n.Body, params, inWrapper, pkg)
			return false
		case *ast.CallExpr:
			s.call(n, body, params, inWrapper, pkg)
		}
		return true
	})
}

func callName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// call records the keys of one call, when it is a lookup.
func (s *scanner) call(c *ast.CallExpr, body *ast.BlockStmt, params map[string]bool, inWrapper bool, pkg string) {
	name := callName(c.Fun)
	if w, ok := wrappers[name]; ok {
		if w.key >= 0 && w.key < len(c.Args) {
			s.key(c.Args[w.key], "", params, inWrapper, pkg)
		}
		if w.list >= 0 && w.list < len(c.Args) {
			s.list(c.Args[w.list], w.prefix, body, pkg)
		}
		return
	}
	arg := lookupKeyArg[name]
	if arg == nil {
		return
	}
	if e := arg(c.Args); e != nil {
		s.key(e, "", params, inWrapper, pkg)
	}
}

// key records the key e, after prefix; the key of Count(key, n) is key.
func (s *scanner) key(e ast.Expr, prefix string, params map[string]bool, inWrapper bool, pkg string) {
	if c, ok := e.(*ast.CallExpr); ok && callName(c.Fun) == "Count" && len(c.Args) == 2 {
		e = c.Args[0]
	}
	pos := s.fset.Position(e.Pos())
	pos.Filename = filepath.ToSlash(pos.Filename)
	if lit, rest := constPrefix(e); rest == nil {
		s.uses = append(s.uses, codeUse{key: prefix + lit, pkg: pkg, pos: pos})
		return
	} else if inWrapper {
		return // the wrapper's own lookups: its callers give the keys
	} else if lit != "" {
		s.uses = append(s.uses, codeUse{prefix: prefix + lit, pkg: pkg, pos: pos})
		return
	}
	if id, ok := e.(*ast.Ident); ok && params[id.Name] {
		return // forwarded: the function's callers give the key
	}
	s.problems = append(s.problems, pos.String()+": a UI string key the scanner cannot read: use a constant, a constant prefix (\"callout_\"+kind, listing each key in CodeKeys), or a wrapper it knows")
}

// list records each key of the []string e after prefix: a composite
// literal, or a variable the function body sets to one.
func (s *scanner) list(e ast.Expr, prefix string, body *ast.BlockStmt, pkg string) {
	cl, _ := e.(*ast.CompositeLit)
	if id, ok := e.(*ast.Ident); ok {
		ast.Inspect(body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
				for i, l := range as.Lhs {
					if lid, ok := l.(*ast.Ident); ok && lid.Name == id.Name {
						if c, ok := as.Rhs[i].(*ast.CompositeLit); ok {
							cl = c
						}
					}
				}
			}
			return true
		})
	}
	if cl == nil {
		pos := s.fset.Position(e.Pos())
		s.problems = append(s.problems, filepath.ToSlash(pos.String())+": a list of UI string keys the scanner cannot read: use a []string literal")
		return
	}
	for _, el := range cl.Elts {
		s.key(el, prefix, nil, false, pkg)
	}
}

// constPrefix splits e, a string expression, into its constant start and
// the rest (nil when e is a constant).
func constPrefix(e ast.Expr) (string, ast.Expr) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			if s, err := strconv.Unquote(e.Value); err == nil {
				return s, nil
			}
		}
	case *ast.ParenExpr:
		return constPrefix(e.X)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			break
		}
		l, lrest := constPrefix(e.X)
		if lrest != nil {
			return l, e
		}
		r, rrest := constPrefix(e.Y)
		if rrest != nil {
			return l + r, e
		}
		return l + r, nil
	}
	return "", e
}

// moduleRoot is the folder holding go.mod, above the test's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
}

// scanModule scans every non-test Go file of the module.
func scanModule(t *testing.T) *scanner {
	t.Helper()
	root := moduleRoot(t)
	s := &scanner{fset: token.NewFileSet()}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(s.fset, rel, readFile(t, p), parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		s.scanFile(f, path.Dir(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkInventory compares the uses found with an inventory: a use whose
// key (or prefix) no group of its package lists, a group's key its
// package never asks for, a prefix no code builds.
func checkInventory(uses []codeUse, inv []KeyGroup) []string {
	var problems []string
	usedKey := map[string]bool{}    // pkg + " " + key
	usedPrefix := map[string]bool{} // pkg + " " + prefix
	for _, u := range uses {
		var listed bool
		for _, g := range inv {
			if g.Package != u.pkg {
				continue
			}
			if u.prefix == "" && slices.Contains(g.Keys, u.key) {
				listed = true
			}
			if u.prefix != "" && slices.Contains(g.Built, u.prefix) {
				listed = true
			}
		}
		switch {
		case u.prefix != "":
			usedPrefix[u.pkg+" "+u.prefix] = true
			if !listed {
				problems = append(problems, u.pos.String()+": keys built as "+strconv.Quote(u.prefix)+"+...: list the prefix in the Built of a group of i18n.CodeKeys for "+u.pkg+", and each key it builds")
			}
		default:
			usedKey[u.pkg+" "+u.key] = true
			if !listed {
				problems = append(problems, u.pos.String()+": UI string "+strconv.Quote(u.key)+" is not in i18n.CodeKeys for "+u.pkg)
			}
		}
	}
	for _, g := range inv {
		for _, p := range g.Built {
			if !usedPrefix[g.Package+" "+p] {
				problems = append(problems, "i18n.CodeKeys ("+g.User+"): no code of "+g.Package+" builds keys as "+strconv.Quote(p)+"+...")
			}
		}
		for _, k := range g.Keys {
			built := false
			for _, p := range g.Built {
				built = built || strings.HasPrefix(k, p)
			}
			if !usedKey[g.Package+" "+k] && !built {
				problems = append(problems, "i18n.CodeKeys ("+g.User+"): no code of "+g.Package+" uses "+strconv.Quote(k))
			}
		}
	}
	return problems
}

// TestCodeKeys: CodeKeys lists exactly the keys the Go code asks for.
func TestCodeKeys(t *testing.T) {
	s := scanModule(t)
	if len(s.uses) < 20 {
		t.Fatalf("found %d lookups in the module, want the dozens it has", len(s.uses))
	}
	for _, p := range s.problems {
		t.Error(p)
	}
	for _, p := range checkInventory(s.uses, CodeKeys) {
		t.Error(p)
	}
}

// TestCodeKeysInTheFiles: every key of CodeKeys is in the embedded files.
func TestCodeKeysInTheFiles(t *testing.T) {
	b, diags := LoadSite(context.Background(), afero.NewMemMapFs(), "i18n", nil)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, g := range CodeKeys {
		for _, k := range g.Keys {
			for _, l := range b.Langs() {
				if !b.Has(l, k) {
					t.Errorf("%s: UI string %q (used by %s) is missing", b.Path(l), k, g.User)
				}
			}
		}
		if g.User == "" || g.Package == "" || len(g.Keys) == 0 {
			t.Errorf("group %+v: every group has a user, a package and keys", g)
		}
	}
	for _, l := range b.Langs() {
		for _, other := range b.Langs() {
			if !b.Has(l, LangNameKey(other)) {
				t.Errorf("%s: no name for %s (%s)", b.Path(l), other, LangNameKey(other))
			}
		}
	}
}

// TestScanner: the scanner finds each form of lookup, and the inventory
// check names what is wrong where.
func TestScanner(t *testing.T) {
	const src = `package x

func f(c *C, b *B, lang, k string) {
	c.T("found_t")
	b.Tf(lang, "found_tf", 1)
	env.t("found" + "_joined")
	a.t(lang, "found_two")
	c.T("pre_" + k)
	b.T(lang, k)
	keys := []string{"one", "two"}
	newRoot(c, "kind", "calc_title", nil, keys)
	_ = func(key string) string { return b.T(lang, key) }
	c.T(other())
	other("not_a_key")
	c.T(i18n.Count("counted", 3))
}

func newRoot(c *C, kind, title string, input any, keys []string) {
	for _, k := range keys {
		c.T("calc_" + k)
	}
	c.T(title)
	c.T("calc_static")
}
`
	s := &scanner{fset: token.NewFileSet()}
	f, err := parser.ParseFile(s.fset, "x/x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	s.scanFile(f, "x")
	var got []string
	for _, u := range s.uses {
		got = append(got, u.pos.String()+" "+u.key+u.prefix+map[bool]string{true: "+..."}[u.prefix != ""])
	}
	want := []string{
		"x/x.go:4:6 found_t",
		"x/x.go:5:13 found_tf",
		"x/x.go:6:8 found_joined",
		"x/x.go:7:12 found_two",
		"x/x.go:8:6 pre_+...",
		"x/x.go:11:21 calc_title",
		"x/x.go:10:19 calc_one",
		"x/x.go:10:26 calc_two",
		"x/x.go:15:17 counted",
		"x/x.go:23:6 calc_static",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("uses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(s.problems) != 1 || !strings.HasPrefix(s.problems[0], "x/x.go:13:6: a UI string key the scanner cannot read") {
		t.Errorf("problems %q, want the call of other() at x/x.go:13:6", s.problems)
	}

	inv := []KeyGroup{{User: "x", Package: "x", Keys: []string{
		"found_t", "found_tf", "found_joined", "found_two", "pre_a", "calc_one", "calc_two", "calc_title", "stale", "counted",
	}, Built: []string{"pre_", "never_"}}}
	problems := checkInventory(s.uses, inv)
	want = []string{
		`x/x.go:23:6: UI string "calc_static" is not in i18n.CodeKeys for x`,
		`i18n.CodeKeys (x): no code of x builds keys as "never_"+...`,
		`i18n.CodeKeys (x): no code of x uses "stale"`,
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("inventory problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	// A key used in another package than its group's is not listed.
	if p := checkInventory([]codeUse{{key: "found_t", pkg: "y", pos: token.Position{Filename: "y/y.go", Line: 1, Column: 1}}}, inv[:0]); len(p) != 1 || !strings.Contains(p[0], `y/y.go:1:1: UI string "found_t" is not in i18n.CodeKeys for y`) {
		t.Errorf("a key of package y: %q", p)
	}
}

func TestCodeKeyUsers(t *testing.T) {
	u := CodeKeyUsers()
	if got := u["anchor"]; got != "the markdown renderer" {
		t.Errorf("anchor used by %q", got)
	}
	if got := u["date_format"]; got != "the theme's date function and the single-file export" {
		t.Errorf("date_format used by %q", got)
	}
	if got := LangNameKey("ko"); got != "lang_ko" {
		t.Errorf("LangNameKey(ko) = %q", got)
	}
}

// TestBundlePlaces: a bundle names the file of each language and the line
// of each key, and tells the embedded strings from the site's.
func TestBundlePlaces(t *testing.T) {
	fsys := memFs(t, map[string]string{"i18n/ko.toml": "# mine\ntoc = \"차례\"\n"})
	b, diags := LoadSite(context.Background(), fsys, "i18n", []string{"ja", "ko"})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got := b.Path("ko"); got != "i18n/ko.toml" {
		t.Errorf("Path(ko) = %q", got)
	}
	if got := b.Path("ja"); got != EmbeddedDir+"/ja.toml" {
		t.Errorf("Path(ja) = %q", got)
	}
	if b.Embedded("ko", "toc") || !b.Embedded("ko", "planned") || !b.Embedded("ja", "toc") {
		t.Errorf("Embedded: ko toc %v, ko planned %v, ja toc %v", b.Embedded("ko", "toc"), b.Embedded("ko", "planned"), b.Embedded("ja", "toc"))
	}
	if got := b.At("ko", "toc", "here").Header(); got != "i18n/ko.toml:2:1: here" {
		t.Errorf("At(ko, toc) = %q", got)
	}
	if got := b.At("ko", "planned", "here").Header(); !strings.HasPrefix(got, EmbeddedDir+"/ko.toml:") {
		t.Errorf("At(ko, planned) = %q, want the embedded file's line", got)
	}
	if got := b.At("ko", "no_such_key", "here").Header(); got != "i18n/ko.toml: here" {
		t.Errorf("At(ko, no_such_key) = %q", got)
	}
	keys := b.Keys("ko")
	if !slices.IsSorted(keys) || !slices.Contains(keys, "anchor") || len(keys) != len(b.Keys("ja")) {
		t.Errorf("Keys(ko) = %q", keys)
	}
}
