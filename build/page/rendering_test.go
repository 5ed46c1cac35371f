package page

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/cache"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/kakehashi-dev/kakehashi/build/site"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// files is a Files whose fingerprint the test sets, that resolves no
// reference.
type files struct{ fp uint64 }

func (f *files) For(*site.Page) func(string) (markdown.Asset, error) { return nil }
func (f *files) Fingerprint(*site.Page) uint64                       { return f.fp }

// renderSite is a resolved site of one article in ja and ko, and a
// Renderer of its pages that renders with a counting renderer.
func renderSite(t *testing.T, memo *cache.Tier[*Rendering], disk *cache.Cache, f Files) (*site.Site, *Renderer) {
	t.Helper()
	fs := afero.NewMemMapFs()
	for p, s := range map[string]string{
		"content/ja/notes/a.md": "---\ntitle: 記事\n---\n## 見出し\n\n本文の段落。\n",
		"content/ko/notes/a.md": "---\ntitle: 기사\n---\n## 제목\n\n본문 단락.\n",
	} {
		if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	langs := []string{"ja", "ko"}
	c, ds := source.Load(context.Background(), fs, "content", langs)
	st, rds := site.Resolve(c, site.Options{Langs: langs})
	if err := append(ds, rds...).Err(); err != nil {
		t.Fatal(err)
	}
	t9n := func(_, k string) string { return k }
	a := New(st, Options{Langs: langs, BaseURL: "https://example.org/", T: t9n})
	return st, &Renderer{Assembler: a, Config: &config.Config{Calculators: true, EditURL: "https://example.org/edit/{path}"}, MD: markdown.New(markdown.Options{}), T: t9n, Files: f, Key: 1, Memo: memo, Keep: true, Disk: disk}
}

func sourcePage(t *testing.T, st *site.Site, lang string) *site.Page {
	t.Helper()
	for _, sp := range st.Pages {
		if sp.Lang == lang && sp.Source != nil {
			return sp
		}
	}
	t.Fatalf("no %s page with a source", lang)
	return nil
}

// TestRendererMemo: a rendering is kept while the page and what it can
// reach stay the same, and made again when its files change; a Renderer
// that does not keep reads the kept ones only.
func TestRendererMemo(t *testing.T) {
	ctx := context.Background()
	var memo cache.Tier[*Rendering]
	f := &files{fp: 1}
	st, r := renderSite(t, &memo, nil, f)
	sp := sourcePage(t, st, "ja")
	e := r.Markdown(ctx, sp, false)
	if !strings.Contains(string(e.Content.HTML), "本文の段落。") || e.Result.HTML != nil || e.FromDisk {
		t.Fatalf("rendering: %q, Result.HTML %q, FromDisk %v", e.Content.HTML, e.Result.HTML, e.FromDisk)
	}
	if len(e.Content.TOC) != 1 || e.Content.Minutes < 1 || !strings.Contains(e.Result.Text, "本文の段落") {
		t.Errorf("rendering: TOC %v, %d minutes, text %q", e.Content.TOC, e.Content.Minutes, e.Result.Text)
	}
	if again := r.Markdown(ctx, sp, false); again != e {
		t.Error("an unchanged page was rendered again")
	}
	f.fp = 2
	changed := r.Markdown(ctx, sp, false)
	if changed == e || changed.Gen == e.Gen {
		t.Error("a page whose files changed kept its rendering")
	}
	f.fp = 3
	r.Keep = false
	if a, b := r.Markdown(ctx, sp, false), r.Markdown(ctx, sp, false); a == b {
		t.Error("a Renderer that does not keep kept a rendering")
	}
	f.fp = 2
	if got := r.Markdown(ctx, sp, false); got != changed {
		t.Error("a Renderer that does not keep did not read the kept rendering")
	}
}

// TestRendererGen: the same input gives the same Gen in another build;
// another Key (the UI strings, the shortcode templates) another.
func TestRendererGen(t *testing.T) {
	ctx := context.Background()
	var m1, m2 cache.Tier[*Rendering]
	st1, r1 := renderSite(t, &m1, nil, &files{fp: 1})
	st2, r2 := renderSite(t, &m2, nil, &files{fp: 1})
	g1, g2 := r1.Markdown(ctx, sourcePage(t, st1, "ko"), false).Gen, r2.Markdown(ctx, sourcePage(t, st2, "ko"), false).Gen
	if g1 != g2 {
		t.Errorf("the same input gave gens %x and %x", g1, g2)
	}
	var m3 cache.Tier[*Rendering]
	st3, r3 := renderSite(t, &m3, nil, &files{fp: 1})
	r3.Key = 2
	if g3 := r3.Markdown(ctx, sourcePage(t, st3, "ko"), false).Gen; g3 == g1 {
		t.Error("another Key gave the same gen")
	}
}

// TestRendererDisk: a rendering saved in the persistent cache comes back
// in the next process without its HTML and its text, unless the HTML is
// needed.
func TestRendererDisk(t *testing.T) {
	ctx := context.Background()
	fs := afero.NewMemMapFs()
	disk := cache.Open(fs, "cache", 1)
	var m1 cache.Tier[*Rendering]
	st, r := renderSite(t, &m1, disk, &files{fp: 1})
	made := r.Markdown(ctx, sourcePage(t, st, "ja"), false)
	r.Save(made)
	r.Save(nil)
	disk.Save(nil)

	var m2 cache.Tier[*Rendering]
	st, r = renderSite(t, &m2, cache.Open(fs, "cache", 1), &files{fp: 1})
	sp := sourcePage(t, st, "ja")
	e := r.Markdown(ctx, sp, false)
	// Nor its text: the search index keeps the page's terms, and its
	// fragment, apart; a fragment to make again renders it again.
	if !e.FromDisk || e.Content.HTML != "" || e.Gen != made.Gen || e.Result.Text != "" || !e.ForSearch().Unknown || made.ForSearch().Unknown ||
		e.Content.Minutes != made.Content.Minutes || len(e.Content.TOC) != 1 {
		t.Errorf("from disk: %+v\nmade: %+v", e, made)
	}
	// What the whole-site checks read of it (build/check).
	if len(made.Result.IDs) == 0 || len(made.Result.Outline) == 0 || !reflect.DeepEqual(e.Result.IDs, made.Result.IDs) ||
		!reflect.DeepEqual(e.Result.Links, made.Result.Links) || !reflect.DeepEqual(e.Result.Outline, made.Result.Outline) {
		t.Errorf("from disk: ids %q, links %+v, outline %+v\nmade: %q, %+v, %+v", e.Result.IDs, e.Result.Links, e.Result.Outline,
			made.Result.IDs, made.Result.Links, made.Result.Outline)
	}
	if e := r.Markdown(ctx, sp, true); e.FromDisk || e.Content.HTML != made.Content.HTML {
		t.Errorf("with its HTML needed: FromDisk %v, %q", e.FromDisk, e.Content.HTML)
	}
}

// TestRendererAssemble: a page with a source file is assembled with its
// rendering, and with what the configuration says of it (an article's
// edit link); one without has no rendering.
func TestRendererAssemble(t *testing.T) {
	ctx := context.Background()
	var memo cache.Tier[*Rendering]
	st, r := renderSite(t, &memo, nil, &files{})
	articles := 0
	for _, sp := range st.Pages {
		if sp.Kind == site.KindArticle {
			articles++
		}
		p, e, _ := r.Assemble(ctx, sp, false)
		if p == nil || p.URL != sp.URL {
			t.Fatalf("%s: assembled %+v", sp.URL, p)
		}
		switch {
		case sp.Source == nil && e != nil:
			t.Errorf("%s: a page without a source file has a rendering", sp.URL)
		case sp.Source != nil && (e == nil || p.Content != e.Content.HTML || p.Content == ""):
			t.Errorf("%s: the page's content is not its rendering's", sp.URL)
		case sp.Kind == site.KindArticle && p.EditURL != "https://example.org/edit/"+sp.Source.Path:
			t.Errorf("%s: edit link %q", sp.URL, p.EditURL)
		}
	}
	if articles != 2 {
		t.Errorf("%d articles, want 2", articles)
	}
}

// TestRenderingNil: a page without markdown (a nil Rendering) has gen 0,
// nothing for search and no copy.
func TestRenderingNil(t *testing.T) {
	var e *Rendering
	if e.GenOrZero() != 0 || e.ForSearch() != nil || e.WithoutHTML() != nil {
		t.Error("a nil Rendering is not empty")
	}
	e = &Rendering{Gen: 5, Result: markdown.Result{Text: "t", CodeText: "c"}, Content: Content{HTML: "<p>t</p>", Minutes: 1}}
	if r := e.ForSearch(); *r != (Rendered{Text: "t", Code: "c", Gen: 5}) {
		t.Errorf("ForSearch: %+v", r)
	}
	if c := e.WithoutHTML(); c.Content.HTML != "" || c.Content.Minutes != 1 || e.Content.HTML == "" || c.GenOrZero() != 5 {
		t.Errorf("WithoutHTML: %+v, original %+v", c, e)
	}
}

// TestRendererAssembleGroup: a page and its translation, assembled
// together, each know the sections of the other for the language
// switcher.
func TestRendererAssembleGroup(t *testing.T) {
	var memo cache.Tier[*Rendering]
	st, r := renderSite(t, &memo, nil, &files{})
	ja := sourcePage(t, st, "ja")
	for _, group := range st.TranslationGroups() {
		if !slices.ContainsFunc(group, func(i int) bool { return st.Pages[i] == ja }) {
			continue
		}
		ps, es, _ := r.AssembleGroup(context.Background(), st.Pages, group)
		if len(ps) != 2 || len(es) != 2 {
			t.Fatalf("the article's group assembled %d pages, want 2", len(ps))
		}
		for j, p := range ps {
			if p.URL != st.Pages[group[j]].URL || es[j] == nil || len(p.Translations) != 2 {
				t.Errorf("page %d: %s with %d translations, want %s with 2", j, p.URL, len(p.Translations), st.Pages[group[j]].URL)
			}
			for _, tr := range p.Translations {
				if !strings.HasPrefix(tr.Anchors, "2:") {
					t.Errorf("%s: the switcher's %s has sections %q, want its heading", p.URL, tr.Lang, tr.Anchors)
				}
			}
		}
		return
	}
	t.Fatal("no group holds the article")
}

// TestRendererReassemble: a page assembled from a rendering the
// persistent cache kept without its HTML is assembled again with it, its
// language switcher keeping the sections it was told.
func TestRendererReassemble(t *testing.T) {
	ctx := context.Background()
	fs := afero.NewMemMapFs()
	disk := cache.Open(fs, "cache", 1)
	var m1 cache.Tier[*Rendering]
	st, r := renderSite(t, &m1, disk, &files{})
	for _, sp := range st.Pages {
		if sp.Source != nil {
			r.Save(r.Markdown(ctx, sp, false).WithoutHTML())
		}
	}
	disk.Save(nil)

	var m2 cache.Tier[*Rendering]
	st, r = renderSite(t, &m2, cache.Open(fs, "cache", 1), &files{})
	var group []int
	for i, sp := range st.Pages {
		if sp.Source != nil {
			group = append(group, i)
		}
	}
	ps, es, _ := r.AssembleGroup(ctx, st.Pages, group)
	if len(ps) != 2 {
		t.Fatalf("%d pages with a source, want 2", len(ps))
	}
	for j, p := range ps {
		if !es[j].FromDisk || p.Content != "" || p.Translations[0].Anchors == "" {
			t.Fatalf("%s: from disk %v, content %q, anchors %q", p.URL, es[j].FromDisk, p.Content, p.Translations[0].Anchors)
		}
		q, e, ds := r.Reassemble(ctx, st.Pages[group[j]], p)
		if len(ds) > 0 || e.FromDisk || q.Content == "" || !reflect.DeepEqual(q.Translations, p.Translations) {
			t.Errorf("%s: again: %v, from disk %v, content %q, translations %+v, want %+v", q.URL, ds, e.FromDisk, q.Content, q.Translations, p.Translations)
		}
	}
}

// TestNewMarkdown: a page's renderer runs the shortcodes of its registry,
// and names a folder's index.html in relative links only for an explicit
// index.
func TestNewMarkdown(t *testing.T) {
	src := "[b](../b/)\n\n{{< nosuch >}}\n"
	for _, explicit := range []bool{false, true} {
		md := NewMarkdown(nil, shortcodes.NewRegistry(), explicit)
		res := md.Render(context.Background(), markdown.Doc{Path: "a.md", Src: []byte(src)}, markdown.Env{Lang: "ja"})
		if got := strings.Contains(string(res.HTML), `href="../b/index.html"`); got != explicit {
			t.Errorf("explicit %v: links to index.html %v in\n%s", explicit, got, res.HTML)
		}
		if len(res.Diags.Errors()) != 1 || !strings.Contains(res.Diags.Errors()[0].Msg, "nosuch") {
			t.Errorf("explicit %v: %v, want the unknown shortcode reported", explicit, res.Diags)
		}
	}
}
