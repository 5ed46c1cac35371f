package shortcodes

import (
	"context"
	"encoding/binary"
	"fmt"
	"html"
	"math/bits"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/yuin/goldmark"
)

// TestHugoBuiltinCases renders each case of testdata/hugo-builtins, the
// calls of Hugo v0.169.0's tests of its built-in shortcodes with what Hugo
// renders for them (the format is in its README), through kakehashi, and
// compares: a case agrees, or its .differs member says why not and its
// diagnostics are pinned.
func TestHugoBuiltinCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "hugo-builtins", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	agree, total := 0, 0
	var differ []string
	for _, f := range files {
		for _, c := range readBuiltinCases(t, f) {
			total++
			name := filepath.Base(f) + "/" + c.name
			t.Run(name, func(t *testing.T) {
				if c.xxhash != "" {
					if got := fmt.Sprintf("%016x", xxh64([]byte(c.hugo))); got != c.xxhash {
						t.Fatalf("the .hugo member's XXH64 is %s, Hugo's test asserts %s: it is not what Hugo renders", got, c.xxhash)
					}
				}
				res := renderBuiltinCase(c)
				got := headers(res)
				if !slices.Equal(got, c.diags) {
					t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.diags, "\n"))
				}
				same, detail := compareBuiltin(c.compare, string(res.HTML), c.hugo)
				errs := 0
				warned := false
				for _, d := range res.Diags {
					if d.Severity == diag.Error {
						errs++
					} else {
						warned = true
					}
				}
				ok := same && errs == 0 && (c.hugoWarns == "" || warned)
				switch {
				case ok && c.differs == "":
					agree++
				case ok && len(c.diags) == 0:
					t.Errorf("listed as a difference (%s), but kakehashi renders it as Hugo does and warns of nothing", c.differs)
				case ok:
					differ = append(differ, name) // a warned difference beyond what is compared
				case c.differs == "":
					t.Errorf("kakehashi renders it otherwise than Hugo (%s, %d errors, Hugo warns: %t, kakehashi warns: %t):\n%s\nkakehashi's HTML:\n%s",
						c.compare, errs, c.hugoWarns != "", warned, detail, res.HTML)
				default:
					differ = append(differ, name)
				}
			})
		}
	}
	t.Logf("%d of %d cases of Hugo's built-in shortcode tests render as in Hugo; the documented differences: %s", agree, total, strings.Join(differ, ", "))
}

// builtinCase is one case of testdata/hugo-builtins.
type builtinCase struct {
	name, md, hugo, xxhash, compare, hugoWarns, differs string
	diags                                               []string
	env                                                 builtinEnv
}

// builtinEnv is the env member of a case file.
type builtinEnv struct {
	path   string
	pages  map[string]markdown.LinkTarget
	params map[string]any
}

// readBuiltinCases reads a case file of testdata/hugo-builtins.
func readBuiltinCases(t *testing.T, file string) []builtinCase {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	env := builtinEnv{path: "p.md", pages: map[string]markdown.LinkTarget{}, params: map[string]any{}}
	var cases []builtinCase
	at := map[string]int{}
	for _, m := range ar.Files {
		data := string(m.Data)
		if m.Name == "env" {
			for _, l := range strings.Split(strings.TrimSpace(data), "\n") {
				f := strings.Fields(l)
				switch {
				case len(f) == 2 && f[0] == "path":
					env.path = f[1]
				case len(f) == 4 && f[0] == "page":
					env.pages[f[1]] = markdown.LinkTarget{Href: f[2], Path: f[3]}
				case len(f) == 3 && f[0] == "param":
					v := Value{Kind: String, Str: f[2]}
					if n, err := strconv.ParseInt(f[2], 10, 64); err == nil {
						v = Value{Kind: Int, Int: n}
					}
					env.params[f[1]] = v.Any()
				default:
					t.Fatalf("%s: env: bad line %q", file, l)
				}
			}
			continue
		}
		name, ext, ok := strings.Cut(m.Name, ".")
		if !ok {
			t.Fatalf("%s: member %q is no NAME.EXT", file, m.Name)
		}
		i, seen := at[name]
		if !seen {
			i = len(cases)
			at[name] = i
			cases = append(cases, builtinCase{name: name, compare: "html"})
		}
		c := &cases[i]
		line := strings.TrimSpace(data)
		switch ext {
		case "md":
			c.md = data
		case "hugo":
			c.hugo = data
		case "xxhash":
			c.xxhash = line
		case "compare":
			c.compare = line
		case "hugo-warns":
			c.hugoWarns = line
		case "diags":
			c.diags = strings.Split(line, "\n")
		case "differs":
			c.differs = strings.Join(strings.Fields(data), " ")
		default:
			t.Fatalf("%s: member %q: unknown kind %q", file, m.Name, ext)
		}
	}
	for i := range cases {
		cases[i].env = env
		if cases[i].md == "" || cases[i].hugo == "" {
			t.Fatalf("%s: case %q lacks its .md or .hugo member", file, cases[i].name)
		}
	}
	return cases
}

