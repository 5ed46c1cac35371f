package page

import (
	"context"
	"encoding/binary"
	"html/template"
	"slices"
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/highlight"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
	"github.com/yuin/goldmark"
)

// NewMarkdown is the markdown renderer of a site's pages: with the
// shortcodes of reg, its code highlighted by hl, and with explicitIndex
// its relative links to folders naming their index.html
// (ExplicitIndexLinks, for copies opened from file://).
func NewMarkdown(hl *highlight.Highlighter, reg *shortcodes.Registry, explicitIndex bool) *markdown.Renderer {
	exts := []goldmark.Extender{shortcodes.Extension(reg)}
	if explicitIndex {
		exts = append(exts, ExplicitIndexLinks())
	}
	return markdown.New(markdown.Options{Highlighter: hl, Extenders: exts})
}

// Rendering is a page's rendered markdown as a build keeps it: valid
// while its source (the same parsed page) and what its links and files
// resolve against stay the same.
type Rendering struct {
	Source  *source.Page
	Result  markdown.Result // without its HTML, which is in Content
	Gen     uint64          // names the rendering by what it is made of
	Content Content
	// FromDisk: taken from the persistent cache, without HTML or text;
	// a page that must be rendered renders its markdown again.
	FromDisk bool
	// NoText: the plain text and code were dropped (WithoutText).
	NoText bool
}

// GenOrZero is the rendering's Gen; 0 for a page without markdown (a nil
// Rendering).
func (e *Rendering) GenOrZero() uint64 {
	if e == nil {
		return 0
	}
	return e.Gen
}

// WithoutHTML is a copy of the rendering without its HTML, for a build
// that keeps none; nil for nil.
func (e *Rendering) WithoutHTML() *Rendering {
	if e == nil {
		return nil
	}
	c := *e
	c.Content.HTML = ""
	return &c
}

// WithoutText is a copy of the rendering without its plain text and
// code, which a build that wrote the page's search fragment no longer
// needs; nil for nil.
func (e *Rendering) WithoutText() *Rendering {
	if e == nil {
		return nil
	}
	c := *e
	c.Result.Text, c.Result.CodeText, c.NoText = "", "", true
	return &c
}

// ForSearch is what the search index takes of the rendering; nil for a
// page without markdown (a nil Rendering).
func (e *Rendering) ForSearch() *Rendered {
	if e == nil {
		return nil
	}
	return &Rendered{Text: e.Result.Text, Code: e.Result.CodeText, Gen: e.Gen, Unknown: e.FromDisk || e.NoText}
}

// Files is what a page's markdown may show of the site's files
// (asset.Resolver): the resolver of its references, and the fingerprint
// of what they can reach.
type Files interface {
	For(p *site.Page) func(ref string) (markdown.Asset, error)
	Fingerprint(p *site.Page) uint64
}

// Renderer takes one build's pages through the markdown stage and
// assembles them: it renders a page's body, or takes the rendering a
// build made of the same input, from memory (Memo) or from the persistent
// cache (Disk). Its methods are safe for concurrent use. Its fields do
// not change while it is in use: each build has its own.
type Renderer struct {
	Assembler *Assembler
	Config    *config.Config
	MD        *markdown.Renderer
	T         func(lang, key string) string // the UI strings
	Files     Files
	// Key covers what a rendering depends on beyond its page: the UI
	// strings, the shortcode templates.
	Key  uint64
	Memo *cache.Tier[*Rendering] // the renderings kept between builds, by source path
	// Keep stores in Memo the renderings made without errors (a build
	// in memory); else Memo is only read.
	Keep bool
	Disk *cache.Cache // the persistent cache; nil for none
	// Assembled keeps the template data of the pages between builds, by
	// URL (AssembleGroup); nil for none.
	Assembled *cache.Tier[Assembled]

	paramsOnce sync.Once
	paramsFP   uint64 // the fingerprint of the site's params, taken once
}

// siteParamsFP is the fingerprint of the site's params (what the param
// shortcode shows of the site's), the same for every page.
func (r *Renderer) siteParamsFP() uint64 {
	r.paramsOnce.Do(func() {
		if r.Config != nil {
			h := cache.NewHasher()
			h.Value(r.Config.Params)
			r.paramsFP = h.Sum()
		}
	})
	return r.paramsFP
}

