package serve

import (
	"context"
	"path"
	"strings"
	"time"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
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

// pairNotes reads the site's content as the build does and says how each
// translation of the page at rel (its URL path under the language, with
// no slashes around it) stands. The content is read afresh on each
// request (the loader re-reads only what changed on disk since the
// server's own build, so this is the site as saved); an error while
// reading gives no notes, as the build's overlay shows it already.
func (s *Server) pairNotes(ctx context.Context, langs []string, rel string) []pairNote {
	def := build.DefaultLayout()
	content, cache := s.opts.Build.Layout.Content, s.opts.Build.Layout.Cache
	if content == "" {
		content = def.Content
	}
	if cache == "" {
		cache = def.Cache
	}
	c, diags := source.Load(ctx, s.in, content, langs)
	if diags.Err() != nil {
		return nil
	}
	key := ""
	for _, p := range c.Pages {
		u := "/" + p.Lang + "/"
		if rel != "" {
			u += rel + "/"
		}
		if pageURL(p) == u {
			key = translation.Key(p)
			break
		}
	}
	if key == "" {
		return nil
	}
	pairs, _ := translation.Pairs(c, langs)
	store := translation.Store{Fs: s.in, Dir: path.Join(cache, translation.StoreDir)}
	var notes []pairNote
	for _, p := range pairs {
		if p.Key != key || p.Missing() {
			continue
		}
		st := translation.Status(p.Orig, p.Tr)
		n := pairNote{Lang: p.Lang, OrigLang: p.OrigLang, Path: p.Tr.Path, Orig: p.Orig.Path, State: st.State.String(), Store: store.Dir}
		if !st.Marked.IsZero() {
			n.Marked = st.Marked.Date.Format(time.DateOnly)
		}
		if st.State == translation.Stale {
			if !st.Updated.IsZero() {
				n.Since = st.Updated.Format(time.DateOnly)
			}
			old, err := store.Load(st.Marked.Hash)
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
