package serve

import (
	"context"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/glossary"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// pairNote is how one translation of the page stands against its
// original, for the panel under the side-by-side frames.
type pairNote struct {
	Lang     string // the translation's language
	OrigLang string
	Path     string // the translation's file, from the site root
	Orig     string // the original's file
	State    string // "current", "stale" or "unmarked"
	Marked   string // the day it was marked, "" when unmarked
	Since    string // the day the original was updated, when stale
	// NoCopy: stale, and the original as it was marked is not in the
	// store (a fresh clone, another machine, a cleared cache).
	NoCopy bool
	Store  string // the store's folder, for the message
	// Blocks are the original's blocks now, runs of unchanged ones
	// folded, and Removed the blocks it had when marked and no longer
	// has: both only when stale with a copy.
	Blocks  []pairBlock
	Removed []pairBlock
}

// pairBlock is a block of the original as the panel shows it.
type pairBlock struct {
	Kind   string // "changed", "added", "removed", or "same" for a fold
	Text   string
	Was    string // a changed block's text when marked
	Line   int    // its first line in its file
	Folded int    // for "same": how many unchanged blocks are folded
}

// pairIndex is the site's translations as /_pair/ tells them: the
// content as it was read once for the build being served, so that a
// request reads no source, paired and stated as "kakehashi translations
// status" does (translation.Site.Status).
type pairIndex struct {
	site  *translation.Site
	lines []translation.Line // site.Status(), in its order
	// keys maps a page's URL path under its language, without slashes
	// around it ("cka/05-ha-cluster"), to its translation key.
	keys map[string]string
	// byKey are the lines of each key, as indexes into lines.
	byKey   map[string][]int
	store   translation.Store // the originals as marked
	strings *i18n.Bundle      // the site's UI strings; nil: the embedded ones
	// glossary is the site's (content/glossary.yaml), whose terms the
	// view marks; nil without one, or with errors (the build shows them).
	glossary *glossary.Glossary
}

// contentFolder is the site's content folder, as the build reads it.
func (s *Server) contentFolder() string {
	if c := s.opts.Build.Layout.Content; c != "" {
		return strings.Trim(path.Clean(c), "/")
	}
	return build.DefaultLayout().Content
}

// translationLayout is the site's layout as package translation names
// its parts.
func (s *Server) translationLayout() translation.Layout {
	l := s.opts.Build.Layout.WithDefaults()
	return translation.Layout{Content: s.contentFolder(), Config: l.Config, Cache: l.Cache}
}

// contentChanged reports whether a rebuild for paths may find the
// content changed: paths is empty (unknown) or names a file in the
// content folder.
func (s *Server) contentChanged(paths []string) bool {
	if len(paths) == 0 {
		return true
	}
	dir := s.contentFolder()
	for _, p := range paths {
		p = strings.TrimPrefix(path.Clean("/"+p), "/")
		if p == dir || strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

// loadPairs reads the site's content as the build does, re-reading only
// what changed since the last build (s.loader), and the site's glossary,
// and returns the pair index of them, made when first asked for
// (pairsLater.index): an edit does not wait for it. The reading is done
// beside the reload the edit sends (s.pairsLoading), and the index, when
// asked for, waits for it; the next build waits for it before it touches
// s.loader. strs are the UI strings the view speaks. An error while
// reading gives no index, as the build's overlay shows it already. The
// caller holds s.buildMu.
func (s *Server) loadPairs(ctx context.Context, langs []string, strs *i18n.Bundle) *pairsLater {
	later := &pairsLater{ready: make(chan struct{})}
	// The build's context may be a request's, done once the build is
	// (a mark from /_pair/); the reading is short.
	ctx = context.WithoutCancel(ctx)
	s.pairsLoading.Go(func() {
		defer close(later.ready)
		c, diags := s.loader.Load(ctx, s.in, s.contentFolder(), langs)
		if diags.Err() != nil || ctx.Err() != nil || len(langs) == 0 {
			return
		}
		gl, _ := glossary.Load(ctx, s.in, glossary.Path(s.contentFolder()), langs)
		l := s.translationLayout()
		root := s.opts.Root
		later.make = func() *pairIndex {
			pairs, _ := translation.Pairs(c, langs)
			idx := &pairIndex{keys: map[string]string{}, byKey: map[string][]int{},
				site:    &translation.Site{Dir: root, Layout: l, Langs: langs, Content: c, Pairs: pairs},
				store:   translation.Store{Fs: s.in, Dir: path.Join(l.Cache, translation.StoreDir)},
				strings: strs, glossary: gl}
			for _, p := range c.Pages {
				if rel := urlRel(p); idx.keys[rel] == "" {
					idx.keys[rel] = translation.Key(p)
				}
			}
			idx.lines, _ = idx.site.Status()
			for i, ln := range idx.lines {
				idx.byKey[ln.Pair.Key] = append(idx.byKey[ln.Pair.Key], i)
			}
			return idx
		}
	})
	return later
}

// pairsLater is the pair index of one build's content, made from it
// when first asked for, once; the content, the glossary and the UI
// strings are read at the build, so that the index tells of the site
// being served whenever it is asked for. The zero value has no index.
type pairsLater struct {
	ready chan struct{} // closed once make is set (loadPairs); nil: no reading
	once  sync.Once
	make  func() *pairIndex // nil: no index
	idx   *pairIndex
}

// index is the pair index; nil when the content did not read.
func (l *pairsLater) index() *pairIndex {
	if l == nil {
		return nil
	}
	if l.ready != nil {
		<-l.ready
	}
	l.once.Do(func() {
		if l.make != nil {
			l.idx, l.make = l.make(), nil
		}
	})
	return l.idx
}

// urlRel is the URL path of the page p under its language, without
// slashes around it ("cka/05-ha-cluster"; "" for a home page).
func urlRel(p *source.Page) string {
	return strings.Trim(strings.TrimPrefix(pageURL(p), "/"+p.Lang+"/"), "/")
}

// key is the translation key of the page at rel (its URL path under a
// language, with no slashes around it).
func (idx *pairIndex) key(rel string) (string, bool) {
	if idx == nil {
		return "", false
	}
	k, ok := idx.keys[rel]
	return k, ok
}

// linesOf are the status lines of the pages named key.
func (idx *pairIndex) linesOf(key string) []translation.Line {
	if idx == nil {
		return nil
	}
	var ls []translation.Line
	for _, i := range idx.byKey[key] {
		ls = append(ls, idx.lines[i])
	}
	return ls
}

// notes says how each translation of the pages named key stands. Only
// the copy of the original as marked is read, for a stale translation.
func (idx *pairIndex) notes(key string) []pairNote {
	var notes []pairNote
	for _, l := range idx.linesOf(key) {
		p := l.Pair
		if p.Missing() {
			continue
		}
		st := l.Status
		n := pairNote{Lang: p.Lang, OrigLang: p.OrigLang, Path: p.Tr.Path, Orig: p.Orig.Path, State: st.State.String(), Store: idx.store.Dir}
		if !st.Marked.IsZero() {
			n.Marked = st.Marked.Date.Format(time.DateOnly)
		}
		if st.State == translation.Stale {
			if !st.Updated.IsZero() {
				n.Since = st.Updated.Format(time.DateOnly)
			}
			old, err := idx.store.Load(st.Marked.Hash)
			if err != nil {
				n.NoCopy = true
			} else {
				n.Blocks, n.Removed = pairBlocks(old, p.Orig)
			}
		}
		notes = append(notes, n)
	}
	return notes
}

// pairBlocks compares the original as marked (old) with the original
// now (cur): the title, description and summary as blocks of their own
// when they changed, then the body's blocks.
func pairBlocks(old, cur *source.Page) (blocks, removed []pairBlock) {
	for _, f := range []struct{ name, old, cur string }{
		{"title", old.Meta.Title, cur.Meta.Title},
		{"description", old.Meta.Description, cur.Meta.Description},
		{"summary", old.Meta.Summary, cur.Meta.Summary},
	} {
		if translation.Normalize(f.old) == translation.Normalize(f.cur) {
			continue
		}
		line := 0
		if p, ok := cur.Meta.Pos[f.name]; ok {
			line, _ = diag.Position(cur.Src, p.Key)
		}
		switch {
		case f.cur == "":
			removed = append(removed, pairBlock{Kind: "removed", Text: f.name + ": " + f.old})
		case f.old == "":
			blocks = append(blocks, pairBlock{Kind: "added", Text: f.name + ": " + f.cur, Line: line})
		default:
			blocks = append(blocks, pairBlock{Kind: "changed", Text: f.name + ": " + f.cur, Was: f.name + ": " + f.old, Line: line})
		}
	}
	d := translation.Blocks(old.Body(), cur.Body())
	curStart, _ := diag.Position(cur.Src, cur.BodyStart)
	oldStart, _ := diag.Position(old.Src, old.BodyStart)
	for _, b := range d.New {
		if b.Change == translation.Same {
			if n := len(blocks); n > 0 && blocks[n-1].Kind == "same" {
				blocks[n-1].Folded++
			} else {
				blocks = append(blocks, pairBlock{Kind: "same", Folded: 1})
			}
			continue
		}
		kind := "changed"
		if b.Change == translation.Added {
			kind = "added"
		}
		blocks = append(blocks, pairBlock{Kind: kind, Text: b.Text, Was: b.Was, Line: curStart + b.Line - 1})
	}
	for _, b := range d.Removed {
		removed = append(removed, pairBlock{Kind: "removed", Text: b.Text, Line: oldStart + b.Line - 1})
	}
	return blocks, removed
}

// pageURL is the URL path the build gives the page p, as package site
// makes it: its folder and file name, a page folder by its folder's name,
// an _index.md as its folder, the slug in place of the name.
func pageURL(p *source.Page) string {
	dir, file := path.Split(p.Rel)
	dir = strings.TrimSuffix(dir, "/")
	if file == "_index.md" {
		return "/" + path.Join(p.Lang, dir) + "/"
	}
	if file == source.BundleIndex {
		dir, file = path.Dir(dir), path.Base(dir)+".md"
		if dir == "." {
			dir = ""
		}
	}
	slug := strings.TrimSuffix(file, ".md")
	if p.Meta.Slug != "" {
		slug = p.Meta.Slug
	}
	return "/" + path.Join(p.Lang, dir, slug) + "/"
}
