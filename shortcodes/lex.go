package shortcodes

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// itemType identifies the kind of a lexed item.
type itemType int

const (
	itemError      itemType = iota // val is the message
	itemLeftDelim                  // "{{<" or "{{%"
	itemRightDelim                 // ">}}" or "%}}"
	itemCloseMark                  // "/" before the name: a closing tag
	itemSelfClose                  // "/" before the right delimiter
	itemName                       // the shortcode's name
	itemParam                      // an argument name; the "=" is consumed with it
	itemString                     // a quoted string; val is its value
	itemRawString                  // a `raw string`; val is its content
	itemWord                       // an unquoted value: integer, float, boolean or bare word
	itemLiteral                    // {{</* … */>}}; val is the text to print
)

// item is one token of a shortcode tag, with its byte offsets in the source.
type item struct {
	typ      itemType
	pos, end int
	val      string
	short    bool // an error where the tag ran into the limit: it might end past it
}

// stateFn is one state of the lexer; it returns the next state, or nil when
// the tag is done.
type stateFn func(*lexer) stateFn

// lexer scans one shortcode tag in the style of Hugo's parser/pageparser: a
// loop of state functions emitting items. It reads src[start:limit] and
// never looks past limit.
//
// What it accepts is what Hugo v0.169.0's lexer accepts (its test table is
// testdata/hugo-lexer/cases.txt): a tag may span lines; a value is a
// "quoted string" (in which only \" is an escape), a `raw string` (which
// may span lines), several of them written next to each other, or an
// unquoted word; a named value (name=value) runs to the next space; a
// positional word holds letters, digits, "-", "_" and "."; a name may hold
// "/" (test/hello, a template in a subfolder).
type lexer struct {
	src      []byte
	limit    int
	start    int // start of the pending item
	pos      int // current offset
	markdown bool
	named    bool // the name has been lexed
	items    []item
	scan     *scan // remembers searches across the tags of a document; nil for none
}

// index returns the offset of the first needle at or after from before
// the limit, or -1.
func (l *lexer) index(from int, needle string) int {
	if l.scan != nil && &l.scan.src[0] == &l.src[0] {
		return l.scan.index(from, l.limit, needle)
	}
	if i := bytes.Index(l.src[from:l.limit], []byte(needle)); i >= 0 {
		return from + i
	}
	return -1
}

// lexTag lexes the tag that begins with "{{" at src[off], reading no
// further than limit. The last item is itemRightDelim, itemLiteral or
// itemError.
func lexTag(src []byte, off, limit int) []item { return lexTagWith(src, off, limit, nil) }

// lexTagWith is lexTag with the searches of a document's scan (nil for
// none).
func lexTagWith(src []byte, off, limit int, sc *scan) []item {
	limit = min(limit, len(src))
	l := &lexer{src: src, limit: limit, start: off, pos: off, scan: sc}
	for state := lexLeftDelim; state != nil; {
		state = state(l)
	}
	return l.items
}

func (l *lexer) rest() []byte { return l.src[l.pos:l.limit] }

func (l *lexer) hasPrefix(s string) bool { return bytes.HasPrefix(l.rest(), []byte(s)) }

func (l *lexer) emit(t itemType, val string) {
	l.items = append(l.items, item{typ: t, pos: l.start, end: l.pos, val: val})
	l.start = l.pos
}

// errorf emits an error item at offset pos and stops the lexer.
func (l *lexer) errorf(pos int, format string, args ...any) stateFn {
	l.items = append(l.items, item{typ: itemError, pos: pos, end: pos, val: fmt.Sprintf(format, args...)})
	return nil
}

// shortf emits an error item at pos for a tag that the limit cut short,
// which more of the source might complete, and stops the lexer.
func (l *lexer) shortf(pos int, format string, args ...any) stateFn {
	l.items = append(l.items, item{typ: itemError, pos: pos, end: pos, val: fmt.Sprintf(format, args...), short: true})
	return nil
}

func (l *lexer) peek() (rune, int) {
	if l.pos >= l.limit {
		return -1, 0
	}
	return utf8.DecodeRune(l.rest())
}

// peekAt returns the byte at offset p, or 0 at or past the limit.
func (l *lexer) peekAt(p int) byte {
	if p >= l.limit {
		return 0
	}
	return l.src[p]
}

func (l *lexer) right() string {
	if l.markdown {
		return "%}}"
	}
	return ">}}"
}

func (l *lexer) left() string {
	if l.markdown {
		return "{{%"
	}
	return "{{<"
}

