// Package markdown is the markdown stage, with packages highlight and
// shortcodes plugged in: it renders kakehashi's markdown documents to HTML
// with goldmark: GFM, footnotes, soft line breaks that suit Japanese and
// Korean, heading IDs for every script with self-links, a table of
// contents, highlighted code blocks with copy buttons, and "#N" links to
// the parts of a series. One Renderer serves every page, in parallel;
// per-document data travels in the goldmark parser.Context (see EnvFrom).
//
// Each feature is one goldmark extension in one file, combined only in New:
// part links "#N" (partlinks.go), code figures and fence info strings
// (codeblocks.go), table wrappers (tables.go), heading IDs and self-links
// (headingids.go), soft line breaks (softbreaks.go). Other packages plug in
// through Options.Extenders; the shortcodes extension does, and its
// priorities are kept here too, so one table orders everything added to
// goldmark (priorities.go; goldmark runs the lower number first):
//
//	Block parsers
//	  150    PriorityShortcodeBlock        a call alone on its line; before
//	                                       thematic breaks (200), lists and
//	                                       paragraphs (1000), which it interrupts
//	  850    PriorityDividerBlock          Hugo's summary divider "<!--more-->"
//	                                       (more.go); before HTML blocks (900)
//	Inline parsers
//	  150    PriorityShortcodeInline       after code spans (100): `{{< x >}}`
//	                                       stays code; before links (200)
//	  350    PriorityDividerInline         the divider inside a line; before
//	                                       raw HTML (400)
//	  600    PriorityPartLinkParser        "#N"; after code spans, links, raw
//	                                       HTML, emphasis (100–500), before
//	                                       linkify (999)
//	AST transformers
//	   50    PriorityShortcodeTransformer  pairs inline tags first, so the
//	                                       rest see a pair's content inside it
//	   60    PriorityCodeSourceTransformer a highlight call becomes a code
//	                                       figure, before links and "#N"
//	   70    PriorityResolveTransformer    ref, relref and param resolve, and
//	                                       a ref in a link's destination
//	                                       becomes the link's, before links
//	  900    PriorityLinkTransformer       links' destinations through
//	                                       Env.Link, before the export's
//	                                       explicit index links (1000)
//	10000    PriorityPartLinkTransformer   after goldmark's (footnotes: 999);
//	                                       turns "#N" in links and headings
//	                                       back into text, before heading IDs
//	                                       and soft breaks read that text
//	10100    PriorityCodeBlockTransformer  code blocks become figures
//	10200    PriorityTableTransformer      tables get their scrolling wrapper
//	10300    PriorityHeadingIDTransformer  IDs and self-links, from the text
//	                                       the part links left
//	10400    PrioritySoftBreakTransformer  last: merges the text nodes the
//	                                       others made, then joins Japanese
//	                                       lines
//	Node renderers
//	  100    PriorityRenderer              each for kinds of its own, below
//	                                       goldmark's HTML renderer (1000)
package markdown

