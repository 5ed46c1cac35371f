package check

import (
	"strings"
	"sync"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// Code names the kind of a build's diagnostic for kakehashi check's
// machine-readable output: its own when the stage gave one, else by what
// found it.
func Code(d diag.Diagnostic) string {
	switch {
	case d.Code != "":
		return d.Code
	case strings.HasPrefix(d.Msg, "link to "):
		return "link"
	case strings.HasPrefix(d.Msg, "image ") || strings.Contains(d.Msg, "image file"):
		return "image"
	case strings.HasPrefix(d.Msg, "#") || strings.Contains(d.Msg, "is not in this series") || strings.Contains(d.Msg, "is not in series") || strings.Contains(d.Msg, "has no part"):
		return "part"
	case strings.Contains(d.Msg, "is published but has no"):
		return "missing-translation"
	case strings.Contains(d.Msg, "front matter"):
		return "front-matter"
	case strings.HasPrefix(d.Msg, "argument ") || strings.Contains(d.Msg, "shortcode"):
		return "shortcode"
	case strings.HasPrefix(d.Msg, "part \"") || strings.HasPrefix(d.Msg, "series "):
		return "series"
	case strings.HasPrefix(d.Msg, "key ") && strings.Contains(d.Msg, " is missing from "):
		return "ui-string"
	}
	return "build"
}

// Translations reports, for each translation of the site st, whether it
// is behind its original or was never marked. Missing translations of
// series parts are the build's warnings already (site.Resolve); a missing
// translation of any other page is reported here, unless its file is
// one that did not load (site.Site.FailedTwin).
func Translations(st *site.Site) diag.List {
	var out diag.List
	for _, p := range st.Pages {
		out = append(out, translationOf(st, p, nil)...)
	}
	return out
}

// translationOf is what Translations finds of the page p; the state of a
// translation against its original comes from state (its findings), or,
// when nil, from translationState.
func translationOf(st *site.Site, p *site.Page, state func(o, tr *source.Page) diag.List) diag.List {
	if p.Source == nil || p.Kind == site.KindUntranslated {
		return nil
	}
	o := st.Original(p)
	if o == p {
		var out diag.List
		for _, l := range st.Langs {
			if q := p.Translations[l]; !part(p) && (q == nil || q.Kind == site.KindUntranslated) && !st.FailedTwin(p, l) {
				out = append(out, diag.File(p.Source.Path, "no %s translation: the page is published in %s only", l, p.Lang).AsWarning().WithCode("missing-translation"))
			}
		}
		return out
	}
	if o.Source == nil {
		return nil
	}
	if state == nil {
		return translationState(o.Source, p.Source)
	}
	return state(o.Source, p.Source)
}

// translationState says whether the translation tr is behind its
// original o, or was never marked.
func translationState(o, tr *source.Page) diag.List {
	s := translation.Status(o, tr)
	switch s.State {
	case translation.Stale:
		d := diag.At(tr.Path, tr.Src, tr.Meta.Pos["translated"].Key,
			"stale translation: %s changed since this was marked on %s; update the translation, then run kakehashi translations mark %s",
			o.Path, s.Marked.Date.Format(time.DateOnly), tr.Path)
		return diag.List{d.AsWarning().WithCode("stale-translation")}
	case translation.Unmarked:
		return diag.List{diag.File(tr.Path,
			"translation of %s is not marked: once it is up to date, run kakehashi translations mark %s", o.Path, tr.Path).AsWarning().WithCode("unmarked-translation")}
	}
	return nil
}

// part reports whether p is a part of a series, or names one in its
// front matter (a part the series does not list is an error already).
func part(p *site.Page) bool {
	return p.Series != nil || p.Source.Meta.Series != "" || p.Source.Meta.Part != 0
}

// Pages gathers the pages of the site st as the checks read them: each
// page's ids from its markdown and, when a link needs them, from its
// built HTML (html, by output path: the template's ids count), its links
// and outline, and the original it translates. md is the markdown
// rendering of st.Pages[i], a page with a source file; nil when it has
// none.
func Pages(st *site.Site, html func(outPath string) []string, md func(i int) *markdown.Result) []*Page {
	pages := make([]*Page, 0, len(st.Pages))
	slab := make([]Page, len(st.Pages)) // one allocation for them all
	for i, sp := range st.Pages {
		p := &slab[i]
		p.URL, p.Lang = sp.URL, sp.Lang
		p.HTMLIDs = func() []string { return html(sp.OutPath()) }
		if src := sp.Source; src != nil {
			p.Source = src.Path
			if res := md(i); res != nil {
				p.IDs = res.IDs
				p.Links, p.Outline = res.Links, res.Outline
			}
			if o := st.Original(sp); o != nil && o != sp && o.Source != nil {
				p.Original = o.URL
			}
		}
		pages = append(pages, p)
	}
	return pages
}

// Site runs every check of the whole site st, whose pages the checks
// read as pages (Pages): links to sections of other pages (Fragments),
// twins (Twins) and translations (Translations), sorted.
func Site(st *site.Site, pages []*Page) diag.List {
	out := append(append(Fragments(pages), Twins(pages)...), Translations(st)...)
	out.Sort()
	return out
}

// Built finds the ids of the HTML of the pages of a build that keeps
// none (for Pages), by output path: those of the pages Add recorded as
// the build wrote them, and those of the pages Keep names, the files of
// the previous output taken as they are, from the HTML Read finds, read
// when first needed. A nil *Built records nothing. Its methods are safe
// for concurrent use.
type Built struct {
	Read func(outPath string) ([]byte, bool)
	mu   sync.Mutex
	ids  map[string][]string
	kept map[string]bool
}

// Add records the ids of html, the page written at outPath.
func (b *Built) Add(outPath string, html []byte) {
	if b == nil {
		return
	}
	ids := markdown.HTMLIDs(html)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ids == nil {
		b.ids = map[string][]string{}
	}
	b.ids[outPath] = ids
}

// Keep records that the page at outPath is the previous output's file.
func (b *Built) Keep(outPath string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.kept == nil {
		b.kept = map[string]bool{}
	}
	b.kept[outPath] = true
}

// IDs are the ids of the page at outPath; none when it was not built.
func (b *Built) IDs(outPath string) []string {
	b.mu.Lock()
	ids, kept := b.ids[outPath], b.kept[outPath]
	b.mu.Unlock()
	if !kept || b.Read == nil {
		return ids
	}
	if h, ok := b.Read(outPath); ok {
		return markdown.HTMLIDs(h)
	}
	return nil
}
