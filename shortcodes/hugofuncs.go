// The functions a Hugo shortcode template calls: T and i18n, errorf and
// warnf, markdownify, relURL and absURL, urlize, default.

package shortcodes

import (
	"fmt"
	"html/template"
	"net/url"
	"reflect"
	"strings"
	"unicode"

	"github.com/kakehashi-dev/kakehashi/i18n"
)

// templateFuncs are the functions of a site shortcode template, Hugo's
// names for them, bound to one call (nil while the templates are parsed).
type templateFuncs struct {
	h *hugoCall
	c *Context
}

// funcMap returns the functions.
func (f templateFuncs) funcMap() template.FuncMap {
	return template.FuncMap{
		"T":            f.t,
		"i18n":         f.t,
		"errorf":       f.errorf,
		"warnf":        f.warnf,
		"markdownify":  f.markdownify,
		"relURL":       f.relURL,
		"absURL":       f.absURL,
		"safeHTML":     func(s any) template.HTML { return template.HTML(toText(s)) },         // the template's word
		"safeHTMLAttr": func(s any) template.HTMLAttr { return template.HTMLAttr(toText(s)) }, // the template's word
		"safeURL":      func(s any) template.URL { return template.URL(toText(s)) },           // the template's word
		"safeCSS":      func(s any) template.CSS { return template.CSS(toText(s)) },           // the template's word
		"safeJS":       func(s any) template.JS { return template.JS(toText(s)) },             // the template's word
		"urlize":       func(s any) string { return urlize(toText(s)) },
		"default":      hugoDefault,
		"dict":         Dict,
		"slice":        func(v ...any) []any { return v },
		"lower":        func(s any) string { return strings.ToLower(toText(s)) },
		"upper":        func(s any) string { return strings.ToUpper(toText(s)) },
		"trim":         func(s any, cut string) string { return strings.Trim(toText(s), cut) },
		"replace": func(s any, old, new string, n ...int) string {
			if len(n) > 0 {
				return strings.Replace(toText(s), old, new, n[0])
			}
			return strings.ReplaceAll(toText(s), old, new)
		},
		"plainify":   func(s any) string { return plainify(template.HTML(toText(s))) },
		"htmlEscape": func(s any) string { return template.HTMLEscapeString(toText(s)) },
	}
}

// toText is v as a template prints it.
func toText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case template.HTML:
		return string(v)
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

// t is T and i18n: a UI string of the page's language. With Hugo's
// count, a number or a map whose Count is one, it is the plural form of
// the string for the count (i18n's counts: key.one, key.other), the
// count put in its %d, as the strings kakehashi import hugo writes read
// Hugo's {{ .Count }}; any other argument is a warning at the call.
func (f templateFuncs) t(key any, args ...any) string {
	if f.c == nil {
		return ""
	}
	return f.translate(toText(key), args)
}

// translate is t for a key the template gave: the template's keys are
// checked where templates are read (render.ShortcodeKeys), not here.
func (f templateFuncs) translate(k string, args []any) string {
	if len(args) == 0 {
		return f.c.T(k)
	}
	n, ok := hugoCount(args[0])
	if !ok || len(args) > 1 {
		if f.h != nil {
			f.h.warn("T %q: the argument after the key is not used: it is Hugo's count, a number or a map with Count, or nothing", k)
		}
		return f.c.T(k)
	}
	s := f.c.T(i18n.Count(k, n))
	if strings.Contains(s, "%") {
		s = fmt.Sprintf(s, n)
	}
	return s
}

// hugoCount is the count of Hugo's T argument v: a whole number, or a
// map's Count.
func hugoCount(v any) (int, bool) {
	if m, ok := v.(map[string]any); ok {
		for k, c := range m {
			if strings.EqualFold(k, "count") {
				v = c
			}
		}
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(rv.Int()), true
	case reflect.Float32, reflect.Float64:
		if f := rv.Float(); f == float64(int(f)) {
			return int(f), true
		}
	}
	return 0, false
}

// errorf reports an error at the call, which fails the build, as Hugo's
// errorf does; it prints nothing.
func (f templateFuncs) errorf(format string, args ...any) string {
	if f.c != nil {
		f.c.Report(format, args...)
	}
	return ""
}

