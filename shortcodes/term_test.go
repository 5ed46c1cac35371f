package shortcodes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/markdown"
	"github.com/yuin/goldmark"
)

// termEnv is a page of lang on a site whose glossary has quorum (with a
// definition) and etcd-member (without), and ha, with no Korean term.
func termEnv(lang string, glossary bool) markdown.Env {
	env := markdown.Env{Lang: lang}
	if !glossary {
		return env
	}
	terms := map[string]map[string]markdown.Term{
		"ja": {"quorum": {Text: "クォーラム", Definition: "過半数のメンバー数。", Href: "../../glossary/#quorum"},
			"etcd-member": {Text: "etcd メンバー", Href: "../../glossary/#etcd-member"},
			"ha":          {Text: "高可用性", Href: "../../glossary/#ha"}},
		"ko": {"quorum": {Text: "쿼럼", Definition: "과반수의 멤버 수.", Href: "../../glossary/#quorum"},
			"etcd-member": {Text: "etcd 멤버", Href: "../../glossary/#etcd-member"},
			"ha":          {Text: "高可用性", TextLang: "ja", Href: "../../glossary/#ha"}},
	}
	env.TermIDs = []string{"quorum", "etcd-member", "ha"}
	env.Term = func(id string) (markdown.Term, bool) { t, ok := terms[lang][id]; return t, ok }
	return env
}

func TestTerm(t *testing.T) {
	tests := []struct {
		name, lang, src string
		noGlossary      bool
		html            []string // in the HTML, in order
		diags           []string
		styles          []string
	}{
		{name: "with its definition", lang: "ko", src: "{{< term quorum >}}를 잃으면",
			html:   []string{`<span class="term"><a href="../../glossary/#quorum" aria-describedby="term-quorum-1">쿼럼</a><span class="term-tip" role="tooltip" id="term-quorum-1">과반수의 멤버 수.</span></span>를 잃으면`},
			styles: []string{TermCSS}},
		{name: "named argument, the page's language", lang: "ja", src: `{{< term id="quorum" >}}`,
			html: []string{`>クォーラム</a>`, `過半数のメンバー数。`}, styles: []string{TermCSS}},
		{name: "two calls, two ids", lang: "ko", src: "{{< term quorum >}} {{< term quorum >}}",
			html: []string{`id="term-quorum-1"`, `id="term-quorum-2"`}, styles: []string{TermCSS}},
		{name: "no definition: no tooltip", lang: "ko", src: "{{< term etcd-member >}}",
			html: []string{`<span class="term"><a href="../../glossary/#etcd-member">etcd 멤버</a></span>`}, styles: []string{TermCSS}},
		{name: "another language's term, marked", lang: "ko", src: "{{< term ha >}}",
			html: []string{`<a href="../../glossary/#ha" lang="ja">高可用性</a>`}, styles: []string{TermCSS}},
		{name: "unknown id, near one", lang: "ko", src: "{{< term qourum >}}",
			diags: []string{`p.md:1:1: term "qourum" is not in the glossary; did you mean "quorum"?`}, html: []string{"qourum"}},
		{name: "unknown id, none near", lang: "ko", src: "{{< term kubelet >}}",
			diags: []string{`p.md:1:1: term "kubelet" is not in the glossary (its ids: quorum, etcd-member, ha)`}},
		{name: "no glossary", lang: "ko", src: "{{< term quorum >}}", noGlossary: true,
			diags: []string{`p.md:1:1: term "quorum": the site has no glossary (content/glossary.yaml)`}},
		{name: "no id", lang: "ko", src: "{{< term >}}", diags: []string{"p.md:1:1: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := markdown.New(markdown.Options{Extenders: []goldmark.Extender{Extension(NewRegistry())}})
			res := r.Render(context.Background(), markdown.Doc{Path: "p.md", Src: []byte(tt.src)}, termEnv(tt.lang, !tt.noGlossary))
			html := string(res.HTML)
			at := 0
			for _, want := range tt.html {
				i := strings.Index(html[at:], want)
				if i < 0 {
					t.Errorf("HTML lacks %q after offset %d:\n%s", want, at, html)
					break
				}
				at += i + len(want)
			}
			got := headers(res)
			if len(tt.diags) == 1 && strings.HasSuffix(tt.diags[0], ": ") {
				if len(got) != 1 || !strings.HasPrefix(got[0], tt.diags[0]) {
					t.Errorf("diagnostics %q, want one starting %q", got, tt.diags[0])
				}
			} else if !slices.Equal(got, tt.diags) {
				t.Errorf("diagnostics\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.diags, "\n\t"))
			}
			if tt.styles != nil && !slices.Equal(res.Styles, tt.styles) {
				t.Errorf("styles %v, want %v", res.Styles, tt.styles)
			}
		})
	}
}
