// Package source loads a site's content: markdown pages with their front
// matter and the series files, from an afero.Fs. It is the load stage of
// the pipeline (load → resolve → markdown → assemble → template → write)
// for the content; it checks what can be checked on one file alone (UTF-8,
// front matter syntax and types) and leaves whole-site checks to the
// resolve stage (package site).
package source

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/spf13/afero"
	"golang.org/x/text/unicode/norm"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Page is one markdown file of content.
type Page struct {
	// Path is the file's path as given to the loader, slash-separated
	// (for example "content/ja/cka/05-ha-cluster.md"); diagnostics use it.
	Path string
	// Lang is the first folder under the content root ("ja", "ko").
	Lang string
	// Rel is the path under the language folder, NFC ("cka/05-ha-cluster.md");
	// translations share it.
	Rel string
	// Src is the whole file, NFC-normalised UTF-8.
	Src []byte
	// BodyStart is the byte offset in Src where the markdown body begins.
	BodyStart int
	Meta      FrontMatter
	// ModTime is the file's modification time as the loader found it;
	// zero for a page parsed from bytes (ParsePage).
	ModTime time.Time
	// hash and summary are the translation hash and the divider's
	// summary, once computed (Hashed, Summarized).
	hash, summary atomic.Pointer[string]
	// sum is Sum's, once computed; 0 until then; headSum is HeadSum's.
	sum, headSum atomic.Uint64
}

// Sum is a 64-bit hash of the whole file (Src), computed on the first
// call only (and kept between processes with the rest of the page, see
// Loader.Persist): what a rendering of the page is named by needs the
// file's bytes, not a walk through them in every build.
func (p *Page) Sum() uint64 {
	if v := p.sum.Load(); v != 0 {
		return v
	}
	v := xxhash.Sum64(p.Src) | 1 // never 0, which means "not yet"
	p.sum.Store(v)
	return v
}

// HeadSum is a 64-bit hash of the front matter (Src up to BodyStart),
// computed on the first call only: what the site's structure is made of
// is hashed once per version of a file, not in every build.
func (p *Page) HeadSum() uint64 {
	if v := p.headSum.Load(); v != 0 {
		return v
	}
	v := xxhash.Sum64(p.Src[:min(max(p.BodyStart, 0), len(p.Src))]) | 1
	p.headSum.Store(v)
	return v
}

// Hashed returns hash(p), computed on the first call only: a loaded page
// does not change (an edit loads a new Page), so the hash of what a
// translation is made from (package translation) is computed once per
// version of the file, not once per use. Concurrent first calls may
// each compute it; hash must be a pure function of the page.
func (p *Page) Hashed(hash func(*Page) string) string { return once(&p.hash, p, hash) }

// Summarized returns summary(p), the summary its divider gives it (the
// listings of other pages show it), computed on the first call only, as
// Hashed is.
func (p *Page) Summarized(summary func(*Page) string) string { return once(&p.summary, p, summary) }

// once is f(p), kept in slot from its first call.
func once(slot *atomic.Pointer[string], p *Page, f func(*Page) string) string {
	if v := slot.Load(); v != nil {
		return *v
	}
	v := f(p)
	slot.Store(&v)
	return v
}

// Body is the markdown after the front matter.
func (p *Page) Body() []byte { return p.Src[p.BodyStart:] }

// IsIndex reports whether the page is a folder's _index.md (a home or
// section page rather than an article).
func (p *Page) IsIndex() bool { return path.Base(p.Rel) == "_index.md" }

// IsBundle reports whether the page is a page folder's index.md: its
// folder holds its files (images), published beside it.
func (p *Page) IsBundle() bool { return path.Base(p.Rel) == BundleIndex }

// BundleIndex is the name of the page of a page folder
// (content/ja/cka/03-scheduling/index.md).
const BundleIndex = "index.md"

// File is a content file that is neither a page nor a series file: an
// image or another file a page folder holds. The loader lists them without
// reading them.
type File struct {
	Path    string // as given to the loader: "content/ja/cka/03-scheduling/diagram.png"
	Lang    string // the first folder under the content root
	Rel     string // under the language folder, NFC: "cka/03-scheduling/diagram.png"
	Size    int64
	ModTime time.Time
	// BadName says why a segment of Rel cannot be published; nil when
	// every one can. Only a file of a page folder is published, so only
	// there is it an error.
	BadName error
}

