package shortcodes

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Kind is the type of an argument value.
type Kind int

// Argument types.
const (
	String Kind = iota // "quoted", `raw` or a bare word (2e3 and 1. among them, as in Hugo)
	Int                // 3, -1, +7
	Float              // 1.5, .5, -0.25
	Bool               // true, false

	// The looser types of the arguments of Hugo's built-ins, whose
	// templates take a value of any kind (.Get, then a comparison or a
	// cast): an ArgSpec may have them, a Value never does. kakehashi's
	// own shortcodes keep the strict ones.

	// HugoBool is true for true, 1 and "true", false for false, 0 and
	// "false", as Hugo's templates test them (in (slice "true" true 1));
	// any other value keeps the argument's default, as in Hugo, with a
	// warning. It is given as a bool.
	HugoBool
	// HugoInt is an integer, or a string of one ("600"), given as an
	// int64.
	HugoInt
	// HugoString is any value, as the text Hugo's template prints for it
	// (2024 is "2024", true "true"), given as a string.
	HugoString
)

// String names the kind as error messages do.
func (k Kind) String() string {
	switch k {
	case Int:
		return "integer"
	case Float:
		return "float"
	case Bool:
		return "boolean"
	case HugoBool:
		return "boolean (true, false, 1 or 0, quoted or not)"
	case HugoInt:
		return "integer (or a string of one)"
	}
	return "string"
}

// Value is one typed argument value.
type Value struct {
	Kind  Kind
	Str   string // String: the unescaped text
	Int   int64
	Float float64
	Bool  bool
}

// Any returns the value as a Go string, int64, float64 or bool.
func (v Value) Any() any {
	switch v.Kind {
	case Int:
		return v.Int
	case Float:
		return v.Float
	case Bool:
		return v.Bool
	}
	return v.Str
}

// Describe prints the value with its kind, as error messages show it:
// `string "x"`, `integer 3`.
func (v Value) Describe() string {
	switch v.Kind {
	case Int:
		return fmt.Sprintf("integer %d", v.Int)
	case Float:
		return "float " + strconv.FormatFloat(v.Float, 'g', -1, 64)
	case Bool:
		return fmt.Sprintf("boolean %t", v.Bool)
	}
	return fmt.Sprintf("string %q", v.Str)
}

// Arg is one argument of a call.
type Arg struct {
	Name  string // "" when positional
	Value Value
	Pos   int // byte offset of the argument (its name, or its value when positional)
}

// Call is one shortcode call found in a source.
type Call struct {
	Name string
	// Args are in source order. Named and positional arguments may be
	// mixed, {{< part series="ckad" 3 >}}: the positional ones count
	// among themselves (Shortcode.resolve).
	Args []Arg
	// Pos is the byte offset of the opening "{{"; End is just past the
	// closing tag of a pair, or past the opening tag otherwise; TagEnd is
	// just past the opening tag.
	Pos, TagEnd, End int
	NamePos          int    // byte offset of the name
	Paired           bool   // {{< x >}}…{{< /x >}}
	Inner            string // the raw text between the tags of a pair
	InnerPos         int    // byte offset of Inner
	Markdown         bool   // the {{% %}} form
	SelfClosing      bool   // {{< x />}}
	// Children are the calls inside Inner (Parse only; in the markdown
	// AST they are child nodes).
	Children []Call
}

// Delims returns the call's delimiters, "{{<" and ">}}" or "{{%" and "%}}".
func (c *Call) Delims() (left, right string) { return delims(c.Markdown) }

func delims(markdown bool) (string, string) {
	if markdown {
		return "{{%", "%}}"
	}
	return "{{<", ">}}"
}

// Error is a problem at a byte offset of the source.
type Error struct {
	Pos int
	Msg string
	// short: the tag ran into the limit it was read to, and might end
	// past it (a tag may span lines).
	short bool
	// warn: a warning, about an argument read as Hugo reads it though
	// likely meant otherwise; the call is still rendered.
	warn bool
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Pos, e.Msg) }

// tag is one lexed and checked shortcode tag.
type tag struct {
	pos, end    int
	markdown    bool
	closing     bool
	selfClosing bool
	literal     bool   // {{</* … */>}}
	text        string // literal: the text to print
	name        string
	namePos     int
	args        []Arg
	// warnings are about what Hugo accepts and the tag likely means
	// otherwise (an argument given twice).
	warnings []Error
}

func (t *tag) call() Call {
	return Call{Name: t.name, Args: t.args, Pos: t.pos, TagEnd: t.end, End: t.end, NamePos: t.namePos,
		Markdown: t.markdown, SelfClosing: t.selfClosing}
}

// parseTag reads the tag starting with "{{" at src[off], looking no further
// than limit.
func parseTag(src []byte, off, limit int) (tag, *Error) {
	return parseTagWith(src, off, limit, nil)
}

