package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
)

// The floor is what the pages of a build cost with goldmark and chroma
// alone: every article's markdown (front matter cut off) turned into HTML
// by goldmark with CommonMark, GFM tables and heading ids, and each code
// block by chroma's HTML formatter with CSS classes, the lexer picked by
// the fence's language name as kakehashi picks it (highlight.Lexer). No
// files, templates, links, search or checks: what no build of these pages
// can do without.
//
// It runs as a process of its own (this binary again, with floorEnv
// naming the site), so that its peak memory is measured as a build's is:
// it reads the same files from disk and renders them, and the bench
// times the whole process.

// floorEnv names the site whose article pages a floor process renders;
// floorOnceEnv=1 has it highlight each distinct code block once.
const (
	floorEnv     = "BENCH_FLOOR_SITE"
	floorOnceEnv = "BENCH_FLOOR_ONCE"
)

// floorChild is the floor process: it renders the article pages of the
// site at dir and prints how many it rendered, for the bench to check.
func floorChild(ctx context.Context, stdout io.Writer, dir string, once bool) error {
	pages, err := readFloorPages(dir)
	if err != nil {
		return err
	}
	if _, err := floorRun(ctx, pages, once); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%d pages\n", len(pages))
	return err
}

// readFloorPages reads the article pages of the site at dir, as
// isArticle picks them, without their front matter.
func readFloorPages(dir string) ([][]byte, error) {
	var out [][]byte
	root := filepath.Join(dir, "content")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if isArticle("content/" + filepath.ToSlash(rel)) {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, body(data))
		}
		return nil
	})
	return out, err
}

// isArticle says whether the site path p ("content/ja/cka/0001-ha.md") is
// an article page of the corpus.
func isArticle(p string) bool {
	dir, name := path.Split(p)
	return strings.HasPrefix(dir, "content/") && strings.HasSuffix(dir, "/"+corpus.SeriesID+"/") &&
		strings.HasSuffix(name, ".md") && articleDir.MatchString(strings.TrimSuffix(name, ".md"))
}

// body is a page without its front matter.
func body(page []byte) []byte {
	rest, ok := bytes.CutPrefix(page, []byte("---\n"))
	if !ok {
		return page
	}
	if i := bytes.Index(rest, []byte("\n---\n")); i >= 0 {
		return rest[i+len("\n---\n"):]
	}
	return page
}

// floorRun renders pages on every core, GOMAXPROCS goroutines taking the
// next page in turn, and returns the wall time. With once, a code block
// met again (same language and code: the two languages of a part share
// theirs) reuses its first rendering, as kakehashi's highlighter does.
func floorRun(ctx context.Context, pages [][]byte, once bool) (time.Duration, error) {
	var blocks *sync.Map
	if once {
		blocks = new(sync.Map)
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(pages)))
	var next atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			md := floorMarkdown(blocks)
			var out bytes.Buffer
			for {
				i := int(next.Add(1)) - 1
				if i >= len(pages) || ctx.Err() != nil {
					return
				}
				out.Reset()
				if err := md.Convert(pages[i], &out); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return wall, nil
}

// floorMarkdown is goldmark as a plain site would have it, with chroma for
// fenced code; blocks, when not nil, keeps each block's rendering.
func floorMarkdown(blocks *sync.Map) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.Table),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(
			util.Prioritized(&fenceRenderer{
				f:      chromahtml.New(chromahtml.WithClasses(true)),
				blocks: blocks,
			}, 100))),
	)
}

// fenceRenderer renders fenced code blocks with chroma.
type fenceRenderer struct {
	f      *chromahtml.Formatter
	blocks *sync.Map // lang NUL code → rendering; nil: render every block
}

var _ renderer.NodeRenderer = (*fenceRenderer)(nil)

// RegisterFuncs renders fenced code blocks.
func (r *fenceRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
}

func (r *fenceRenderer) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	fb := n.(*ast.FencedCodeBlock)
	lang := string(fb.Language(src))
	var code strings.Builder
	lines := fb.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}
	key := lang + "\x00" + code.String()
	if r.blocks != nil {
		if h, ok := r.blocks.Load(key); ok {
			_, err := w.WriteString(h.(string))
			return ast.WalkSkipChildren, err
		}
	}
	it, err := chroma.Coalesce(highlight.Lexer(lang)).Tokenise(nil, code.String())
	if err != nil {
		return ast.WalkStop, err
	}
	var buf bytes.Buffer
	if err := r.f.Format(&buf, styles.Fallback, it); err != nil {
		return ast.WalkStop, err
	}
	if r.blocks != nil {
		r.blocks.Store(key, buf.String())
	}
	_, err = w.Write(buf.Bytes())
	return ast.WalkSkipChildren, err
}