// Content is everything the loader found.
type Content struct {
	Pages  []*Page   // sorted by Lang, then Rel
	Series []*Series // sorted by ID
	Files  []File    // sorted by Lang, then Rel
	Langs  []string  // the languages that have pages, sorted
}

// SeriesDir is the folder under the content root holding series files.
const SeriesDir = "series"

// Load reads every page under root/<lang>/ and every series file under
// root/series/. It reports all problems it finds, not only the first.
func Load(ctx context.Context, fsys afero.Fs, root string, langs []string) (*Content, diag.List) {
	return NewLoader().Load(ctx, fsys, root, langs)
}

// Loader loads content and remembers what it parsed, so that a later Load
// re-reads only the files whose size or modification time changed, or that
// were named by Invalidate. Parsed pages are shared between loads and must
// not be modified.
type Loader struct {
	cache map[string]cached
	force map[string]bool
	// complete: the paths given to Invalidate are every change since
	// the last Load (Complete); last is what that Load's walk found.
	complete bool
	last     *walk
	// store keeps what was parsed between processes (Persist).
	store Store
}

type cached struct {
	mod    time.Time
	size   int64
	page   *Page
	series *Series
	diags  diag.List
	// restored: taken from the store, with the page's hash and summary
	// when it held them (Persist).
	restored, hadHash, hadSummary bool
}

// NewLoader returns a Loader with an empty cache.
func NewLoader() *Loader { return &Loader{cache: map[string]cached{}, force: map[string]bool{}} }

// Invalidate makes the next Load re-read the file at p (a path as Load
// sees it, e.g. "content/ja/cka/05-ha-cluster.md") even if its size and
// time look unchanged.
func (l *Loader) Invalidate(p string) { l.force[p] = true }

// Complete tells the Loader that the paths given to Invalidate since the
// last Load are every file that changed, appeared or disappeared since
// (an authoring server's watcher names them all). When each of them is a
// page or series file that Load read and still is one, the next Load
// reads those again without walking the content folder; else it walks
// it, as always.
func (l *Loader) Complete() { l.complete = true }

// Load reads the content under root, re-using what is cached.
func (l *Loader) Load(ctx context.Context, fsys afero.Fs, root string, langs []string) (*Content, diag.List) {
	w, ok := l.rewalk(fsys, root, langs)
	var err error
	if !ok {
		w = &walk{l: l, root: root, langs: langs, known: map[string]bool{}, seen: map[string]bool{}}
		for _, l := range langs {
			w.known[l] = true
		}
		err = afero.Walk(fsys, root, func(p string, info fs.FileInfo, err error) error {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return ctxErr
			}
			return w.visit(p, info, err)
		})
	}
	l.complete, l.last = false, nil
	if err == nil && ctx.Err() == nil {
		l.last = w
	}
	l.parseAll(ctx, fsys, w.todo)
	c, diags := l.collect(w.found)
	c.Files = w.files
	diags = append(slices.Clip(w.diags), diags...) // w.diags may be the last walk's
	if err != nil {
		diags = append(diags, diag.File(root, "%v", err))
	}
	for p := range l.cache {
		if !w.seen[p] {
			delete(l.cache, p)
		}
	}
	if ctx.Err() == nil {
		// An interrupted load parsed only some: the next reads the
		// files named by Invalidate again.
		clear(l.force)
	}
	c.sortAndList()
	return c, diags
}

// rewalk is the last Load's walk again, with the files given to
// Invalidate to read, when Complete said they are every change and each
// is a page or series file of that walk that still is a regular file of
// an allowed size; false when the content folder must be walked.
func (l *Loader) rewalk(fsys afero.Fs, root string, langs []string) (*walk, bool) {
	last := l.last
	if !l.complete || last == nil || last.root != root || !slices.Equal(last.langs, langs) {
		return nil, false
	}
	w := *last
	w.todo = nil
	for p := range l.force {
		if !last.seen[p] {
			return nil, false
		}
		info, err := lstatIfPossible(fsys, p)
		if err != nil || !info.Mode().IsRegular() || CheckSize(info.Size()) != nil {
			return nil, false
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		first, rest, _ := strings.Cut(rel, "/")
		w.todo = append(w.todo, job{p: p, first: first, rest: rest, series: first == SeriesDir && isSeriesFile(rest), mod: info.ModTime(), size: info.Size()})
	}
	return &w, true
}

// lstatIfPossible is the file at p on fsys, a link not followed where
// fsys can tell (as afero.Walk sees it).
func lstatIfPossible(fsys afero.Fs, p string) (fs.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		info, _, err := l.LstatIfPossible(p)
		return info, err
	}
	return fsys.Stat(p)
}