import (
	"bytes"
	"context"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/i18n"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// Options configures a Renderer.
type Options struct {
	// Highlighter highlights fenced and indented code; nil means a default
	// one ("github" and "github-dark").
	Highlighter *highlight.Highlighter
	// Unsafe lets raw HTML through; by default it is omitted.
	Unsafe bool
	// Extenders are added to the goldmark instance (shortcodes, ...).
	Extenders []goldmark.Extender
}

// Doc is one markdown document. Src is the whole file; the body starts at
// BodyStart (after front matter); diagnostics use offsets into Src so lines
// match the file.
type Doc struct {
	Path      string
	Src       []byte
	BodyStart int
}

// Heading is one entry of a table of contents.
type Heading struct {
	Level    int
	ID       string
	Text     string
	Children []Heading
}

// Result is a rendered document.
type Result struct {
	HTML     []byte
	TOC      []Heading // h2–h4, nested by level
	Text     string    // plain text of the body, code blocks excluded
	CodeText string    // text of the code blocks, for search
	Diags    diag.List // positions relative to Doc.Path and Doc.Src
	// IDs are the ids the body's HTML defines, in order: the headings',
	// the footnotes', the shortcodes'.
	IDs []string
	// Links are the body's internal links, as Env.Link resolved them (none
	// without Env.Link), in document order.
	Links []Link
	// Outline is the body's headings and code blocks, in order.
	Outline []Block
	// Styles and Scripts are the stylesheets and scripts the body's
	// components need (Env.Need), site-absolute, each once, in the order
	// first needed: what the page links beyond its theme's own.
	Styles, Scripts []string
}

// Renderer renders documents. It is safe for concurrent use.
type Renderer struct {
	md goldmark.Markdown
	hl *highlight.Highlighter
}

// New returns a Renderer configured by opts.
func New(opts Options) *Renderer {
	hl := opts.Highlighter
	if hl == nil {
		hl = highlight.Default()
	}
	r := &Renderer{hl: hl}
	rendererOpts := []goldmark.Option{}
	htmlOpts := []renderer.Option{}
	if opts.Unsafe {
		htmlOpts = append(htmlOpts, html.WithUnsafe())
	}
	exts := []goldmark.Extender{
		// GFM, with table cell alignment as attributes, not inline styles.
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
		extension.Strikethrough,
		extension.Linkify,
		extension.TaskList,
		extension.Footnote,
		// kakehashi's own, one extension per feature; the priorities table
		// in the package comment orders them.
		partLinks{},
		&codeBlocks{hl: hl},
		tableWraps{},
		images{},
		headingIDs{},
		softBreaks{},
		links{},
		dividers{},
		resolvers{},
	}
	exts = append(exts, opts.Extenders...)
	rendererOpts = append(rendererOpts,
		goldmark.WithExtensions(exts...),
		goldmark.WithParserOptions(parser.WithAttribute()),
		goldmark.WithRendererOptions(htmlOpts...),
	)
	r.md = goldmark.New(rendererOpts...)
	return r
}

// Render renders doc for the page described by env. Problems in the
// document are reported in Result.Diags, never by panicking, at most
// diag.PerFile of them and then how many more. A page whose lists and
// block quotes nest deeper than MaxNesting is reported and not parsed.
func (r *Renderer) Render(ctx context.Context, doc Doc, env Env) (res Result) {
	start := min(max(doc.BodyStart, 0), len(doc.Src))
	st := &docState{ctx: ctx, path: doc.Path, full: doc.Src, body: doc.Src[start:], bodyStart: start,
		fallback: i18n.WithFallback(env.Lang, nil)}
	e := &env
	e.st = st
	defer func() {
		if p := recover(); p != nil {
			e.Report(diag.Error, 0, "markdown: internal error: %v", p)
			res = Result{}
		}
		st.mu.Lock()
		res.Diags = append(res.Diags, st.diags...)
		st.mu.Unlock()
		res.Diags.Sort()
		res.Diags = res.Diags.CapPerFile(diag.PerFile)
	}()
	if err := ctx.Err(); err != nil {
		res.Diags = append(res.Diags, diag.File(doc.Path, "markdown: %v", err))
		return res
	}
	if off := tooDeep(st.body, MaxNesting); off >= 0 {
		e.Report(diag.Error, off, nestingMsg, MaxNesting)
		return res
	}
	pc := parser.NewContext()
	pc.Set(envKey, e)
	root := r.md.Parser().Parse(text.NewReader(st.body), parser.WithContext(pc))
	if err := ctx.Err(); err != nil {
		res.Diags = append(res.Diags, diag.File(doc.Path, "markdown: %v", err))
		return res
	}
	var buf bytes.Buffer
	buf.Grow(3 * len(st.body)) // HTML with highlighted code: a few times the markdown
	if err := r.md.Renderer().Render(&buf, st.body, root); err != nil {
		res.Diags = append(res.Diags, diag.File(doc.Path, "markdown: %v", err))
	}
	res.HTML = buf.Bytes()
	res.IDs = HTMLIDs(res.HTML)
	res.Links = finishLinks(e, res.IDs)
	res.Outline = outline(root, e)
	res.TOC = toc(root, st.body)
	res.Text, res.CodeText = plainText(root, st.body)
	st.mu.Lock()
	res.Styles, res.Scripts = st.styles, st.scripts
	st.mu.Unlock()
	return res
}