// Assemble renders sp's markdown (Markdown) and gathers its template
// data (Assembler.Page, ConfigurePage), returning the rendering's
// diagnostics; the rendering is nil for a page without a source file.
func (r *Renderer) Assemble(ctx context.Context, sp *site.Page, needHTML bool) (*render.Page, *Rendering, diag.List) {
	if sp.Source == nil {
		return ConfigurePage(sp, r.Assembler.Page(sp, nil), r.Config), nil, nil
	}
	e := r.Markdown(ctx, sp, needHTML)
	return ConfigurePage(sp, r.Assembler.Page(sp, &e.Content), r.Config), e, e.Result.Diags
}

// AssembleGroup assembles a page and its translations (group: indexes
// into pages, as site.Site.TranslationGroups gives them), each as
// Assemble does, and tells each one's language switcher the sections of
// the others (Anchors). When every page of the group has the renderings
// and the site its structure (Assembler.StructureFP) of an earlier build
// of this Renderer's Builder, their data is that build's (Assembled),
// taken without assembling or fingerprinting it again.
func (r *Renderer) AssembleGroup(ctx context.Context, pages []*site.Page, group []int) ([]*render.Page, []*Rendering, []diag.List) {
	ps := make([]*render.Page, len(group))
	es := make([]*Rendering, len(group))
	dss := make([]diag.List, len(group))
	for j, i := range group {
		if pages[i].Source != nil {
			es[j] = r.Markdown(ctx, pages[i], false)
			dss[j] = es[j].Result.Diags
		}
	}
	key := r.groupKey(pages, group, es)
	if r.reuse(pages, group, key, ps) {
		return ps, es, dss
	}
	toc := map[string][]markdown.Heading{}
	for j, i := range group {
		var c *Content
		if es[j] != nil {
			c = &es[j].Content
			toc[pages[i].Lang] = es[j].Content.TOC
		}
		ps[j] = ConfigurePage(pages[i], r.Assembler.Page(pages[i], c), r.Config)
	}
	for _, p := range ps {
		Anchors(p, toc)
	}
	failed := slices.ContainsFunc(dss, func(ds diag.List) bool { return len(ds.Errors()) > 0 })
	if r.Keep && r.Assembled != nil && !failed {
		for j, i := range group {
			r.Assembled.Put(pages[i].URL, key, Assembled{Page: ps[j], FP: r.Assembler.Fingerprint(ps[j], es[j].GenOrZero())})
		}
	}
	if r.Disk != nil && !failed {
		r.diskFingerprints(pages, group, key, ps, es)
	}
	return ps, es, dss
}

// diskFingerprints gives the pages of group, assembled as ps from the
// renderings es, the fingerprints the persistent cache keeps for the
// data made of what key names (groupKey), when the last build made it
// of the same; else it fingerprints them (Assembler.Fingerprint) and
// keeps their fingerprints for the next build: the data of a group made
// of the same is the same, and its fingerprint need not be taken again.
func (r *Renderer) diskFingerprints(pages []*site.Page, group []int, key uint64, ps []*render.Page, es []*Rendering) {
	for j, i := range group {
		k := "page\x00" + pages[i].URL
		if fp, b, ok := r.Disk.Record(k); ok && fp == key && len(b) == 8 {
			r.Assembler.fps.Store(ps[j], binary.LittleEndian.Uint64(b))
			r.Disk.KeepRecord(k, key, nil)
			continue
		}
		fp := r.Assembler.Fingerprint(ps[j], es[j].GenOrZero())
		r.Disk.KeepRecord(k, key, func() []byte { return binary.LittleEndian.AppendUint64(nil, fp) })
	}
}

// Assembled is a page's template data as a build made it, and its
// fingerprint (Assembler.Fingerprint).
type Assembled struct {
	Page *render.Page
	FP   uint64
}

// groupKey names what the data of the pages of group is made of: the
// site's structure, the UI strings and shortcode templates (Key), the
// configuration, and each page's URL and rendering.
func (r *Renderer) groupKey(pages []*site.Page, group []int, es []*Rendering) uint64 {
	h := cache.NewHasher()
	h.Num(int64(r.Assembler.StructureFP()))
	h.Num(int64(r.Key))
	if r.Config != nil {
		h.Bytes(r.Config.Src)
	}
	for j, i := range group {
		h.Str(pages[i].URL)
		h.Num(int64(es[j].GenOrZero()))
	}
	return h.Sum()
}