// parseTagWith is parseTag with the searches of a document's scan (nil
// for none).
func parseTagWith(src []byte, off, limit int, sc *scan) (tag, *Error) {
	t := tag{pos: off}
	items := lexTagWith(src, off, limit, sc)
	seen := map[string]int{} // argument name → index in t.args
	pending := false         // the last argument is named and waits for its value
	for _, it := range items {
		switch it.typ {
		case itemError:
			return t, &Error{Pos: it.pos, Msg: it.val, short: it.short}
		case itemLeftDelim:
			t.markdown = it.val == "{{%"
		case itemLiteral:
			t.literal, t.text, t.end = true, it.val, it.end
			t.markdown = bytes.HasPrefix(src[off:], []byte("{{%"))
			return t, nil
		case itemCloseMark:
			t.closing = true
		case itemSelfClose:
			if t.closing {
				return t, &Error{Pos: it.pos, Msg: fmt.Sprintf("closing shortcode %q cannot be self-closing", t.name)}
			}
			t.selfClosing = true
		case itemName:
			t.name, t.namePos = it.val, it.pos
		case itemParam:
			if t.closing {
				return t, &Error{Pos: it.pos, Msg: fmt.Sprintf("closing shortcode %q takes no arguments", t.name)}
			}
			if k, ok := seen[it.val]; ok {
				// Hugo keeps the last value.
				t.warnings = append(t.warnings, Error{Pos: it.pos, Msg: fmt.Sprintf("argument %q is given twice; the last value counts, as in Hugo", it.val)})
				t.args = append(t.args[:k], t.args[k+1:]...)
				for n, j := range seen {
					if j > k {
						seen[n] = j - 1
					}
				}
			}
			seen[it.val] = len(t.args)
			t.args = append(t.args, Arg{Name: it.val, Pos: it.pos})
			pending = true
		case itemString, itemRawString, itemWord:
			v := Value{Kind: String, Str: it.val}
			if it.typ == itemWord {
				v = wordValue(it)
			}
			if pending {
				t.args[len(t.args)-1].Value = v
				pending = false
				continue
			}
			if t.closing {
				return t, &Error{Pos: it.pos, Msg: fmt.Sprintf("closing shortcode %q takes no arguments", t.name)}
			}
			t.args = append(t.args, Arg{Value: v, Pos: it.pos})
		case itemRightDelim:
			t.end = it.end
		}
	}
	return t, nil
}

// wordValue types an unquoted value as hugolib does (Item.ValTyped in
// Hugo's parser/pageparser): true and false are booleans, [+-]digits an
// integer (a string when out of range), [+-]digits.digits a float with
// digits after the point (1.5, .5; 1. and 2e3 are strings), anything else
// a string.
func wordValue(it item) Value {
	w := it.val
	switch w {
	case "true", "false":
		return Value{Kind: Bool, Bool: w == "true"}
	}
	switch numberKind(w) {
	case Int:
		if n, err := strconv.ParseInt(w, 10, 64); err == nil {
			return Value{Kind: Int, Int: n}
		}
	case Float:
		if f, err := strconv.ParseFloat(w, 64); err == nil {
			return Value{Kind: Float, Float: f}
		}
	}
	return Value{Kind: String, Str: w}
}

