package build

import (
	"context"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// RenderDoc renders one markdown document (front matter and all) to an HTML
// fragment through the same pipeline as a build: front matter, markdown,
// shortcodes, code blocks and "#N" links, resolved against the site's
// series files. lang "" means the site's first language; another must be
// one of the site's (Langs). "#N" links are site-absolute, since the
// fragment has no page of its own.
func (b *Builder) RenderDoc(ctx context.Context, path string, src []byte, lang string) ([]byte, diag.List) {
	if d, ok := source.CheckUTF8(path, src); !ok {
		return nil, diag.List{d}
	}
	src = source.Normalize(src)
	pg, diags := source.ParsePage(path, src)
	if pg == nil {
		return nil, diags
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.loadConfig(ctx); err != nil {
		return nil, append(diags, diag.FromError(err)...)
	}
	if err := b.loadTheme(ctx); err != nil {
		return nil, append(diags, diag.FromError(err)...)
	}
	langs := b.langs
	if lang == "" {
		lang = langs[0]
	}
	if !slices.Contains(langs, lang) {
		return nil, append(diags, diag.File(path, "language %q is not one of the site's languages (%s)", lang, strings.Join(langs, ", ")))
	}
	env := markdown.Env{Lang: lang, T: func(k string) string { return b.bundle.T(lang, k) }}
	content, _ := b.loader.Load(ctx, b.in, b.opts.Layout.Content, langs)
	st, _ := site.Resolve(content, site.Options{Langs: langs, Drafts: true})
	sp := &site.Page{Lang: lang}
	for _, sr := range st.Series {
		if pg.Meta.Part > 0 && sr.ID == pg.Meta.Series {
			sp.Series = sr
		}
	}
	page.Links(&env, st, sp, false)
	res := b.md.Render(ctx, markdown.Doc{Path: path, Src: pg.Src, BodyStart: pg.BodyStart}, env)
	return res.HTML, append(diags, res.Diags...)
}

// Langs is the site's languages, in order, as build/config works them
// out from the configuration file and the content folders: the ones a
// build of the site now would publish.
func (b *Builder) Langs(ctx context.Context) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.loadConfig(ctx); err != nil {
		return nil, err
	}
	return slices.Clone(b.langs), nil
}