// walk is what one Load's walk over the content finds.
type walk struct {
	l     *Loader
	root  string
	langs []string
	known map[string]bool // the site's languages
	seen  map[string]bool // content files
	found []string        // content files, in walk order
	files []File          // the other files under the language folders
	todo  []job           // those to read and parse again
	diags diag.List
}

// visit looks at one path of the walk: it skips hidden and unpublishable
// folders and files and editors' leftovers (Leftover), reports a file
// that is not a regular one (CheckRegular) without opening it, and lists
// the pages and series files, those to parse again in todo.
func (w *walk) visit(p string, info fs.FileInfo, err error) error {
	if err != nil {
		w.diags = append(w.diags, diag.File(filepath.ToSlash(p), "%v", err))
		return nil
	}
	// On Windows the walk gives back slashes; elsewhere a back slash
	// is part of a name, which CheckSegment refuses below.
	p = filepath.ToSlash(p)
	name := info.Name()
	if p != w.root && Leftover(name) {
		if info.IsDir() {
			return fs.SkipDir
		}
		return nil
	}
	if info.IsDir() {
		if p != w.root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return fs.SkipDir
		}
		if p != w.root {
			if err := CheckSegment(name); err != nil {
				w.diags = append(w.diags, diag.File(p, "this folder name cannot be published: %v", err))
				return fs.SkipDir
			}
		}
		return nil
	}
	if strings.HasPrefix(name, ".") {
		return nil // dot files
	}
	if err := CheckRegular(p, info); err != nil {
		w.diags = append(w.diags, diag.File(p, "%v", err))
		return nil
	}
	if err := CheckSegment(name); err != nil {
		if strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
			w.diags = append(w.diags, diag.File(p, "this file name cannot be published: %v", err))
		} else {
			w.file(p, info, err)
		}
		return nil
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(p, w.root), "/")
	first, rest, _ := strings.Cut(rel, "/")
	isSeries := first == SeriesDir && isSeriesFile(rest)
	isPage := !isSeries && strings.HasSuffix(name, ".md") && rest != ""
	if !isSeries && !isPage {
		w.file(p, info, nil)
		return nil
	}
	if err := CheckSize(info.Size()); err != nil {
		w.diags = append(w.diags, diag.File(p, "%v", err))
		return nil
	}
	if isPage && !w.known[first] {
		w.diags = append(w.diags, diag.File(p, "language folder %q is not one of the site's languages (%s)", first, strings.Join(w.langs, ", ")))
		return nil
	}
	w.seen[p] = true
	e, ok := w.l.cache[p]
	if !ok && !w.l.force[p] {
		if e, ok = w.l.restore(p, first, info.ModTime(), info.Size()); ok {
			w.l.cache[p] = e
		}
	}
	if !ok || w.l.force[p] || !e.mod.Equal(info.ModTime()) || e.size != info.Size() {
		w.todo = append(w.todo, job{p: p, first: first, rest: rest, series: isSeries, mod: info.ModTime(), size: info.Size()})
	}
	w.found = append(w.found, p)
	return nil
}

// file lists a file under a language folder that is not a page.
func (w *walk) file(p string, info fs.FileInfo, bad error) {
	rel := strings.TrimPrefix(strings.TrimPrefix(p, w.root), "/")
	first, rest, _ := strings.Cut(rel, "/")
	if rest == "" || first == SeriesDir || !w.known[first] {
		return
	}
	w.files = append(w.files, File{Path: p, Lang: first, Rel: norm.NFC.String(rest), Size: info.Size(), ModTime: info.ModTime(), BadName: bad})
}

// parseAll reads and parses todo on every core into the cache; the walk
// only listed the files. When ctx is done it stops handing out files, and
// caches none of those it did not parse.
func (l *Loader) parseAll(ctx context.Context, fsys afero.Fs, todo []job) {
	parsed := make([]cached, len(todo))
	done := make([]bool, len(todo))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				parsed[i], done[i] = parseFile(fsys, todo[i]), true
			}
		}()
	}
feed:
	for i := range todo {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	for i, j := range todo {
		if done[i] {
			l.cache[j.p] = parsed[i]
		}
	}
}

// collect gathers the cached pages, series and diagnostics of found.
func (l *Loader) collect(found []string) (*Content, diag.List) {
	c := &Content{}
	var diags diag.List
	for _, p := range found {
		e := l.cache[p]
		diags = append(diags, e.diags...)
		if e.series != nil {
			c.Series = append(c.Series, e.series)
		}
		if e.page != nil {
			c.Pages = append(c.Pages, e.page)
		}
	}
	return c, diags
}