// numberKind tells whether w is written as Hugo's integer ([+-]digits) or
// float ([+-][digits].digits); String otherwise.
func numberKind(w string) Kind {
	i := 0
	if i < len(w) && (w[i] == '+' || w[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intPart := digits()
	if i == len(w) {
		if intPart > 0 {
			return Int
		}
		return String
	}
	if w[i] != '.' {
		return String
	}
	i++
	if digits() == 0 || i != len(w) {
		return String
	}
	return Float
}

// nextTag returns the offset of the next "{{<" or "{{%" in src at or after
// from, or -1.
func nextTag(src []byte, from int) int {
	for i := from; i+2 < len(src); i++ {
		j := bytes.Index(src[i:], []byte("{{"))
		if j < 0 {
			return -1
		}
		i += j
		if i+2 < len(src) && (src[i+2] == '<' || src[i+2] == '%') {
			return i
		}
	}
	return -1
}

// resume returns where scanning continues after a tag starting at start
// failed at errPos: past the next "}}" on the same line, or the line's end.
func resume(src []byte, start, errPos int) int {
	p := max(errPos, start+2)
	for i := p; i < len(src); i++ {
		switch {
		case src[i] == '\n':
			return i
		case src[i] == '}' && i+1 < len(src) && src[i+1] == '}':
			return i + 2
		}
	}
	return len(src)
}

// open is a tag of Parse waiting for its closing tag, with the calls that
// follow it meanwhile.
type open struct {
	call     Call
	children []Call
}

// lastClosing returns, making it on first use, the offset of the last
// closing tag of each name in src.
func lastClosing(src []byte, m *map[string]int) map[string]int {
	if *m == nil {
		*m = map[string]int{}
		for i := nextTag(src, 0); i >= 0; i = nextTag(src, i+2) {
			if t, err := parseTag(src, i, len(src)); err == nil && t.closing {
				(*m)[t.name] = i
			}
		}
	}
	return *m
}

// compact merges into their parents the tags of stack (above the root)
// that no closing tag follows after off — single calls, not pairs — and
// tells whether stack then holds at most MaxNesting pairs.
func compact(stack *[]*open, closes map[string]int, off int) bool {
	s := (*stack)[:1]
	for _, o := range (*stack)[1:] {
		if closes[o.call.Name] > off {
			s = append(s, o)
			continue
		}
		p := s[len(s)-1]
		p.children = append(p.children, o.call)
		p.children = append(p.children, o.children...)
	}
	*stack = s
	return len(s) <= MaxNesting
}

// nestingMsg is the error for a pair nested deeper than MaxNesting.
const nestingMsg = "shortcode %q is nested deeper than %d pairs: nest shortcodes less deeply (pairs past that depth are read as single tags)"

// Parse finds every shortcode call in src, treated as plain text (it does
// not know markdown code spans: use Registry.Check for a page), and pairs
// opening and closing tags. It reports syntax errors and closing tags that
// close nothing; which names exist and what arguments they take is the
// Registry's business (Registry.Validate). A tag is paired when a closing
// tag with its name follows before its parent's closing tag. Pairs nest
// at most MaxNesting deep: a deeper one is one error, and it and the pairs
// inside it are left out of the result with their closing tags (the calls
// they hold are kept, in the deepest pair).
func Parse(path string, src []byte) ([]Call, diag.List) {
	var errs diag.List
	stack := []*open{{}}
	var closes map[string]int // name → offset of its last closing tag, made when pairs get deep
	var flat []string         // names of the pairs opened past MaxNesting, innermost last
	tooDeep := false
	// unpaired turns the open tag on top of the stack into a plain call
	// followed by the calls it tentatively held.
	unpaired := func() {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		parent := stack[len(stack)-1]
		parent.children = append(parent.children, top.call)
		parent.children = append(parent.children, top.children...)
	}
	for i := 0; ; {
		j := nextTag(src, i)
		if j < 0 {
			break
		}
		t, err := parseTag(src, j, len(src))
		if err != nil {
			errs = append(errs, diag.At(path, src, err.Pos, "%s", err.Msg))
			i = resume(src, j, err.Pos)
			continue
		}
		i = t.end
		for _, w := range t.warnings {
			errs = append(errs, diag.At(path, src, w.Pos, "%s", w.Msg).AsWarning())
		}
		switch {
		case t.literal:
		case t.closing && len(flat) > 0 && flat[len(flat)-1] == t.name:
			flat = flat[:len(flat)-1]
		case t.closing:
			k := len(stack) - 1
			for k > 0 && stack[k].call.Name != t.name {
				k--
			}
			if k == 0 {
				l, r := delims(t.markdown)
				errs = append(errs, diag.At(path, src, t.pos, "unexpected closing shortcode %q: no %s %s %s is open", "/"+t.name, l, t.name, r))
				continue
			}
			for len(stack)-1 > k {
				unpaired()
			}
			top := stack[k]
			stack = stack[:k]
			c := top.call
			c.Paired, c.InnerPos, c.Inner, c.End, c.Children = true, c.TagEnd, string(src[c.TagEnd:t.pos]), t.end, top.children
			if isInline(c.Name) && len(c.Children) > 0 {
				errs = append(errs, diag.At(path, src, c.Children[0].Pos, "%s", nestedInInline(&c.Children[0], &c)))
			}
			stack[k-1].children = append(stack[k-1].children, c)
		case t.selfClosing:
			top := stack[len(stack)-1]
			top.children = append(top.children, t.call())
		case len(flat) > 0 || len(stack) > MaxNesting && !compact(&stack, lastClosing(src, &closes), t.pos):
			if closes[t.name] <= t.pos {
				// No closing tag follows: a single call, not a pair.
				top := stack[len(stack)-1]
				top.children = append(top.children, t.call())
				break
			}
			if !tooDeep {
				tooDeep = true
				errs = append(errs, diag.At(path, src, t.pos, nestingMsg, t.name, MaxNesting))
			}
			flat = append(flat, t.name)
		default:
			stack = append(stack, &open{call: t.call()})
		}
	}
	for len(stack) > 1 {
		unpaired()
	}
	return stack[0].children, errs
}

// isInline reports the name of a Hugo inline shortcode, NAME.inline.
func isInline(name string) bool { return strings.HasSuffix(name, inlineSuffix) }

// nestedInInline is the error for a call inside an inline shortcode.
func nestedInInline(c, in *Call) string {
	return fmt.Sprintf("shortcode %q inside the inline shortcode %q: an inline shortcode's inner text is its template, which holds no shortcode (Hugo refuses it too)", c.Name, in.Name)
}
