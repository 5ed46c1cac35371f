// Package highlight is part of the markdown stage: it turns code blocks
// into HTML with chroma, using CSS classes (never inline styles), and
// caches the result so a block shared by several pages (the translations
// of a part share their commands) is highlighted once.
package highlight

import (
	"bytes"
	"fmt"
	"html"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Default style names, used when New is given empty names.
const (
	DefaultLight = "github"
	DefaultDark  = "github-dark"
)

// Block is one code block to highlight.
type Block struct {
	Lang  string // info-string language; "" or unknown means plain text
	Code  string
	Title string // shown by the caller around the block; not part of the cache key
	Lines []int  // 1-based lines of the block to highlight
	// LineNumbers numbers the lines, in a column of their own or at the
	// start of each line.
	LineNumbers LineNumbers
	// LineStart is the number of the first line; 0 means 1. Lines count
	// from the block's first line whatever its number.
	LineStart int
	// Anchors, when not empty, makes each line number a link to itself:
	// its id is Anchors, "-" and the number. Only letters, digits, "-"
	// and "_" are kept of it.
	Anchors string
}

// LineNumbers says whether and where a block's lines are numbered.
type LineNumbers int

// The ways of numbering lines. The numbers are never part of the code:
// in a table they sit in a cell of their own, inline in spans that
// cannot be selected (chroma's .ln, user-select: none), and CopyText is
// the code alone.
const (
	NoLineNumbers LineNumbers = iota
	// LineNumbersTable puts the numbers in a column of their own, the
	// first cell of a table whose second holds the code (Hugo's
	// linenos=table, and its linenos=true).
	LineNumbersTable
	// LineNumbersInline starts each line with its number (Hugo's
	// linenos=inline).
	LineNumbersInline
)

// Rendered is a highlighted block.
type Rendered struct {
	// HTML is `<pre class="chroma" tabindex="0"><code>…</code></pre>`
	// holding the tokens; in a block with highlighted or numbered lines
	// each line is a `<span class="line">`, a highlighted one a
	// `<span class="line hl">`. With LineNumbersTable it is a focusable
	// `<div class="chroma">` (it scrolls) holding a table of two cells: a
	// <pre> of the numbers, and the <pre><code> of the code.
	HTML string
	// CopyText is what the copy button copies (see CopyText).
	CopyText string
}

// Highlighter highlights code blocks and caches the results. It is safe for
// concurrent use.
type Highlighter struct {
	light, dark *chroma.Style

	mu    sync.Mutex
	cache map[string]*entry
	order []string // keys in the order they were cached, when limited
	limit int      // most blocks kept; 0: no limit

	hits, misses atomic.Int64
}

// entry is one cached block; done is closed once r is set, so goroutines
// asking for a block being highlighted wait for it instead of redoing it.
type entry struct {
	done chan struct{}
	r    Rendered
}

// New returns a Highlighter using the chroma styles light and dark (by name;
// empty names select DefaultLight and DefaultDark).
func New(light, dark string) (*Highlighter, error) {
	if light == "" {
		light = DefaultLight
	}
	if dark == "" {
		dark = DefaultDark
	}
	ls, ok := styles.Registry[strings.ToLower(light)]
	if !ok {
		return nil, fmt.Errorf("highlight: unknown chroma style %q", light)
	}
	ds, ok := styles.Registry[strings.ToLower(dark)]
	if !ok {
		return nil, fmt.Errorf("highlight: unknown chroma style %q", dark)
	}
	return &Highlighter{light: ls, dark: ds, cache: map[string]*entry{}}, nil
}

// Default returns a Highlighter with the default styles, DefaultLight and
// DefaultDark, which are always registered: it cannot fail.
func Default() *Highlighter {
	h, err := New(DefaultLight, DefaultDark)
	if err != nil {
		panic(err) // chroma no longer has its own default styles
	}
	return h
}

// SetLimit bounds the cache to about n blocks, dropping the oldest first;
// 0 keeps every block. A build that renders the languages of a page one
// after the other needs only a few pages' worth to share their blocks.
func (h *Highlighter) SetLimit(n int) {
	h.mu.Lock()
	h.limit = n
	h.mu.Unlock()
}

// Stats reports how many Block calls were served from the cache (hits) and
// how many highlighted their block (misses).
func (h *Highlighter) Stats() (hits, misses int64) {
	return h.hits.Load(), h.misses.Load()
}

// Block highlights b, or returns the cached result of an identical block
// (same language, code and highlighted lines).
func (h *Highlighter) Block(b Block) Rendered {
	key := cacheKey(b)
	h.mu.Lock()
	if e, ok := h.cache[key]; ok {
		h.mu.Unlock()
		h.hits.Add(1)
		<-e.done
		return e.r
	}
	e := &entry{done: make(chan struct{})}
	h.cache[key] = e
	if h.limit > 0 {
		h.order = append(h.order, key)
		h.evict()
	}
	h.mu.Unlock()
	h.misses.Add(1)
	defer close(e.done)
	e.r = h.render(b)
	return e.r
}

// evict drops the oldest finished blocks beyond the limit. The caller holds
// h.mu.
func (h *Highlighter) evict() {
	for len(h.order) > h.limit {
		e := h.cache[h.order[0]]
		if e != nil {
			select {
			case <-e.done:
			default:
				return // still being highlighted: keep it for now
			}
			delete(h.cache, h.order[0])
		}
		h.order = h.order[1:]
	}
}

func cacheKey(b Block) string {
	var k strings.Builder
	k.WriteString(strings.ToLower(b.Lang))
	k.WriteByte(0)
	for i, l := range b.Lines {
		if i > 0 {
			k.WriteByte(',')
		}
		k.WriteString(strconv.Itoa(l))
	}
	if b.LineNumbers != NoLineNumbers {
		fmt.Fprintf(&k, "\x00%d,%d,%s", b.LineNumbers, b.LineStart, anchorPrefix(b.Anchors))
	}
	k.WriteByte(0)
	k.WriteString(b.Code)
	return k.String()
}

// anchorPrefix keeps of a line anchors' prefix what an id and a fragment
// take as they are: letters, digits, "-" and "_".
func anchorPrefix(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '-' || r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return r
		}
		return -1
	}, s)
}

