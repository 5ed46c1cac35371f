// Package check holds the checks of a whole rendered site that no single
// page can make alone, which every build runs once its pages are made
// (Site): links to sections of other pages (Fragments), translations
// whose code and headings drifted from their originals (Twins), and
// translations behind their originals, never marked or missing
// (Translations). They are pure functions of the resolved site and the
// pages' rendered markdown (markdown.Result), and report at the positions
// they recorded; Memo runs them again as a site is edited, checking again
// only what an edit can change. It also holds what a build that found errors returns
// (Failure), and everything a build found as kakehashi check reports it,
// each with its kind for tools (Found, Code).
package check

import (
	"fmt"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

// Page is one page of a built site, as the checks read it.
type Page struct {
	URL    string // site-absolute: "/ja/cka/02-control-plane/"
	Lang   string
	Source string // its source file; "" for a page the build generates
	// IDs are ids the page's HTML defines: its content's
	// (markdown.Result.IDs), and those HTMLIDs gives.
	IDs []string
	// HTMLIDs, when set, gives every id of the page's built HTML, its
	// template's ("main", "toc-title") too; it is called only when a
	// link names a section that is not among IDs.
	HTMLIDs func() []string
	// Links and Outline are its markdown's (markdown.Result).
	Links   []markdown.Link
	Outline []markdown.Block
	// Original is the URL of the page this one translates; "" for an
	// original, and for a page that has no translations.
	Original string
}

// Fragments checks every link with a fragment to another page: the page
// it names must have an element with that id. A link to a page that is
// not among pages is not checked (the build warned about it), nor one to
// a file.
func Fragments(pages []*Page) diag.List {
	byURL := make(map[string]*Page, len(pages))
	for _, p := range pages {
		byURL[p.URL] = p
	}
	ids := map[*Page]*idSet{} // made for the pages linked to
	var out diag.List
	for _, p := range pages {
		for _, l := range p.Links {
			if l.Fragment == "" || l.Fragment == "top" || l.Path == p.URL {
				continue
			}
			q := byURL[l.Path]
			if q == nil {
				continue
			}
			set := ids[q]
			if set == nil {
				set = &idSet{has: map[string]bool{}, more: q.HTMLIDs}
				set.add(q.IDs)
				ids[q] = set
			}
			if set.contains(l.Fragment) {
				continue
			}
			d := l.At.WithCode("fragment")
			d.Severity = diag.Error
			d.Msg = fmt.Sprintf("link to %q: page %s has no section %q", l.Dest, q.URL, l.Fragment)
			if near := diag.Suggest(l.Fragment, set.list); near != "" {
				d.Msg += fmt.Sprintf("; did you mean %q?", near)
			}
			out = append(out, d)
		}
	}
	out.Sort()
	return out
}

// idSet is the ids of one page, those of its built HTML read when one
// is not among the others.
type idSet struct {
	has  map[string]bool
	list []string
	more func() []string
}

func (s *idSet) add(ids []string) {
	for _, id := range ids {
		if !s.has[id] {
			s.has[id] = true
			s.list = append(s.list, id)
		}
	}
}

func (s *idSet) contains(id string) bool {
	if !s.has[id] && s.more != nil {
		s.add(s.more())
		s.more = nil
	}
	return s.has[id]
}

// Twins compares each translation with its original (Page.Original): the
// same code blocks, in the same order, and the same heading structure
// (the sequence of heading levels). Each pair gets at most one warning
// for its code and one for its headings, at the translation, naming the
// first difference.
//
// Code is compared line by line with trailing whitespace trimmed and
// comments left out, as they are what a translator translates: a comment
// starts at "#" or "//" at the start of a line (after indentation) or
// after a space or tab, and runs to the end of the line; lines left empty
// are dropped. A console's root prompt ("# kubeadm init") reads as a
// comment too: a translation changing only such a line is not reported.
func Twins(pages []*Page) diag.List {
	byURL := make(map[string]*Page, len(pages))
	for _, p := range pages {
		byURL[p.URL] = p
	}
	var out diag.List
	for _, p := range pages {
		if o := twinOf(p, byURL); o != nil {
			out = append(out, twins(p, o)...)
		}
	}
	out.Sort()
	return out
}

// twinOf is the original Twins compares the page p with; nil when none.
func twinOf(p *Page, byURL map[string]*Page) *Page {
	o := byURL[p.Original]
	if p.Original == "" || o == nil || o == p || p.Source == "" || o.Source == "" {
		return nil
	}
	return o
}

// twins compares the translation p with its original o (Twins).
func twins(p, o *Page) diag.List {
	return append(twinCode(p, o), twinHeadings(p, o)...)
}

// kinds walks the blocks of one kind of an outline, in order, without
// copying them.
type kinds struct {
	bs   []markdown.Block
	kind markdown.BlockKind
	i    int // the next block to look at
	n    int // the blocks of kind returned so far
}

// next returns the next block of the kind.
func (k *kinds) next() (*markdown.Block, bool) {
	for k.i < len(k.bs) {
		b := &k.bs[k.i]
		k.i++
		if b.Kind == k.kind {
			k.n++
			return b, true
		}
	}
	return nil, false
}

// count is how many blocks of the kind the outline holds.
func (k *kinds) count() int {
	n := k.n
	for _, b := range k.bs[k.i:] {
		if b.Kind == k.kind {
			n++
		}
	}
	return n
}

// warnAt is a warning at line:col of the translation's file.
func warnAt(p *Page, line, col int, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{Path: p.Source, Line: line, Col: col, Severity: diag.Warning, Msg: fmt.Sprintf(format, args...), Code: "twin"}
}

// twinCode reports the first code block of p that differs from o's.
func twinCode(p, o *Page) diag.List {
	pc, oc := kinds{bs: p.Outline, kind: markdown.BlockCode}, kinds{bs: o.Outline, kind: markdown.BlockCode}
	for i := 0; ; i++ {
		pb, pok := pc.next()
		ob, ook := oc.next()
		switch {
		case pok && ook:
			if pb.CodeSum != ob.CodeSum { // the same but for comments and spacing (markdown.CodeSum)
				return diag.List{warnAt(p, pb.Line, pb.Col, "code block %d differs from %s:%d:%d", i+1, o.Source, ob.Line, ob.Col)}
			}
			continue
		case pok:
			return diag.List{warnAt(p, pb.Line, pb.Col, "code block %d is not in %s, which has %d", i+1, o.Source, i)}
		case ook:
			return diag.List{warnAt(p, 0, 0, "%d code blocks here, %d in %s: code block %d (%s:%d:%d) is missing", i, oc.count(), o.Source, i+1, o.Lang, ob.Line, ob.Col)}
		}
		return nil
	}
}

// twinHeadings reports the first heading of p whose level differs from
// o's, or a heading one of them lacks.
func twinHeadings(p, o *Page) diag.List {
	ph, oh := kinds{bs: p.Outline, kind: markdown.BlockHeading}, kinds{bs: o.Outline, kind: markdown.BlockHeading}
	for i := 0; ; i++ {
		pb, pok := ph.next()
		ob, ook := oh.next()
		switch {
		case pok && ook:
			if pb.Level != ob.Level {
				return diag.List{warnAt(p, pb.Line, pb.Col, "heading structure differs from %s: heading %d is h%d here, h%d there (%s:%d:%d)",
					o.Source, i+1, pb.Level, ob.Level, o.Lang, ob.Line, ob.Col)}
			}
			continue
		case pok:
			return diag.List{warnAt(p, pb.Line, pb.Col, "heading structure differs from %s: heading %d (h%d) is not there, which has %d", o.Source, i+1, pb.Level, i)}
		case ook:
			return diag.List{warnAt(p, 0, 0, "heading structure differs from %s: %d headings here, %d there: heading %d (h%d, %s:%d:%d) is missing", o.Source, i, oh.count(), i+1, ob.Level, o.Lang, ob.Line, ob.Col)}
		}
		return nil
	}
}
