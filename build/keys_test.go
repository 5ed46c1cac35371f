package build_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

func headers(l diag.List) []string {
	var out []string
	for _, d := range l {
		out = append(out, d.Header())
	}
	return out
}

// unusedKeys builds the site of s afresh and returns the warnings of its
// unused keys.
func unusedKeys(t *testing.T, s *sitetest.Site) []string {
	t.Helper()
	b, err := build.New(s.Fs(), s.Options())
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range res.Summary.Warnings {
		if d.Code == "unused-string" {
			out = append(out, d.Header())
		}
	}
	return out
}

// TestKeysBundledCourse: the bundled course's pages hold no "[lang:key]"
// placeholder, the heading anchors have their label, and the keys used
// only through keys built at run time are not reported as unused.
func TestKeysBundledCourse(t *testing.T) {
	s := sitetest.Test(t, "", sitetest.Course())
	site := s.Result().Site
	pages := 0
	for _, p := range site.Paths() {
		if !strings.HasSuffix(p, ".html") && !strings.HasSuffix(p, ".xml") && !strings.HasSuffix(p, ".json") {
			continue
		}
		b, _ := site.Get(p)
		pages++
		for _, lang := range []string{"ja", "ko"} {
			if i := strings.Index(string(b), "["+lang+":"); i >= 0 {
				t.Errorf("%s holds a placeholder: %q", p, string(b[i:min(len(b), i+40)]))
			}
		}
	}
	if pages < 10 {
		t.Fatalf("only %d pages to look at", pages)
	}
	s.AssertContains("ja/cka/05-ha-cluster/index.html", `この見出しへのリンク`).
		AssertContains("ko/cka/05-ha-cluster/index.html", `이 제목으로 가는 링크`)

	unused := unusedKeys(t, s)
	t.Logf("unused keys of the bundled course:\n\t%s", strings.Join(unused, "\n\t"))
	for _, k := range []string{"callout_note", "callout_exam", "calc_quorum_ok", "calc_kind_etcd_peer", "calc_ha_title_external",
		"lang_ja", "lang_ko", "date_format", "og_locale", "prev", "next", "anchor", "quorum_members"} {
		for _, u := range unused {
			if strings.Contains(u, `"`+k+`"`) {
				t.Errorf("%s: but %q is used", u, k)
			}
		}
	}
	for _, u := range unused {
		if !strings.HasPrefix(u, "i18n/ja.toml:") && !strings.HasPrefix(u, "i18n/ko.toml:") || !strings.HasSuffix(u, " is not used") {
			t.Errorf("unused key %q: want it at its line in i18n/<lang>.toml", u)
		}
	}
}

// TestKeysTemplateMissing: a layout or a site shortcode template asking
// for a key no language has fails the build at the key's file:line:col,
// once per language.
func TestKeysTemplateMissing(t *testing.T) {
	sitetest.New(t, twoParts(t)+`-- themes/default/layouts/zz-keys.html --
{{define "zz-keys"}}
<p>{{T "no_such_key"}}</p>{{end}}
`).BuildFails(
		`themes/default/layouts/zz-keys.html:2:8: UI string "no_such_key" is missing from (embedded) i18n/ja.toml`,
		`themes/default/layouts/zz-keys.html:2:8: UI string "no_such_key" is missing from (embedded) i18n/ko.toml`,
	).AssertErrorText(`    2 | <p>{{T "no_such_key"}}</p>{{end}}`)

	sitetest.New(t, twoParts(t)+`-- themes/default/shortcodes/zz.html --
<b>{{T "nope"}}</b>
`).BuildFails(
		`themes/default/shortcodes/zz.html:1:8: UI string "nope" is missing from (embedded) i18n/ja.toml`,
		`themes/default/shortcodes/zz.html:1:8: UI string "nope" is missing from (embedded) i18n/ko.toml`,
	)

	// The site adds the key: the build passes, and the page says it.
	s := sitetest.New(t, twoParts(t)+`-- themes/default/shortcodes/zz.html --
<b>{{T "nope"}}</b>
`)
	s.WriteFile("i18n/ja.toml", "nope = \"いいえ\"\n").WriteFile("i18n/ko.toml", "nope = \"아니요\"\n").Append(ja1, "\n{{< zz >}}\n").Build().
		AssertContains("ja/cka/01-intro/index.html", "<b>いいえ</b>")
	// In a site missing the key in one of its languages only, the
	// message names that language's file, and the template's use of it
	// is reported in the same build.
	s.WriteFile("i18n/ko.toml", "toc = \"차례\"\n").BuildFails(
		`i18n/ja.toml:1:1: key "nope" is missing from i18n/ko.toml`,
		`themes/default/shortcodes/zz.html:1:8: UI string "nope" is missing from i18n/ko.toml`,
	)
}