// preWrapper writes the exact <pre> the theme expects: the code's is
// focusable, for a keyboard to scroll it, but in a table of line numbers
// (inTable), whose wrapper scrolls instead; the line numbers' is not.
type preWrapper struct{ inTable bool }

func (p preWrapper) Start(code bool, _ string) string {
	switch {
	case !code:
		return `<pre class="chroma">`
	case p.inTable:
		return `<pre class="chroma"><code>`
	}
	return `<pre class="chroma" tabindex="0"><code>`
}

func (preWrapper) End(code bool) string {
	if code {
		return `</code></pre>`
	}
	return `</pre>`
}

var _ chromahtml.PreWrapper = preWrapper{}

// Lexer returns the chroma lexer for an info-string language, or the plain
// text lexer when the language is empty or unknown.
func Lexer(lang string) chroma.Lexer {
	if lang != "" {
		if l := lexers.Get(strings.ToLower(lang)); l != nil {
			return l
		}
	}
	return lexers.Fallback
}

// newFormatter makes a formatter for a block with highlighted lines
// (ranges, in the lines' numbers) or numbered lines. A block with neither
// is written by writeTokens: chroma wraps every line in two spans, which
// only a highlighted or numbered line needs, and which make up a fifth of
// a code block's bytes.
func newFormatter(b Block, ranges [][2]int) *chromahtml.Formatter {
	opts := []chromahtml.Option{
		chromahtml.WithClasses(true),
		chromahtml.WithPreWrapper(preWrapper{inTable: b.LineNumbers == LineNumbersTable}),
		chromahtml.HighlightLines(ranges),
	}
	if b.LineNumbers != NoLineNumbers {
		opts = append(opts,
			chromahtml.WithLineNumbers(true),
			chromahtml.LineNumbersInTable(b.LineNumbers == LineNumbersTable),
			chromahtml.BaseLineNumber(firstLine(b)))
		if p := anchorPrefix(b.Anchors); p != "" {
			opts = append(opts, chromahtml.WithLinkableLineNumbers(true, p+"-"))
		}
	}
	return chromahtml.New(opts...)
}

