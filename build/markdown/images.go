package markdown

import (
	"strconv"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Asset is a file a page shows (an image), as the build resolved it for
// the page.
type Asset struct {
	// URL is the file's URL relative to the page, or the reference as
	// written when it is not checked (an external URL).
	URL string
	// Width and Height are the image's size in pixels; 0 when the file
	// does not say.
	Width, Height int
}

// Image is an image as a document shows it: its file, and whether it
// loads lazily (every image but the document's first, which is on the
// first screen).
type Image struct {
	Asset
	Lazy bool
}

// ImageUser is an AST node that shows images of its own (the figure
// shortcode's). The images transformer calls ResolveImages in document
// order, between the markdown images, so that one count decides which
// image is the first.
type ImageUser interface {
	ResolveImages(e *Env)
}

// Image resolves the image reference ref, written at byte offset off of
// the body, whose alt text is alt: through Assets, reporting an error at
// off when it fails, and a warning when alt is empty. Every call counts:
// the document's first image loads eagerly, every later one lazily. With
// no Assets the reference stays as written, with no size. Safe on a nil
// Env.
func (e *Env) Image(ref, alt string, off int) Image {
	img := Image{Asset: Asset{URL: ref}}
	if e == nil {
		return img
	}
	if e.st != nil {
		e.st.mu.Lock()
		img.Lazy = e.st.images > 0
		e.st.images++
		e.st.mu.Unlock()
	}
	if strings.TrimSpace(alt) == "" {
		e.Report(diag.Warning, off, "image %q has no alt text: say what it shows, for readers who cannot see it", ref)
	}
	if e.Assets != nil {
		a, err := e.Assets(ref)
		if err != nil {
			e.Report(diag.Error, off, "%v", err)
			return img
		}
		img.Asset = a
	}
	return img
}

// Attrs are the attributes of an <img> beyond src and alt, in order.
func (img Image) Attrs() [][2]string {
	var attrs [][2]string
	if img.Width > 0 && img.Height > 0 {
		attrs = append(attrs, [2]string{"width", strconv.Itoa(img.Width)}, [2]string{"height", strconv.Itoa(img.Height)})
	}
	if img.Lazy {
		attrs = append(attrs, [2]string{"loading", "lazy"}, [2]string{"decoding", "async"})
	}
	return attrs
}

// images is the extension that checks every image of a document through
// Env.Image and gives it its URL relative to the page, its size and its
// loading.
type images struct{}

var _ goldmark.Extender = images{}

// Extend implements goldmark.Extender.
func (images) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(imageTransformer{}, PriorityImageTransformer)))
}

// imageTransformer resolves the images in document order.
type imageTransformer struct{}

var _ parser.ASTTransformer = imageTransformer{}

// Transform implements parser.ASTTransformer.
func (imageTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	env := EnvFrom(pc)
	src := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Image:
			off := max(n.Pos(), 0) // goldmark's position of an image is its "!"
			img := env.Image(string(n.Destination), altText(n, src), off)
			n.Destination = []byte(img.URL)
			for _, a := range img.Attrs() {
				n.SetAttributeString(a[0], []byte(a[1]))
			}
			return ast.WalkSkipChildren, nil
		case ImageUser:
			n.ResolveImages(env)
		case *ast.FencedCodeBlock, *ast.CodeBlock, *CodeFigure:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// altText is the text of an image's description, as its alt attribute
// shows it.
func altText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(src))
			case *ast.String:
				b.Write(c.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