// warnf reports a warning at the call, as Hugo's warnf; it prints
// nothing.
func (f templateFuncs) warnf(format string, args ...any) string {
	if f.h != nil {
		f.h.warn(format, args...)
	}
	return ""
}

// markdownify renders s as markdown, as the page's body is rendered
// (links checked, shortcodes called), and gives one paragraph's worth of
// it without its <p>, as Hugo's markdownify.
func (f templateFuncs) markdownify(s any) template.HTML {
	text := toText(s)
	if f.h == nil || text == "" {
		return template.HTML(template.HTMLEscapeString(text))
	}
	return template.HTML(trimShortHTML(f.h.markdown(text, true))) // our renderer's, in safe mode
}

// trimShortHTML drops the <p> around h when h is one paragraph, as
// Hugo's TrimShortHTML.
func trimShortHTML(h string) string {
	if strings.Count(h, "<p>") != 1 {
		return h
	}
	t := strings.TrimSpace(h)
	if strings.HasPrefix(t, "<p>") && strings.HasSuffix(t, "</p>") {
		return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "<p>"), "</p>"))
	}
	return h
}

// relURL is the URL of the site path p relative to the page, which
// works under any base URL and from file:// (Hugo's is the path from the
// host, "/docs/p"). p is read from the site's root, with or without its
// leading "/"; where Hugo reads a leading "/" from the host's root and
// the site is not at it, a warning says so. A URL with a scheme stays.
func (f templateFuncs) relURL(p any) string {
	s := toText(p)
	if f.h == nil || isAbsURL(s) {
		return s
	}
	f.h.hostRooted("relURL", s)
	info := f.h.pageInfo()
	if info == nil || info.Rel == nil {
		return s
	}
	return info.Rel("/" + strings.TrimPrefix(s, "/"))
}

// absURL is the absolute URL of the site path p under the site's base
// URL, as Hugo's, but that a leading "/" is read from the site's root,
// not the host's (warned of where they differ). A URL with a scheme
// stays.
func (f templateFuncs) absURL(p any) string {
	s := toText(p)
	if f.h == nil || isAbsURL(s) {
		return s
	}
	f.h.hostRooted("absURL", s)
	info := f.h.pageInfo()
	if info == nil || info.Abs == nil {
		return s
	}
	return info.Abs("/" + strings.TrimPrefix(s, "/"))
}

// isAbsURL reports whether s has a scheme or is protocol-relative.
func isAbsURL(s string) bool {
	if strings.HasPrefix(s, "//") {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme != ""
}

// urlize is s made a URL path as Hugo's urlize makes it: in lower case,
// spaces as "-", only letters, digits and . / \ _ # + ~ - @ %XX kept.
func urlize(s string) string {
	var b strings.Builder
	pendingHyphen, wasHyphen := false, false
	for i, r := range s {
		ok := r != ' ' && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("./\\_#+~-@", r) || unicode.IsMark(r) ||
			r == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]))
		switch {
		case ok:
			wasHyphen = r == '-'
			if pendingHyphen && !wasHyphen {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(r)
		case b.Len() > 0 && !wasHyphen && unicode.IsSpace(r):
			pendingHyphen = true
		}
	}
	out := strings.ToLower(b.String())
	if u, err := url.Parse(out); err == nil {
		return u.String()
	}
	return out
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// hugoDefault is Hugo's default: given when it is set (a non-zero
// number, a non-empty string, slice or map, any boolean, a non-nil
// value), else def.
func hugoDefault(def any, given ...any) (any, error) {
	if len(given) == 0 {
		return def, nil
	}
	if len(given) != 1 {
		return nil, fmt.Errorf("wrong number of args for default: want 2 got %d", len(given)+1)
	}
	g := reflect.ValueOf(given[0])
	if !g.IsValid() {
		return def, nil
	}
	set := true
	switch g.Kind() {
	case reflect.Bool, reflect.Struct:
	case reflect.String, reflect.Array, reflect.Slice, reflect.Map:
		set = g.Len() != 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		set = g.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		set = g.Uint() != 0
	case reflect.Float32, reflect.Float64:
		set = g.Float() != 0
	case reflect.Complex64, reflect.Complex128:
		set = g.Complex() != 0
	default:
		set = !g.IsNil()
	}
	if set {
		return given[0], nil
	}
	return def, nil
}