// isSpace reports an ASCII space, the characters Hugo skips between the
// parts of a tag: newlines among them, so a tag may span lines.
func isSpace(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// spaceEnd returns the offset of the first byte at or after p that is not
// a space, or the limit.
func (l *lexer) spaceEnd(p int) int {
	for p < l.limit && isSpace(l.src[p]) {
		p++
	}
	return p
}

func (l *lexer) skipSpace() {
	l.pos = l.spaceEnd(l.pos)
	l.start = l.pos
}

func lexLeftDelim(l *lexer) stateFn {
	switch {
	case l.hasPrefix("{{<"):
	case l.hasPrefix("{{%"):
		l.markdown = true
	default:
		return l.errorf(l.pos, `expected "{{<" or "{{%%"`)
	}
	l.pos += 3
	if l.hasPrefix("/*") {
		return lexComment
	}
	l.emit(itemLeftDelim, l.left())
	return lexInside
}

// lexComment lexes {{</* … */>}}, which prints {{< … >}} literally.
func lexComment(l *lexer) stateFn {
	end := "*/" + l.right()
	i := l.index(l.pos+2, end)
	if i < 0 {
		return l.shortf(l.start, "unterminated shortcode comment: expected %q", end)
	}
	body := string(l.src[l.pos+2 : i])
	l.pos = i + len(end)
	l.emit(itemLiteral, l.left()+body+l.right())
	return nil
}

// unexpected is the message for a character that cannot be where it is.
const unexpected = `unexpected character %s in shortcode; a value with characters other than letters, digits, "-", "_" and "." is quoted, or named (name=value)`

func lexInside(l *lexer) stateFn {
	l.skipSpace()
	r, _ := l.peek()
	switch {
	case r < 0:
		return l.shortf(l.pos, "unterminated shortcode: expected %q", l.right())
	case l.hasPrefix(l.right()):
		if !l.named {
			return l.errorf(l.pos, "missing shortcode name")
		}
		l.pos += 3
		l.emit(itemRightDelim, l.right())
		return nil
	case l.hasPrefix(">}}") || l.hasPrefix("%}}"):
		return l.errorf(l.pos, "shortcode opened with %q must end with %q", l.left(), l.right())
	case r == '/':
		slash := l.pos
		l.pos++
		if !l.named {
			if len(l.items) > 1 {
				return l.errorf(l.start, `unexpected "/" in shortcode`)
			}
			l.emit(itemCloseMark, "/")
			return lexInside
		}
		l.skipSpace()
		if l.pos >= l.limit {
			return l.shortf(l.pos, "unterminated shortcode: expected %q", l.right())
		}
		if !l.hasPrefix(l.right()) {
			return l.errorf(slash, `unexpected "/" in shortcode: a value holding "/" is quoted or named (src=a/b.png), and a self-closing shortcode ends with "/%s"`, l.right())
		}
		l.items = append(l.items, item{typ: itemSelfClose, pos: slash, end: slash + 1, val: "/"})
		return lexInside
	case r == '\\':
		// Hugo skips a backslash between arguments; \" opens a string
		// that \" (or ") closes.
		switch l.peekAt(l.pos + 1) {
		case '"':
			if !l.named {
				return l.errorf(l.pos, "expected a shortcode name, found %s", quoteRune(r))
			}
			return lexEscapedQuoted
		case '`':
			return l.errorf(l.pos, rawEscape)
		}
		l.pos++
		return lexInside
	case !l.named:
		if !isNameStart(r) {
			return l.errorf(l.pos, "expected a shortcode name, found %s", quoteRune(r))
		}
		return lexName
	case r == '"':
		return lexQuoted
	case r == '`':
		return lexRaw
	case r == '-' || isNameStart(r):
		return lexWord
	case r == '=':
		return l.errorf(l.pos, `missing argument name before "="`)
	default:
		return l.errorf(l.pos, unexpected, quoteRune(r))
	}
}

// rawEscape is the error for \` outside a quoted string.
const rawEscape = "invalid escape \"\\`\" in shortcode: a raw string is written `…`, with no backslash"

// isNameStart reports a character a shortcode's name may start with:
// a letter, a digit or "_".
func isNameStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isWordRune reports a character of an unquoted positional value or of
// an argument's name: a letter, a digit, "_", "-" or "." (the first is no
// ".").
func isWordRune(r rune) bool {
	return r == '-' || r == '.' || isNameStart(r)
}

func quoteRune(r rune) string {
	if r == '\'' {
		return `"'"`
	}
	return strconv.QuoteRune(r)
}

// scanWhile advances past the characters ok accepts.
func (l *lexer) scanWhile(ok func(rune) bool) {
	for {
		r, n := l.peek()
		if r < 0 || !ok(r) {
			return
		}
		l.pos += n
	}
}

// lexName lexes the shortcode's name: letters, digits, "_", "-", and "/"
// for a template in a subfolder (test/hello). A "." is Hugo's mark of an
// inline shortcode, NAME.inline, and refused elsewhere; a "/" that ends
// the name right before the closing delimiter closes the tag
// ({{< x/>}}).
func lexName(l *lexer) stateFn {
	nameRune := func(r rune) bool { return r == '-' || r == '/' || isNameStart(r) }
	l.scanWhile(nameRune)
	if l.peekAt(l.pos) == '.' {
		after, _ := utf8.DecodeRune(l.src[min(l.pos+len(inlineSuffix), l.limit):l.limit])
		if !bytes.HasPrefix(l.src[l.pos:l.limit], []byte(inlineSuffix)) || nameRune(after) || after == '.' {
			return l.errorf(l.pos, `unexpected "." in a shortcode name: only an inline shortcode's name, NAME%s, holds one`, inlineSuffix)
		}
		l.pos += len(inlineSuffix)
	}
	end := l.pos
	for end > l.start+1 && l.src[end-1] == '/' && bytes.HasPrefix(l.src[l.spaceEnd(l.pos):l.limit], []byte(l.right())) {
		end--
	}
	l.pos = end
	l.emit(itemName, string(l.src[l.start:end]))
	l.named = true
	return lexInside
}

// inlineSuffix ends the name of a Hugo inline shortcode, whose inner text
// is its template.
const inlineSuffix = ".inline"

// lexWord lexes an unquoted positional value, or an argument's name when
// "=" follows (after spaces, newlines among them).
func lexWord(l *lexer) stateFn {
	l.scanWhile(isWordRune)
	word := string(l.src[l.start:l.pos])
	p := l.spaceEnd(l.pos)
	if l.peekAt(p) != '=' {
		l.emit(itemWord, word)
		return lexInside
	}
	l.items = append(l.items, item{typ: itemParam, pos: l.start, end: l.pos, val: word})
	l.pos = p + 1
	l.skipSpace()
	return lexValue(l, word)
}

// lexValue lexes the value of the argument called name, after its "=".
func lexValue(l *lexer, name string) stateFn {
	r, _ := l.peek()
	switch {
	case r == '"':
		return lexQuoted
	case r == '`':
		return lexRaw
	case r == '\\' && l.peekAt(l.pos+1) == '"':
		return lexEscapedQuoted
	case r == '\\' && l.peekAt(l.pos+1) == '`':
		return l.errorf(l.pos, rawEscape)
	case r == '\\':
		return l.errorf(l.pos, `unexpected "\" in the value of %q: a value that starts with a backslash is a string written \"…\"`, name)
	case r < 0:
		return l.shortf(l.pos, "missing value for argument %q", name)
	case l.hasPrefix(">}}") || l.hasPrefix("%}}"):
		return l.errorf(l.pos, "missing value for argument %q", name)
	}
	// A named value runs to the next space, as in Hugo: src=a/b.png,
	// url=https://example.com/?q=1. It also ends at the closing
	// delimiter (Hugo would read that into the value and find the tag
	// unclosed), a "/" right before which closes the tag.
	for l.pos < l.limit && !isSpace(l.src[l.pos]) && !l.hasPrefix(l.right()) {
		_, n := l.peek()
		l.pos += n
	}
	if l.pos > l.start+1 && l.src[l.pos-1] == '/' && l.hasPrefix(l.right()) {
		l.pos--
	}
	l.emit(itemWord, string(l.src[l.start:l.pos]))
	return lexInside
}

// lexQuoted lexes a "quoted string". As in Hugo, \" is its only escape:
// any other backslash stays ("a\nb" is a, backslash, n, b), except that in
// a string holding an escaped quote every backslash is dropped. It ends on
// its line (a raw string may span lines).
func lexQuoted(l *lexer) stateFn {
	l.pos++ // opening quote
	escapedQuote := false
	for {
		switch c := l.peekAt(l.pos); {
		case l.pos >= l.limit, c == '\n':
			// Quoted strings never span lines: the limit, a line's end or
			// the end of the source, does not cut this one short.
			return l.errorf(l.start, "unterminated string")
		case c == '"':
			val := string(l.src[l.start+1 : l.pos])
			if escapedQuote {
				val = strings.ReplaceAll(val, `\`, "")
			}
			l.pos++
			l.emit(itemString, val)
			return lexInside
		case c == '\\' && l.peekAt(l.pos+1) == '"':
			escapedQuote = true
			l.pos += 2
		case c == '\\' && l.peekAt(l.pos+1) == '`':
			return l.errorf(l.pos, "invalid escape \"\\`\" in string: only \\\" is an escape")
		default:
			l.pos++
		}
	}
}

// lexEscapedQuoted lexes a string written \"…\" (Hugo accepts it as a
// value): it ends at the next \" or ".
func lexEscapedQuoted(l *lexer) stateFn {
	l.pos += 2 // \"
	from := l.pos
	for {
		switch c := l.peekAt(l.pos); {
		case l.pos >= l.limit, c == '\n':
			return l.errorf(l.start, `unterminated string: a value opened with \" ends with \" on its line`)
		case c == '"', c == '\\' && l.peekAt(l.pos+1) == '"':
			val := string(l.src[from:l.pos])
			if c == '\\' {
				l.pos++
			}
			l.pos++
			l.emit(itemString, val)
			return lexInside
		case c == '\\' && l.peekAt(l.pos+1) == '`':
			return l.errorf(l.pos, "invalid escape \"\\`\" in string: only \\\" is an escape")
		default:
			l.pos++
		}
	}
}

func lexRaw(l *lexer) stateFn {
	i := l.index(l.pos+1, "`")
	if i < 0 {
		return l.shortf(l.start, "unterminated raw string")
	}
	val := string(l.src[l.pos+1 : i])
	l.pos = i + 1
	l.emit(itemRawString, val)
	return lexInside
}
