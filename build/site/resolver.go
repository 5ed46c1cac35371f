package site

import (
	"bytes"
	"maps"
	"reflect"
	"slices"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// Resolver resolves a site again and again as its content is edited
// (Resolve). When only the bodies of pages changed, below their front
// matter, the site is what the last call resolved, its pages pointing at
// the new files: nothing a site is made of (the files' names, their
// front matter, the series files, the other files, the options) changed.
// Its zero value is ready; it is not safe for concurrent use.
type Resolver struct {
	last  *Site // updated in place by a call that takes it again
	diags diag.List
	pages []*source.Page // the content's pages the last site was made of
	// series, files and opts are the rest of what it was made of.
	series []*source.Series
	files  []source.File
	opts   Options
}

// Resolve is the package's Resolve of c, opts. When the last call's site
// can be taken again (see Resolver), it is, with the pages of the files
// that changed pointing at their new versions, and returned with the
// last call's diagnostics: a caller must keep no Site of an earlier
// call, which is this one.
func (r *Resolver) Resolve(c *source.Content, opts Options) (*Site, diag.List) {
	if swap, ok := r.bodiesOnly(c, opts); ok {
		for _, p := range r.last.Pages {
			if sp, ok := swap[p.Source]; ok {
				p.Source = sp
			}
		}
		r.last.Series, r.last.Glossary = c.Series, opts.Glossary // the same, but this call's
		r.pages = slices.Clone(c.Pages)
		return r.last, slices.Clip(r.diags)
	}
	st, diags := Resolve(c, opts)
	*r = Resolver{last: st, diags: diags, pages: slices.Clone(c.Pages), series: slices.Clone(c.Series), files: slices.Clone(c.Files), opts: opts}
	return st, slices.Clip(diags)
}

// bodiesOnly reports whether c and opts differ from what the last site
// was made of only in the bodies of some pages, and gives the new file
// of each page that changed, by its old one.
func (r *Resolver) bodiesOnly(c *source.Content, opts Options) (map[*source.Page]*source.Page, bool) {
	if r.last == nil || len(c.Pages) != len(r.pages) || !slices.Equal(c.Series, r.series) || !slices.Equal(c.Files, r.files) ||
		!slices.Equal(opts.Langs, r.opts.Langs) || opts.Drafts != r.opts.Drafts || !maps.Equal(opts.Failed, r.opts.Failed) ||
		!reflect.DeepEqual(opts.Glossary, r.opts.Glossary) {
		return nil, false
	}
	swap := map[*source.Page]*source.Page{}
	for i, sp := range c.Pages {
		old := r.pages[i]
		if sp == old {
			continue
		}
		if !sameButBody(old, sp) {
			return nil, false
		}
		swap[old] = sp
	}
	return swap, true
}

// sameButBody reports whether the pages a and b, two versions of a file,
// give a site the same: the same name, front matter and emptiness, and
// the same first lines after the front matter, which a diagnostic in the
// front matter quotes around its line (diag.Diagnostic.Context).
func sameButBody(a, b *source.Page) bool {
	return a.Path == b.Path && a.Lang == b.Lang && a.Rel == b.Rel && a.BodyStart == b.BodyStart &&
		bytes.Equal(head(a), head(b)) && (len(bytes.TrimSpace(a.Src)) == 0) == (len(bytes.TrimSpace(b.Src)) == 0) &&
		reflect.DeepEqual(a.Meta, b.Meta)
}

// head is the front matter of p and the three lines after it.
func head(p *source.Page) []byte {
	end := p.BodyStart
	for range 3 {
		i := bytes.IndexByte(p.Src[end:], '\n')
		if i < 0 {
			return p.Src
		}
		end += i + 1
	}
	return p.Src[:end]
}