// renderBuiltinCase renders the case's page in English, as Hugo's tests
// are, in its environment.
func renderBuiltinCase(c builtinCase) markdown.Result {
	env := markdown.Env{Lang: "en", T: func(string) string { return "" }}
	env.Link = func(dest string) markdown.LinkTarget {
		if p, ok := c.env.pages[dest]; ok {
			return p
		}
		return markdown.LinkTarget{Problem: "link to " + strconv.Quote(dest) + ": no such page", Severity: diag.Error}
	}
	env.Param = func(key string) (any, bool) { v, ok := c.env.params[key]; return v, ok }
	r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(NewRegistry())}})
	return r.Render(context.Background(), markdown.Doc{Path: c.env.path, Src: []byte(c.md)}, env)
}

// compareBuiltin compares kakehashi's HTML with Hugo's as the case says,
// and tells what differs.
func compareBuiltin(how, got, hugo string) (same bool, detail string) {
	switch how {
	case "contains":
		var missing []string
		for _, l := range strings.Split(hugo, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.Contains(got, l) {
				missing = append(missing, l)
			}
		}
		return len(missing) == 0, "lacks " + strings.Join(missing, ", ")
	case "code":
		g, h := readCode(got), readCode(hugo)
		return g == h, "kakehashi's code:\n" + g + "\nHugo's:\n" + h
	}
	g, h := normalizeHTML(got, true), normalizeHTML(hugo, false)
	return g == h, "kakehashi's, normalized:\n" + g + "\nHugo's:\n" + h
}

// htmlToken is a start tag, an end tag or text of an HTML fragment.
type htmlToken struct {
	end   bool
	name  string // "" for text
	attrs [][2]string
	text  string // unescaped
}

// tokenizeHTML splits the HTML h into tags and text, leaving out its
// comments, for normalizeHTML and readCode. It reads the HTML of
// templates and goldmark, not any HTML.
func tokenizeHTML(h string) []htmlToken {
	var toks []htmlToken
	for len(h) > 0 {
		i := strings.IndexByte(h, '<')
		if i < 0 {
			i = len(h)
		}
		if i > 0 {
			toks = append(toks, htmlToken{text: html.UnescapeString(h[:i])})
			h = h[i:]
			continue
		}
		if strings.HasPrefix(h, "<!--") {
			end := strings.Index(h, "-->")
			if end < 0 {
				end = len(h) - 3
			}
			h = h[end+3:]
			continue
		}
		t := htmlToken{}
		j := 1
		if strings.HasPrefix(h, "</") {
			t.end, j = true, 2
		}
		k := j
		for k < len(h) && !strings.ContainsRune(" \t\n/>", rune(h[k])) {
			k++
		}
		t.name = strings.ToLower(h[j:k])
		for k < len(h) && h[k] != '>' {
			for k < len(h) && strings.ContainsRune(" \t\n/", rune(h[k])) {
				k++
			}
			n := k
			for k < len(h) && !strings.ContainsRune(" \t\n=/>", rune(h[k])) {
				k++
			}
			if n == k {
				continue
			}
			a := [2]string{strings.ToLower(h[n:k]), ""}
			if k < len(h) && h[k] == '=' {
				k++
				v := k
				if k < len(h) && (h[k] == '"' || h[k] == '\'') {
					q := h[k]
					k++
					v = k
					for k < len(h) && h[k] != q {
						k++
					}
					a[1] = html.UnescapeString(h[v:k])
					k++
				} else {
					for k < len(h) && !strings.ContainsRune(" \t\n>", rune(h[k])) {
						k++
					}
					a[1] = html.UnescapeString(h[v:k])
				}
			}
			t.attrs = append(t.attrs, a)
		}
		toks = append(toks, t)
		h = h[min(k+1, len(h)):]
	}
	return toks
}