// firstLine is the number of b's first line.
func firstLine(b Block) int {
	if b.LineStart > 0 {
		return b.LineStart
	}
	return 1
}

// tableMarkup makes chroma's table of line numbers what the theme needs:
// its wrapper, which scrolls, focusable; the table one of layout, not of
// data; the numbers hidden from screen readers when they are no links.
func tableMarkup(h string, anchors bool) string {
	h = strings.Replace(h, `<div class="chroma">`, `<div class="chroma" tabindex="0">`, 1)
	h = strings.Replace(h, `<table class="lntable">`, `<table class="lntable" role="presentation">`, 1)
	if !anchors {
		h = strings.Replace(h, "<td class=\"lntd\">\n<pre class=\"chroma\">", "<td class=\"lntd\" aria-hidden=\"true\">\n<pre class=\"chroma\">", 1)
	}
	return strings.TrimSuffix(h, "\n")
}

func (h *Highlighter) render(b Block) (r Rendered) {
	code := strings.ReplaceAll(b.Code, "\r\n", "\n")
	r.CopyText = CopyText(b.Lang, code)
	lines := append([]int(nil), b.Lines...)
	sort.Ints(lines)
	var ranges [][2]int
	shift := firstLine(b) - 1 // chroma's ranges are in the lines' numbers
	for _, l := range lines {
		l += shift
		if n := len(ranges); n > 0 && (ranges[n-1][1] == l || ranges[n-1][1]+1 == l) {
			ranges[n-1][1] = l
			continue
		}
		ranges = append(ranges, [2]int{l, l})
	}
	bare := len(ranges) == 0 && b.LineNumbers == NoLineNumbers
	buf := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(buf)
	buf.Reset()
	if bare {
		buf.WriteString(preWrapper{}.Start(true, ""))
	}
	err := func() (err error) {
		// A lexer bug must not stop the build: fall back to plain text.
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("highlight: lexer panic: %v", p)
			}
		}()
		if bare {
			it, err := Lexer(b.Lang).Tokenise(nil, code)
			if err != nil {
				return err
			}
			writeTokens(buf, it)
			return nil
		}
		it, err := chroma.Coalesce(Lexer(b.Lang)).Tokenise(nil, code)
		if err != nil {
			return err
		}
		return newFormatter(b, ranges).Format(buf, styles.Fallback, it)
	}()
	if bare && err == nil {
		buf.WriteString(preWrapper{}.End(true))
	}
	if err != nil {
		buf.Reset()
		buf.WriteString(`<pre class="chroma" tabindex="0"><code>`)
		buf.WriteString(html.EscapeString(code))
		buf.WriteString(`</code></pre>`)
	}
	r.HTML = buf.String()
	if err == nil && b.LineNumbers == LineNumbersTable {
		r.HTML = tableMarkup(r.HTML, anchorPrefix(b.Anchors) != "")
	}
	return r
}

// buffers holds the buffers blocks are written in before their HTML is
// copied out: most blocks then need no buffer to grow.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxRun is the most bytes of one token type chroma's coalescer joins
// into one token before it starts another (chroma.Coalesce).
const maxRun = 8192

// writeTokens writes the tokens of it as chroma's HTML formatter does
// with classes, and without its <pre> or the spans of lines, after
// chroma.Coalesce: each run of tokens of one type (up to maxRun bytes)
// is cut after each newline, and each piece is escaped, in a span of its
// type's class when it has one. It writes them straight into buf, with
// neither the coalesced tokens nor the lines chroma would make of them.
func writeTokens(buf *bytes.Buffer, it chroma.Iterator) {
	var (
		started bool
		typ     chroma.TokenType
		run     int    // bytes in the run so far
		class   string // the run's class
		open    bool   // a span of class is open
	)
	for tok := it(); tok != chroma.EOF; tok = it() {
		if tok.Value == "" {
			continue
		}
		if !started || tok.Type != typ || run >= maxRun {
			if open {
				buf.WriteString("</span>")
				open = false
			}
			started, typ, run, class = true, tok.Type, 0, tokenClass(tok.Type)
		}
		run += len(tok.Value)
		for v := tok.Value; v != ""; {
			piece := v
			nl := strings.IndexByte(v, '\n')
			if nl >= 0 {
				piece = v[:nl+1]
			}
			v = v[len(piece):]
			if class != "" && !open {
				buf.WriteString(`<span class="`)
				buf.WriteString(class)
				buf.WriteString(`">`)
				open = true
			}
			escapeTo(buf, piece)
			if nl >= 0 && open {
				buf.WriteString("</span>")
				open = false
			}
		}
	}
	if open {
		buf.WriteString("</span>")
	}
}

