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
	itemString                     // a quoted string; val is the unescaped value
	itemRawString                  // a `raw string`; val is its content
	itemWord                       // an unquoted value: integer, float, boolean or bare word
	itemLiteral                    // {{</* … */>}}; val is the text to print
)

// item is one token of a shortcode tag, with its byte offsets in the source.
type item struct {
	typ      itemType
	pos, end int
	val      string
}

// stateFn is one state of the lexer; it returns the next state, or nil when
// the tag is done.
type stateFn func(*lexer) stateFn

// lexer scans one shortcode tag in the style of Hugo's parser/pageparser: a
// loop of state functions emitting items. It reads src[start:limit] and
// never looks past limit.
type lexer struct {
	src      []byte
	limit    int
	start    int // start of the pending item
	pos      int // current offset
	markdown bool
	named    bool // the name has been lexed
	items    []item
}

// lexTag lexes the tag that begins with "{{" at src[off], reading no
// further than limit. The last item is itemRightDelim, itemLiteral or
// itemError.
func lexTag(src []byte, off, limit int) []item {
	limit = min(limit, len(src))
	l := &lexer{src: src, limit: limit, start: off, pos: off}
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

func (l *lexer) peek() (rune, int) {
	if l.pos >= l.limit {
		return -1, 0
	}
	return utf8.DecodeRune(l.rest())
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

func (l *lexer) skipSpace() {
	for l.pos < l.limit {
		switch l.src[l.pos] {
		case ' ', '\t', '\r', '\n':
			l.pos++
		default:
			l.start = l.pos
			return
		}
	}
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
	i := bytes.Index(l.src[l.pos+2:l.limit], []byte(end))
	if i < 0 {
		return l.errorf(l.start, "unterminated shortcode comment: expected %q", end)
	}
	body := string(l.src[l.pos+2 : l.pos+2+i])
	l.pos += 2 + i + len(end)
	l.emit(itemLiteral, l.left()+body+l.right())
	return nil
}

func lexInside(l *lexer) stateFn {
	l.skipSpace()
	r, _ := l.peek()
	switch {
	case r < 0:
		return l.errorf(l.pos, "unterminated shortcode: expected %q", l.right())
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
		if !l.hasPrefix(l.right()) {
			return l.errorf(slash, `unexpected "/" in shortcode: a self-closing shortcode ends with "/%s"`, l.right())
		}
		l.items = append(l.items, item{typ: itemSelfClose, pos: slash, end: slash + 1, val: "/"})
		return lexInside
	case !l.named:
		if !isWordRune(r) {
			return l.errorf(l.pos, "expected a shortcode name, found %s", quoteRune(r))
		}
		return lexName
	case r == '"':
		return lexQuoted
	case r == '`':
		return lexRaw
	case isWordRune(r):
		return lexWord
	default:
		return l.errorf(l.pos, "unexpected character %s in shortcode; quote values that are not numbers or booleans", quoteRune(r))
	}
}

func isWordRune(r rune) bool {
	return r == '_' || r == '-' || r == '.' || r == '+' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func quoteRune(r rune) string {
	if r == '\'' {
		return `"'"`
	}
	return strconv.QuoteRune(r)
}

func (l *lexer) scanWord() {
	for {
		r, n := l.peek()
		if r < 0 || !isWordRune(r) {
			return
		}
		l.pos += n
	}
}

// afterValue checks that a value is followed by a space, "/" or the right
// delimiter.
func afterValue(l *lexer) stateFn {
	r, _ := l.peek()
	if r == '/' {
		p := l.pos + 1
		for p < l.limit && (l.src[p] == ' ' || l.src[p] == '\t') {
			p++
		}
		if !bytes.HasPrefix(l.src[p:l.limit], []byte(l.right())) {
			return l.errorf(l.pos, "unexpected character '/' in shortcode; quote values that are not numbers or booleans")
		}
		return lexInside
	}
	switch {
	case r < 0, r == ' ', r == '\t', r == '\r', r == '\n', l.hasPrefix(l.right()),
		l.hasPrefix(">}}"), l.hasPrefix("%}}"):
		return lexInside
	}
	return l.errorf(l.pos, "unexpected character %s after a value; separate arguments with spaces", quoteRune(r))
}

func lexName(l *lexer) stateFn {
	l.scanWord()
	name := string(l.src[l.start:l.pos])
	l.emit(itemName, name)
	l.named = true
	return afterValue
}

// lexWord lexes an unquoted value, or an argument name when "=" follows.
func lexWord(l *lexer) stateFn {
	l.scanWord()
	word := string(l.src[l.start:l.pos])
	// An "=" after optional spaces makes the word an argument name.
	p := l.pos
	for p < l.limit && (l.src[p] == ' ' || l.src[p] == '\t') {
		p++
	}
	if p < l.limit && l.src[p] == '=' {
		if !isIdent(word) {
			return l.errorf(l.start, "invalid argument name %q", word)
		}
		end := l.pos
		l.pos = p + 1
		l.items = append(l.items, item{typ: itemParam, pos: l.start, end: end, val: word})
		l.skipSpace()
		r, _ := l.peek()
		switch {
		case r == '"':
			return lexQuoted
		case r == '`':
			return lexRaw
		case r >= 0 && isWordRune(r) && !l.hasPrefix(l.right()):
			l.scanWord()
			l.emit(itemWord, string(l.src[l.start:l.pos]))
			return afterValue
		}
		if r < 0 || l.hasPrefix(">}}") || l.hasPrefix("%}}") || r == '/' {
			return l.errorf(l.pos, "missing value for argument %q", word)
		}
		return l.errorf(l.pos, "unexpected character %s in shortcode; quote values that are not numbers or booleans", quoteRune(r))
	}
	l.emit(itemWord, word)
	return afterValue
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && (r == '-' || unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

func lexQuoted(l *lexer) stateFn {
	var b strings.Builder
	l.pos++ // opening quote
	for {
		r, n := l.peek()
		switch r {
		case -1, '\n':
			return l.errorf(l.start, "unterminated string")
		case '"':
			l.pos++
			l.emit(itemString, b.String())
			return afterValue
		case '\\':
			esc := l.pos
			l.pos++
			e, m := l.peek()
			l.pos += max(m, 0)
			switch e {
			case '"', '\\':
				b.WriteRune(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if l.pos+4 > l.limit {
					return l.errorf(esc, `invalid escape in string: \u needs four hex digits`)
				}
				v, err := strconv.ParseUint(string(l.src[l.pos:l.pos+4]), 16, 32)
				if err != nil {
					return l.errorf(esc, `invalid escape in string: \u needs four hex digits`)
				}
				l.pos += 4
				b.WriteRune(rune(v))
			case -1, '\n':
				return l.errorf(l.start, "unterminated string")
			default:
				return l.errorf(esc, `invalid escape "\%c" in string; use \" \\ \n \t or \uXXXX`, e)
			}
		default:
			b.Write(l.src[l.pos : l.pos+n])
			l.pos += n
		}
	}
}

func lexRaw(l *lexer) stateFn {
	i := bytes.IndexByte(l.src[l.pos+1:l.limit], '`')
	if i < 0 {
		return l.errorf(l.start, "unterminated raw string")
	}
	val := string(l.src[l.pos+1 : l.pos+1+i])
	l.pos += i + 2
	l.emit(itemRawString, val)
	return afterValue
}