// blockTags are the elements whose tags the whitespace around is not
// shown beside.
var blockTags = map[string]bool{
	"aside": true, "blockquote": true, "details": true, "div": true, "figcaption": true, "figure": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "iframe": true, "li": true,
	"ol": true, "p": true, "pre": true, "section": true, "summary": true, "table": true, "td": true,
	"tr": true, "ul": true,
}

// themeClasses are the classes kakehashi gives its own components beside
// the author's, for its theme's stylesheet.
var themeClasses = map[string]bool{"details": true, "figure": true, "video": true}

// normalizeHTML writes h in a form in which what shows nothing of the
// page is left out: whitespace runs are one space, none beside a block's
// tag; attributes are sorted and quoted alike, entities written alike;
// and, on kakehashi's side, the theme's classes of its components
// (themeClasses) and the decoding attribute of a lazy image.
func normalizeHTML(h string, kakehashi bool) string {
	toks := tokenizeHTML(h)
	isBlock := func(i int) bool { return i >= 0 && i < len(toks) && blockTags[toks[i].name] }
	var b strings.Builder
	for i, t := range toks {
		if t.name == "" {
			s := strings.Join(strings.Fields(t.text), " ")
			if s == "" {
				if !isBlock(i-1) && !isBlock(i+1) && i > 0 && i < len(toks)-1 {
					b.WriteString(" ")
				}
				continue
			}
			if !isBlock(i-1) && i > 0 && strings.TrimLeft(t.text, " \t\r\n") != t.text {
				s = " " + s
			}
			if !isBlock(i+1) && i < len(toks)-1 && strings.TrimRight(t.text, " \t\r\n") != t.text {
				s += " "
			}
			b.WriteString(html.EscapeString(s))
			continue
		}
		if t.end {
			b.WriteString("</" + t.name + ">")
			continue
		}
		var attrs []string
		for _, a := range t.attrs {
			switch {
			case kakehashi && a[0] == "decoding":
				continue
			case kakehashi && a[0] == "class":
				var cs []string
				for _, c := range strings.Fields(a[1]) {
					if !themeClasses[c] {
						cs = append(cs, c)
					}
				}
				if len(cs) == 0 {
					continue
				}
				a[1] = strings.Join(cs, " ")
			}
			attrs = append(attrs, fmt.Sprintf(" %s=%q", a[0], html.EscapeString(a[1])))
		}
		sort.Strings(attrs)
		b.WriteString("<" + t.name + strings.Join(attrs, "") + ">")
	}
	return b.String()
}