// tokenClass is the CSS class chroma's HTML formatter gives tokens of
// type t: its own, else its nearest parent's, "" for none.
func tokenClass(t chroma.TokenType) string {
	for ; t != 0; t = t.Parent() {
		if cls, ok := chroma.StandardTypes[t]; ok {
			return cls
		}
	}
	return chroma.StandardTypes[0]
}

// escapeTo writes s to buf escaped as html.EscapeString escapes it.
func escapeTo(buf *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '\'':
			esc = "&#39;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		default:
			continue
		}
		buf.WriteString(s[last:i])
		buf.WriteString(esc)
		last = i + 1
	}
	buf.WriteString(s[last:])
}

// fallbackHL is the highlighted-line background used when a style defines
// none, for the light and the dark style.
const (
	fallbackHLLight = "#fff8c5"
	fallbackHLDark  = "#3b3520"
)

// CSS returns the stylesheet for both styles: the light style at the top
// level, the dark style nested in :root:not([data-theme=light]) inside
// @media (prefers-color-scheme: dark), and again in :root[data-theme=dark]
// (the theme sets data-theme on <html> before the first paint: the
// reader's choice), all scoped to .chroma, each with a colour for
// highlighted lines (.hl). Nesting writes each scope once rather than
// before each selector. The bytes are the same on every call.
func (h *Highlighter) CSS() []byte {
	var b bytes.Buffer
	b.WriteString("/* code highlighting: light */\n")
	writeStyle(&b, "", h.light, fallbackHLLight)
	b.WriteString("/* code highlighting: dark */\n@media (prefers-color-scheme: dark) {\n  :root:not([data-theme=light]) {\n")
	writeStyle(&b, "    ", h.dark, fallbackHLDark)
	b.WriteString("  }\n}\n/* code highlighting: dark, chosen */\n:root[data-theme=dark] {\n")
	writeStyle(&b, "  ", h.dark, fallbackHLDark)
	b.WriteString("}\n")
	return b.Bytes()
}

// writeStyle writes the rules of s scoped to .chroma, each line indented,
// then the colour of highlighted lines.
func writeStyle(b *bytes.Buffer, indent string, s *chroma.Style, fallbackHL string) {
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithCSSComments(false))
	var css bytes.Buffer
	_ = f.WriteCSS(&css, s)
	// chroma writes one rule per token class, most of them sharing their
	// declarations with others (every keyword class is the same colour):
	// one rule per declaration block, at the place of its first class,
	// with every class that has it. Each class has one rule and a token
	// one class, so no rule comes to override another it did not before.
	var bodies []string
	selectors := map[string][]string{}
	for _, line := range strings.Split(css.String(), "\n") {
		if !strings.HasPrefix(line, ".chroma") {
			continue // chroma's unscoped ".bg" rule; .chroma has the same background
		}
		sel, body, ok := strings.Cut(line, "{")
		if !ok {
			continue
		}
		sel, body = strings.TrimSpace(sel), strings.TrimSpace(body)
		if _, seen := selectors[body]; !seen {
			bodies = append(bodies, body)
		}
		selectors[body] = append(selectors[body], sel)
	}
	for _, body := range bodies {
		fmt.Fprintf(b, "%s%s { %s\n", indent, strings.Join(selectors[body], ", "), body)
	}
	bg := fallbackHL
	if e := s.Get(chroma.LineHighlight); e.Background.IsSet() {
		bg = e.Background.String()
	}
	fmt.Fprintf(b, "%s.chroma .hl { background-color: %s; display: block; }\n", indent, bg)
}
