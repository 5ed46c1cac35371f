package render

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/parse/v2"
	csslex "github.com/tdewolff/parse/v2/css"
)

// Minifier shrinks the theme's stylesheets and scripts as they are
// published (the theme's sources stay readable), remembering each result
// by its input so that rebuilds do not redo it. It is safe for concurrent
// use.
//
// Stylesheets go through tdewolff/minify's CSS minifier, which keeps the
// whitespace CSS requires around + and - in calc(), clamp() and the other
// math functions, but reads an operator written without it as the sign of
// a number ("100%+.25rem" is two numbers) and drops it. A stylesheet whose
// math functions are well-formed and come out otherwise is published as
// written (MathErrors).
type Minifier struct {
	m    *minify.M
	mu   sync.Mutex
	done map[string][]byte // input bytes → minified
}

// NewMinifier returns a Minifier for CSS and JavaScript.
func NewMinifier() *Minifier {
	m := minify.New()
	m.Add("text/css", &css.Minifier{})
	m.Add("text/javascript", &js.Minifier{})
	return &Minifier{m: m, done: map[string][]byte{}}
}

// Minify returns data minified when p is a stylesheet or a script, and
// data itself otherwise or when the minifier cannot parse it.
func (a *Minifier) Minify(p string, data []byte) []byte {
	var mime string
	switch path.Ext(p) {
	case ".css":
		mime = "text/css"
	case ".js":
		mime = "text/javascript"
	default:
		return data
	}
	a.mu.Lock()
	out, ok := a.done[string(data)]
	a.mu.Unlock()
	if ok {
		return out
	}
	var buf bytes.Buffer
	switch err := a.m.Minify(mime, &buf, bytes.NewReader(data)); {
	case err != nil || buf.Len() >= len(data):
		out = data
	case mime == "text/css" && len(MathErrors(buf.Bytes())) > 0 && len(MathErrors(data)) == 0:
		out = data
	default:
		out = buf.Bytes()
	}
	a.mu.Lock()
	a.done[string(data)] = out
	a.mu.Unlock()
	return out
}

// mathFuncs are the CSS functions whose arguments are calculations
// (CSS Values and Units 4, section 10).
var mathFuncs = map[string]bool{
	"calc": true, "-webkit-calc": true, "min": true, "max": true, "clamp": true,
	"round": true, "mod": true, "rem": true, "abs": true, "sign": true,
	"sin": true, "cos": true, "tan": true, "asin": true, "acos": true, "atan": true, "atan2": true,
	"pow": true, "sqrt": true, "hypot": true, "log": true, "exp": true,
}

// MathErrors lists the calculations of a stylesheet that CSS does not
// accept, by line: in calc(), clamp(), min(), max() and the other math
// functions, + and - need whitespace on both sides, and two values need
// an operator between them. "calc(100%+.25rem)" and "calc(100% +.25rem)"
// are two numbers, "100%" and "+.25rem", and the declaration is dropped.
func MathErrors(stylesheet []byte) []string {
	type frame struct {
		math    bool
		operand bool // the last thing in it was a value
		start   int  // offset of the function's name
	}
	var (
		errs      []string
		stack     []frame
		offset    int
		ws        bool   // whitespace before this token
		needSpace string // the operator just read, which needs whitespace after it
	)
	reported := map[int]bool{}
	report := func(f *frame, what string) {
		if reported[f.start] {
			return // one error for each function
		}
		reported[f.start] = true
		errs = append(errs, mathError(stylesheet, f.start, what))
	}
	l := csslex.NewLexer(parse.NewInputBytes(stylesheet))
	for {
		tt, data := l.Next()
		if tt == csslex.ErrorToken {
			break
		}
		start := offset
		offset += len(data)
		if tt == csslex.CommentToken {
			continue
		}
		if tt == csslex.WhitespaceToken {
			ws, needSpace = true, ""
			continue
		}
		var top *frame
		if n := len(stack); n > 0 && stack[n-1].math {
			top = &stack[n-1]
		}
		if needSpace != "" {
			if top != nil {
				report(top, needSpace+" needs whitespace after it")
			}
			needSpace = ""
		}
		value := func() {
			if top == nil {
				return
			}
			if top.operand {
				report(top, "two values without an operator between them (+ and - need whitespace on both sides)")
			}
			top.operand = true
		}
		switch tt {
		case csslex.FunctionToken, csslex.LeftParenthesisToken:
			value()
			f := frame{math: top != nil, start: start}
			if tt == csslex.FunctionToken {
				f.math = mathFuncs[strings.ToLower(strings.TrimSuffix(string(data), "("))]
			}
			stack = append(stack, f)
		case csslex.RightParenthesisToken:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case csslex.NumberToken, csslex.PercentageToken, csslex.DimensionToken, csslex.IdentToken:
			value()
		case csslex.DelimToken:
			if top == nil {
				break
			}
			switch op := string(data); op {
			case "+", "-":
				if !ws || !top.operand {
					report(top, op+" needs a value and whitespace before it")
				}
				needSpace = op
				fallthrough
			case "*", "/":
				top.operand = false
			}
		case csslex.CommaToken:
			if top != nil {
				top.operand = false
			}
		case csslex.SemicolonToken, csslex.LeftBraceToken, csslex.RightBraceToken:
			stack = stack[:0] // an unbalanced declaration ends here
		}
		ws = false
	}
	return errs
}

// mathError says what is wrong with the math function that starts at
// byte start of stylesheet: its line, and the function as written.
func mathError(stylesheet []byte, start int, what string) string {
	end, depth := start, 0
	for end < len(stylesheet) {
		c := stylesheet[end]
		end++
		if c == '(' {
			depth++
		} else if c == ')' {
			if depth--; depth == 0 {
				break
			}
		}
	}
	line := 1 + bytes.Count(stylesheet[:start], []byte("\n"))
	return fmt.Sprintf("line %d: %s: %s", line, strings.Join(strings.Fields(string(stylesheet[start:end])), " "), what)
}