// readCode reads the code blocks of h as a reader sees them: each one's
// language, line numbers (with the id each anchors), highlighted lines
// and text. It knows chroma's markup with classes (kakehashi's: a line
// is class "line", highlighted "hl", its number "ln" or "lnt") and with
// inline styles (Hugo's default: a line is display:flex, highlighted
// with a background-color, its number user-select:none).
func readCode(h string) string {
	var b strings.Builder
	var stack []string // the kinds of the open elements: "", "num", "code"
	inside := func(kind string) bool { return slices.Contains(stack, kind) }
	var lang, code string
	var nums, hl []string
	line := 0
	flush := func() {
		if code != "" || len(nums) > 0 {
			fmt.Fprintf(&b, "language %s\nnumbers %s\nhighlighted %s\ncode:\n%s\n", lang, strings.Join(nums, " "), strings.Join(hl, " "), code)
		}
		lang, code, nums, hl, line = "", "", nil, nil, 0
	}
	for _, t := range tokenizeHTML(h) {
		switch {
		case t.name == "":
			switch {
			case inside("num"):
				if s := strings.TrimSpace(t.text); s != "" {
					nums[len(nums)-1] += s
				}
			case inside("code"):
				code += t.text
			}
		case t.end:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if t.name == "figure" || t.name == "div" && !inside("code") && code != "" {
				flush()
			}
		default:
			attr := map[string]string{}
			for _, a := range t.attrs {
				attr[a[0]] = a[1]
			}
			classes := strings.Fields(attr["class"])
			style := attr["style"]
			kind := ""
			switch {
			case slices.Contains(classes, "ln") || slices.Contains(classes, "lnt") || strings.Contains(style, "user-select:none"):
				kind = "num"
				nums = append(nums, "")
				if id := attr["id"]; id != "" {
					nums[len(nums)-1] = "#" + id + "="
				}
			case t.name == "pre" || t.name == "code":
				kind = "code"
			case slices.Contains(classes, "line") || strings.HasPrefix(style, "display:flex"):
				line++
				if slices.Contains(classes, "hl") || strings.Contains(style, "background-color") {
					hl = append(hl, strconv.Itoa(line))
				}
			}
			if l := attr["data-lang"]; l != "" {
				lang = l
			}
			for _, c := range classes {
				if l, ok := strings.CutPrefix(c, "language-"); ok {
					lang = l
				}
			}
			if t.name != "img" && t.name != "br" && t.name != "input" {
				stack = append(stack, kind)
			}
		}
	}
	flush()
	return b.String()
}

// xxh64 is the XXH64 hash of b with seed 0 (github.com/Cyan4973/xxHash's
// specification), which Hugo's hash.XxHash writes in hex: the hash
// Hugo's tests assert a page's content by.
func xxh64(b []byte) uint64 {
	const (
		p1 uint64 = 11400714785074694791
		p2 uint64 = 14029467366897019727
		p3 uint64 = 1609587929392839161
		p4 uint64 = 9650029242287828579
		p5 uint64 = 2870177450012600261
	)
	round := func(acc, in uint64) uint64 { return bits.RotateLeft64(acc+in*p2, 31) * p1 }
	merge := func(acc, v uint64) uint64 { return (acc^round(0, v))*p1 + p4 }
	n := len(b)
	h := p5
	if n >= 32 {
		k1, k2 := p1, p2
		v := [4]uint64{k1 + k2, k2, 0, -k1}
		for ; len(b) >= 32; b = b[32:] {
			for i := range v {
				v[i] = round(v[i], binary.LittleEndian.Uint64(b[8*i:]))
			}
		}
		h = bits.RotateLeft64(v[0], 1) + bits.RotateLeft64(v[1], 7) + bits.RotateLeft64(v[2], 12) + bits.RotateLeft64(v[3], 18)
		for _, x := range v {
			h = merge(h, x)
		}
	}
	h += uint64(n)
	for ; len(b) >= 8; b = b[8:] {
		h = bits.RotateLeft64(h^round(0, binary.LittleEndian.Uint64(b)), 27)*p1 + p4
	}
	if len(b) >= 4 {
		h = bits.RotateLeft64(h^uint64(binary.LittleEndian.Uint32(b))*p1, 23)*p2 + p3
		b = b[4:]
	}
	for _, c := range b {
		h = bits.RotateLeft64(h^uint64(c)*p5, 11) * p1
	}
	h = (h ^ h>>33) * p2
	h = (h ^ h>>29) * p3
	return h ^ h>>32
}

// TestXXH64 checks xxh64 against the example of Hugo's hash.XxHash and
// against the reference's known hashes.
func TestXXH64(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want uint64
	}{
		{"", 0xef46db3751d8e999},
		{"abc", 0x44bc2cf5ad770999},
		{"The quick brown fox jumps over the lazy dog", 0x0b242d361fda71bc},
		{strings.Repeat("\x00", 100), 0x17bb1103c92c502f},
	} {
		if got := xxh64([]byte(tt.in)); got != tt.want {
			t.Errorf("xxh64(%q) = %016x, want %016x", tt.in, got, tt.want)
		}
	}
}