// TestKeysSiteOverride: a site's i18n/ko.toml of one key is laid over the
// embedded strings: nothing is missing, nothing of it unused.
func TestKeysSiteOverride(t *testing.T) {
	s := sitetest.New(t, twoParts(t)+`-- i18n/ko.toml --
# The site's own wording.
toc = "차례"
`).Append(ja1, "\n## 続き\n\n終わり。\n").Append(ko1, "\n## 더 읽기\n\n끝.\n").Build().AssertWarnings()
	s.AssertContains("ko/cka/01-intro/index.html", "이 제목으로 가는 링크")
	for _, u := range unusedKeys(t, s) {
		if strings.HasPrefix(u, "i18n/ko.toml") || strings.Contains(u, "(embedded)") {
			t.Errorf("unused key %q: the site's ko.toml uses toc only, and an embedded key is not the site's", u)
		}
	}
}

// TestKeysUnused: a key of the site's strings nothing uses is a warning
// of the build at its line in each file, as check reports it.
func TestKeysUnused(t *testing.T) {
	want := []string{
		`i18n/ja.toml:1:1: warning: UI string "foo" is not used`,
		`i18n/ko.toml:2:1: warning: UI string "foo" is not used`,
	}
	s := sitetest.Test(t, twoParts(t)+`-- i18n/ja.toml --
foo = "ふう"
toc = "もくじ"
-- i18n/ko.toml --
# mine
foo = "푸"
`).AssertWarnings(want...)
	if got := unusedKeys(t, s); !slices.Equal(got, want) {
		t.Errorf("unused keys:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// repoKeys is every key of the repository's ja.toml, sorted.
func repoKeys(t *testing.T) []string {
	t.Helper()
	b, diags := i18n.Load(context.Background(), afero.NewBasePathFs(afero.NewOsFs(), sitetest.RepoRoot(t)), "i18n")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return b.Keys("ja")
}

// frToml holds every key of the repository's strings but skip, plus
// extra lines.
func frToml(t *testing.T, skip string, extra ...string) string {
	var b strings.Builder
	for _, k := range repoKeys(t) {
		if k != skip {
			b.WriteString(k + " = \"fr " + k + "\"\n")
		}
	}
	for _, e := range extra {
		b.WriteString(e + "\n")
	}
	return b.String()
}

// lineOf is the 1-based line of the key in the repository's i18n/name.
func lineOf(t *testing.T, name, key string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(sitetest.RepoRoot(t), "i18n", name))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, key+" ") {
			return strconv.Itoa(i + 1)
		}
	}
	t.Fatalf("no %s in %s", key, name)
	return ""
}

const frConfig = `-- kakehashi.toml --
languages = ["ja", "ko", "fr"]
`

// TestKeysThirdLanguage: a site adding a language the binary has no
// strings for must give it every key, the code's among them, in a file
// of its own, and nothing more: the other languages name it by its own
// name (its lang_name) until their files say otherwise.
func TestKeysThirdLanguage(t *testing.T) {
	// fr.toml lacks a key the markdown renderer asks for, and the
	// series its titles: the same build says both.
	sitetest.New(t, twoParts(t)+frConfig+"-- i18n/fr.toml --\n"+frToml(t, "anchor")).BuildFails(
		`(embedded) i18n/ja.toml:`+lineOf(t, "ja.toml", "anchor")+`:1: key "anchor" is missing from i18n/fr.toml`,
		`(embedded) i18n/ko.toml:`+lineOf(t, "ko.toml", "anchor")+`:1: key "anchor" is missing from i18n/fr.toml`,
		`content/series/cka.yaml:4:5: part #1 has no fr title`,
		`content/series/cka.yaml:7:5: part #2 has no fr title`,
		`content/series/cka.yaml:10:5: part #3 has no fr title`,
		`i18n/fr.toml: UI string "anchor" is missing (used by the markdown renderer)`,
	)
	// No strings at all: the language is named at the configuration.
	sitetest.New(t, twoParts(t)+frConfig).BuildFails(
		`kakehashi.toml:1:26: language "fr" has no UI strings: add i18n/fr.toml, or use one of en, ja, ko`,
	)

	// Every key: the site builds once its series has French titles.
	s := sitetest.New(t, twoParts(t)+frConfig+"-- i18n/fr.toml --\n"+frToml(t, "lang_name", `lang_name = "Français"`)).
		Replace("content/series/cka.yaml", "ko: CKA}", "ko: CKA, fr: CKA}", "ko: 소개}", "ko: 소개, fr: Intro}",
			"ko: 구조}", "ko: 구조, fr: Dedans}", "ko: 다음}", "ko: 다음, fr: Suite}")
	s.Build().AssertContains("ja/cka/01-intro/index.html", `hreflang="fr" lang="fr">Français<`).
		AssertContains("fr/cka/01-intro/index.html", `<html lang="fr"`)
	// A name in the site's ja.toml is the site's, and used.
	s.WriteFile("i18n/ja.toml", "lang_fr = \"フランス語\"\n").Build().AssertFresh()
	if got := unusedKeys(t, s); len(got) != 0 {
		t.Errorf("unused keys %q, want none: lang_fr is used", got)
	}
}

