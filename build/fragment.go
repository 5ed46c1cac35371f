package build

import (
	"context"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// RenderDoc renders one markdown document (front matter and all) to an HTML
// fragment through the same pipeline as a build: front matter, markdown,
// code blocks and "#N" links, resolved against the site's series files when
// the Builder's input holds a site. lang "" means the language of the
// front matter's folder, else the site's first language.
func (b *Builder) RenderDoc(ctx context.Context, path string, src []byte, lang string) ([]byte, diag.List) {
	if d, ok := source.CheckUTF8(path, src); !ok {
		return nil, diag.List{d}
	}
	src = source.Normalize(src)
	pg, diags := source.ParsePage(path, src)
	if pg == nil {
		return nil, diags
	}
	bundle, idiags := i18n.Load(b.in, b.opts.I18nDir)
	var langs []string
	if bundle != nil && len(idiags.Errors()) == 0 {
		langs = bundle.Langs()
	}
	if lang == "" {
		lang = "ja"
		if len(langs) > 0 {
			lang = langs[0]
		}
	}
	env := markdown.Env{Lang: lang}
	if bundle != nil {
		env.T = func(k string) string { return bundle.T(lang, k) }
	}
	// Resolve "#N" against the site when there is one.
	if pg.Meta.Part > 0 && len(langs) > 0 {
		content, _ := source.Load(ctx, b.in, b.opts.ContentDir, langs)
		st, _ := site.Resolve(content, site.Options{Langs: langs, Drafts: true})
		var sr *source.Series
		for _, s := range content.Series {
			if s.ID == pg.Meta.Series {
				sr = s
			}
		}
		if sr != nil {
			env.Parts = func(n int) (markdown.PartLink, bool) {
				part, ok := sr.Part(n)
				if !ok {
					return markdown.PartLink{}, false
				}
				l := markdown.PartLink{Title: part.Title[lang]}
				if q := st.PartPage(lang, sr.ID, n); q != nil {
					l.Href, l.Published = q.URL, true
				}
				return l, true
			}
		}
	}
	md := markdown.New(markdown.Options{Highlighter: b.hl})
	res := md.Render(ctx, markdown.Doc{Path: path, Src: pg.Src, BodyStart: pg.BodyStart}, env)
	return res.HTML, append(diags, res.Diags...)
}