// sortAndList sorts the pages by language and path and the series by id,
// and lists the languages that have pages.
func (c *Content) sortAndList() {
	sort.Slice(c.Pages, func(i, j int) bool {
		a, b := c.Pages[i], c.Pages[j]
		if a.Lang != b.Lang {
			return a.Lang < b.Lang
		}
		return a.Rel < b.Rel
	})
	sort.Slice(c.Series, func(i, j int) bool { return c.Series[i].ID < c.Series[j].ID })
	sort.Slice(c.Files, func(i, j int) bool {
		a, b := c.Files[i], c.Files[j]
		if a.Lang != b.Lang {
			return a.Lang < b.Lang
		}
		return a.Rel < b.Rel
	})
	langSeen := map[string]bool{}
	for _, p := range c.Pages {
		if !langSeen[p.Lang] {
			langSeen[p.Lang] = true
			c.Langs = append(c.Langs, p.Lang)
		}
	}
}

// job is a content file to read and parse.
type job struct {
	p, first, rest string
	series         bool
	mod            time.Time
	size           int64
}

// parseFile reads and parses one content file.
func parseFile(fsys afero.Fs, j job) cached {
	e := cached{mod: j.mod, size: j.size}
	src, ok := read(fsys, j.p, &e.diags)
	if !ok {
		return e
	}
	if j.series {
		// A series with errors is kept as far as it reads: its pages
		// are checked against it.
		e.series, e.diags = parseSeries(j.p, src)
		return e
	}
	e.page, e.diags = ParsePage(j.p, src)
	if e.page != nil {
		e.page.Lang = j.first
		e.page.Rel = norm.NFC.String(j.rest)
		e.page.ModTime = j.mod
	}
	return e
}

func isSeriesFile(name string) bool {
	return !strings.Contains(name, "/") && (strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml"))
}

// ParsePage splits a page into front matter and body and decodes the front
// matter. A page without front matter is allowed (its body is the file).
func ParsePage(p string, src []byte) (*Page, diag.List) {
	pg := &Page{Path: p, Src: src}
	fm, start, end, kind, d := splitFrontMatter(p, src)
	if d != nil {
		return nil, diag.List{*d}
	}
	pg.BodyStart = end
	var diags diag.List
	switch kind {
	case "yaml":
		pg.Meta, diags = decodeYAML(p, src, fm, start)
	case "toml":
		pg.Meta, diags = decodeTOML(p, src, fm, start)
	case "json":
		pg.Meta, diags = decodeJSON(p, src, fm, start)
	}
	if len(diags.Errors()) > 0 {
		return nil, diags
	}
	return pg, diags
}

// splitFrontMatter finds a "---" (YAML) or "+++" (TOML) block at the very
// start of src, or a JSON object (jsonFrontMatter). It returns the front
// matter text, its byte offset, the body's offset and the kind ("" when
// there is none).
func splitFrontMatter(p string, src []byte) (fm []byte, start, bodyStart int, kind string, d *diag.Diagnostic) {
	var delim string
	switch {
	case hasDelimLine(src, "---"):
		delim, kind = "---", "yaml"
	case hasDelimLine(src, "+++"):
		delim, kind = "+++", "toml"
	default:
		return jsonFrontMatter(p, src)
	}
	start = len(delim) + 1
	off := start
	for off <= len(src) {
		nl := bytes.IndexByte(src[off:], '\n')
		line := src[off:]
		next := len(src)
		if nl >= 0 {
			line = src[off : off+nl]
			next = off + nl + 1
		}
		if string(bytes.TrimRight(line, " \t")) == delim {
			return src[start:off], start, next, kind, nil
		}
		if nl < 0 {
			break
		}
		off = next
	}
	e := diag.At(p, src, 0, "front matter opened with %q is never closed: add a line %q after it", delim, delim)
	return nil, 0, 0, "", &e
}

func hasDelimLine(src []byte, delim string) bool {
	if !bytes.HasPrefix(src, []byte(delim)) {
		return false
	}
	rest := bytes.TrimLeft(src[len(delim):], " \t")
	return len(rest) > 0 && rest[0] == '\n'
}

// describe names a value's type for error messages.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("string %q", v)
	case nil:
		return "nothing"
	default:
		return fmt.Sprintf("%T %v", v, v)
	}
}