// reuse fills ps with the data an earlier build assembled for the pages
// of group from what key names, if it did for every one of them; each is
// a copy pointing at this build's site, its fingerprint the earlier one.
func (r *Renderer) reuse(pages []*site.Page, group []int, key uint64, ps []*render.Page) bool {
	if r.Assembled == nil {
		return false
	}
	olds := make([]Assembled, len(group))
	for j, i := range group {
		a, ok := r.Assembled.Get(pages[i].URL, key)
		if !ok {
			return false
		}
		olds[j] = a
	}
	for j, a := range olds {
		q := *a.Page
		q.Site = r.Assembler.Site()
		ps[j] = &q
		r.Assembler.fps.Store(ps[j], a.FP)
	}
	return true
}

// Reassemble assembles sp again, with its HTML, for p, its page
// assembled from a rendering without it (FromDisk), keeping the sections
// p's language switcher was told (AssembleGroup).
func (r *Renderer) Reassemble(ctx context.Context, sp *site.Page, p *render.Page) (*render.Page, *Rendering, diag.List) {
	q, e, ds := r.Assemble(ctx, sp, true)
	if len(ds.Errors()) == 0 {
		q.Translations = p.Translations
	}
	return q, e, ds
}

// Markdown renders the body of sp, a page with a source file, or returns
// the rendering kept in Memo when neither the file nor what its links
// (those of every series: a part shortcode may name any) and files can
// reach changed. Unless needHTML, a rendering of the same input may come
// from the persistent cache, without its HTML (the page is then likely
// reused whole).
func (r *Renderer) Markdown(ctx context.Context, sp *site.Page, needHTML bool) *Rendering {
	// The page may name a part of any series, and show any file its
	// references can reach.
	fh := cache.NewHasher()
	fh.Num(int64(r.Assembler.LinksFP(sp.Lang)))
	fh.Num(int64(r.Files.Fingerprint(sp)))
	if r.Config != nil {
		fh.Num(int64(r.siteParamsFP())) // what the param shortcode shows of the site's
	}
	fh.Str(r.pageInfoFP(sp)) // what a site shortcode template shows of the site
	fp := fh.Sum()
	src := sp.Source
	if e, ok := r.Memo.Get(src.Path, fp); ok && e.Source == src {
		return e
	}
	// gen names this rendering by what it is made of, so that the same
	// input gives the same gen in every build (fingerprints of pages and
	// of the search index build on it).
	h := cache.NewHasher()
	h.Num(int64(r.Key))
	h.Str(src.Path)
	h.Num(int64(src.Sum())) // the file's bytes, hashed once
	h.Num(int64(fp))
	gen := h.Sum()
	if d, ok := r.Disk.Markdown(src.Path, gen); ok && !needHTML {
		return &Rendering{Source: src, Gen: gen, FromDisk: true,
			Result: markdown.Result{TOC: d.TOC, Diags: d.Diags,
				IDs: d.IDs, Links: d.Links, Outline: d.Outline},
			Content: Content{TOC: d.TOC, Minutes: d.Minutes, Styles: d.Styles, Scripts: d.Scripts}}
	}
	env := markdown.Env{Lang: sp.Lang, T: func(k string) string { return r.T(sp.Lang, k) }, Assets: r.Files.For(sp)}
	var site map[string]any
	if r.Config != nil {
		site = r.Config.Params
	}
	env.Param = Param(src.Meta.Params, site)
	env.Page = r.pageInfo(sp)
	r.Assembler.Links(&env, sp)
	res := r.MD.Render(ctx, markdown.Doc{Path: src.Path, Src: src.Src, BodyStart: src.BodyStart}, env)
	e := &Rendering{Source: src, Result: res, Gen: gen, Content: Content{
		HTML: template.HTML(res.HTML), // generated by our renderer, escaped there
		TOC:  res.TOC, Minutes: markdown.ReadingMinutes(sp.Lang, res.Text), Styles: res.Styles, Scripts: res.Scripts}}
	e.Result.HTML = nil // kept once, as Content.HTML
	if len(res.Diags.Errors()) == 0 && r.Keep {
		r.Memo.Put(src.Path, fp, e)
	}
	return e
}

// Save records e, a rendering of this build, in the persistent cache for
// the next build (without its HTML); nothing for a nil e or without a
// cache.
func (r *Renderer) Save(e *Rendering) {
	if e == nil {
		return
	}
	r.Disk.KeepMarkdown(e.Source.Path, cache.Markdown{Gen: e.Gen,
		TOC: e.Result.TOC, Diags: e.Result.Diags, Minutes: e.Content.Minutes, Styles: e.Content.Styles, Scripts: e.Content.Scripts,
		IDs: e.Result.IDs, Links: e.Result.Links, Outline: e.Result.Outline})
}
