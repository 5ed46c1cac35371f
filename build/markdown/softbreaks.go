package markdown

import (
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// softBreaks is the extension that decides what a soft line break
// becomes: nothing between two Japanese characters, a newline everywhere
// else (Korean, Latin, mixed), as CommonMark has it. goldmark's CJK
// extension is not used: it joins Korean words across line breaks.
type softBreaks struct{}

var _ goldmark.Extender = softBreaks{}

// Extend implements goldmark.Extender.
func (softBreaks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(softBreakTransformer{}, PrioritySoftBreakTransformer)))
}

// softBreakTransformer merges contiguous text nodes, then drops the soft
// breaks between Japanese characters.
type softBreakTransformer struct{}

var _ parser.ASTTransformer = softBreakTransformer{}

// Transform implements parser.ASTTransformer.
func (softBreakTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	mergeTexts(doc)
	trimHardBreaks(doc, reader.Source())
	joinJapanese(doc, reader.Source())
}

// trimHardBreaks drops the spaces before a hard line break of spaces, as
// CommonMark has it: goldmark trims them off the last text node of the
// line only, and where the line was split at a space (GFM autolinks try
// every one) the spaces are in the text before, which mergeTexts joined.
// A break written as a backslash keeps the spaces before it.
func trimHardBreaks(doc ast.Node, src []byte) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*ast.Text)
		if !entering || !ok || !t.HardLineBreak() || t.IsRaw() || t.Segment.Padding != 0 ||
			t.Segment.Stop < len(src) && src[t.Segment.Stop] == '\\' {
			return ast.WalkContinue, nil
		}
		seg := t.Segment
		for seg.Stop > seg.Start && src[seg.Stop-1] == ' ' {
			seg.Stop--
		}
		t.Segment = seg
		return ast.WalkContinue, nil
	})
}

// mergeTexts joins adjacent text nodes that are contiguous in the source
// (goldmark splits text where an inline parser was tried, and "#" in
// "&#50;" is such a place), so entities and soft breaks see whole words.
func mergeTexts(doc ast.Node) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		for c := n.FirstChild(); c != nil; {
			t, ok := c.(*ast.Text)
			next, ok2 := c.NextSibling().(*ast.Text)
			if !ok || !ok2 || t.SoftLineBreak() || t.HardLineBreak() || t.IsRaw() || next.IsRaw() ||
				t.Segment.Stop != next.Segment.Start || t.Segment.Padding != 0 || next.Segment.Padding != 0 {
				c = c.NextSibling()
				continue
			}
			t.Segment = t.Segment.WithStop(next.Segment.Stop)
			t.SetSoftLineBreak(next.SoftLineBreak())
			t.SetHardLineBreak(next.HardLineBreak())
			n.RemoveChild(n, next)
		}
		return ast.WalkContinue, nil
	})
}

// joinJapanese removes the soft line break between two Japanese
// characters; every other soft break (Korean, Latin, mixed) stays a
// newline.
func joinJapanese(doc ast.Node, src []byte) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*ast.Text)
		if !entering || !ok || !t.SoftLineBreak() {
			return ast.WalkContinue, nil
		}
		v := t.Value(src)
		if len(v) == 0 {
			return ast.WalkContinue, nil
		}
		last, _ := utf8.DecodeLastRune(v)
		next, ok := nextRune(t, src)
		if ok && isJapanese(last) && isJapanese(next) {
			t.SetSoftLineBreak(false)
		}
		return ast.WalkContinue, nil
	})
}

// nextRune returns the first character of the inline text that follows n
// within its block.
func nextRune(n ast.Node, src []byte) (rune, bool) {
	cur := n
	for cur.NextSibling() == nil {
		cur = cur.Parent()
		if cur == nil || cur.Type() != ast.TypeInline {
			return 0, false
		}
	}
	cur = cur.NextSibling()
	for {
		switch c := cur.(type) {
		case *ast.Text:
			v := c.Value(src)
			if len(v) == 0 {
				return 0, false
			}
			r, _ := utf8.DecodeRune(v)
			return r, true
		case *ast.String:
			if len(c.Value) == 0 {
				return 0, false
			}
			r, _ := utf8.DecodeRune(c.Value)
			return r, true
		case *PartRef:
			return '#', true
		}
		if cur.FirstChild() == nil {
			return 0, false
		}
		cur = cur.FirstChild()
	}
}

// isJapanese reports whether r is written in Japanese text without spaces
// around it: Han, Hiragana, Katakana, CJK punctuation and full-width forms.
func isJapanese(r rune) bool {
	switch {
	case r >= 0x3000 && r <= 0x30FF, // CJK punctuation, Hiragana, Katakana
		r >= 0x31F0 && r <= 0x31FF, // Katakana phonetic extensions
		r >= 0xFF00 && r <= 0xFF9F, // full-width forms, half-width Katakana
		r >= 0xFFE0 && r <= 0xFFEF:
		return true
	}
	return unicode.Is(unicode.Han, r)
}
