package build

import (
	"context"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/page"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// RenderDoc renders one markdown document (front matter and all) to an HTML
// fragment through the same pipeline as a build: front matter
// (source.ParseDocument), markdown, shortcodes, code blocks and "#N"
// links, resolved against the site's series files (page.Fragment). lang
// "" means the site's first language; another must be one of the site's
// (Langs). "#N" links are site-absolute, since the fragment has no page
// of its own.
func (b *Builder) RenderDoc(ctx context.Context, path string, src []byte, lang string) ([]byte, diag.List) {
	pg, diags := source.ParseDocument(path, src)
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
	if ds := slices.Concat(b.cfgDiags, b.look.Diags).Errors(); len(ds) > 0 {
		return nil, append(diags, ds...)
	}
	langs := b.langs
	if lang == "" {
		lang = langs[0]
	}
	if !slices.Contains(langs, lang) {
		return nil, append(diags, diag.File(path, "language %q is not one of the site's languages (%s)", lang, strings.Join(langs, ", ")))
	}
	content, _ := b.loader.Load(ctx, b.in, b.opts.Layout.Content, langs)
	st, _ := site.Resolve(content, site.Options{Langs: langs, Drafts: true})
	res := page.Fragment(ctx, b.look.MD, st, pg, lang, b.look.Bundle.T)
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
	if err := b.cfgDiags.Err(); err != nil {
		return nil, err
	}
	return slices.Clone(b.langs), nil
}