// TestCheckKeys: a code key missing from the strings is named at each
// language's file with its user; a template's, at its use.
func TestCheckKeys(t *testing.T) {
	fsys := afero.NewMemMapFs()
	for name, body := range map[string]string{
		"i18n/ja.toml": "toc = \"目次\"\nlang_ja = \"日本語\"\n",
		"i18n/ko.toml": "toc = \"목차\"\nlang_ja = \"일본어\"\n",
	} {
		if err := afero.WriteFile(fsys, name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, diags := i18n.Load(context.Background(), fsys, "i18n")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	code := []i18n.KeyGroup{
		{User: "the markdown renderer", Package: "build/markdown", Keys: []string{"anchor", "toc"}},
		{User: "the single-file export", Package: "build/export", Keys: []string{"anchor"}},
	}
	uses := []render.KeyUse{{Key: "toc", File: "x.html", Line: 1, Col: 5}, {Key: "nope", File: "x.html", Line: 2, Col: 3},
		{Format: i18n.LangNameFormat, File: "y.html", Line: 3, Col: 1}, {Format: "other_%s", File: "y.html", Line: 4, Col: 1}, {Unknown: true, File: "z.html"}}
	got := headers(render.CheckKeys(b, []string{"ja", "ko"}, code, uses))
	want := []string{
		`i18n/ja.toml: UI string "anchor" is missing (used by the markdown renderer and the single-file export)`,
		`i18n/ko.toml: UI string "anchor" is missing (used by the markdown renderer and the single-file export)`,
		`x.html: UI string "nope" is missing from i18n/ja.toml`,
		`x.html: UI string "nope" is missing from i18n/ko.toml`,
		`y.html: UI string "lang_ko", the name of language "ko", is missing from i18n/ja.toml`,
		`y.html: UI string "lang_ko", the name of language "ko", is missing from i18n/ko.toml`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("CheckKeys:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if got := render.CheckKeys(b, []string{"ja"}, nil, uses[:1]); len(got) != 0 {
		t.Errorf("CheckKeys of a key every language has: %v", got)
	}

	// The real inventory against strings lacking it: the heading
	// anchor's label, by name.
	got = headers(render.CheckKeys(b, []string{"ja", "ko"}, i18n.CodeKeys, nil))
	if !slices.Contains(got, `i18n/ko.toml: UI string "anchor" is missing (used by the markdown renderer)`) {
		t.Errorf("CheckKeys of CodeKeys:\n\t%s", strings.Join(got, "\n\t"))
	}

	// Unused: what no code, use or format asks for.
	unused := headers(render.UnusedKeys(b, code, []render.KeyUse{{Format: "lang_%s"}}))
	if len(unused) != 0 {
		t.Errorf("UnusedKeys with toc and lang_%%s used: %q", unused)
	}
	unused = headers(render.UnusedKeys(b, nil, []render.KeyUse{{Format: "lang_%d"}}))
	if want := []string{
		`i18n/ja.toml:1:1: warning: UI string "toc" is not used`,
		`i18n/ko.toml:1:1: warning: UI string "toc" is not used`,
	}; !slices.Equal(unused, want) {
		t.Errorf("UnusedKeys:\n\t%s\nwant:\n\t%s", strings.Join(unused, "\n\t"), strings.Join(want, "\n\t"))
	}
}
