package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func useStrings(uses []KeyUse) []string {
	var out []string
	for _, u := range uses {
		out = append(out, u.String())
	}
	return out
}

// TestThemeKeys: each form of lookup in a layout is found, at its key's
// file:line:col.
func TestThemeKeys(t *testing.T) {
	fsys := themeFs(t, map[string]string{
		"theme/layouts/article.html": `{{define "title"}}{{.Title}}{{end}}
{{define "main"}}<main>{{T "toc"}} {{Tf "reading_time" 3}}
  <p lang="ko">{{Tin "ko" "lang_name"}} {{"piped" | T}}</p>
  {{with .Series}}{{T .Title}}{{end}}
  {{T (printf "lang_%s" .Lang)}} — 日本語 {{T "after_wide"}}
  {{template "dir" dict "ref" . "class" "prev"}}{{template "dir" (dict "class" "next")}}
</main>{{end}}
`,
		"theme/layouts/partials.html": `{{define "dir"}}<span>{{T .class}}</span>{{end}}
{{define "unused"}}{{if .X}}{{T "in_if"}}{{else}}{{Tf "in_else" 1}}{{end}}{{range .Y}}{{T "in_range"}}{{end}}{{end}}
`,
	})
	th, diags := loadMem(t, fsys)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	got := useStrings(th.Keys())
	want := []string{
		`theme/layouts/article.html:2:28 toc`,
		`theme/layouts/article.html:2:41 reading_time`,
		`theme/layouts/article.html:3:27 lang_name`,
		`theme/layouts/article.html:3:43 piped`,
		`theme/layouts/article.html:4:23 ?`,
		`theme/layouts/article.html:5:15 printf lang_%s`,
		`theme/layouts/article.html:5:44 after_wide`,
		`theme/layouts/article.html:6:41 prev`,
		`theme/layouts/article.html:6:80 next`,
		`theme/layouts/partials.html:2:33 in_if`,
		`theme/layouts/partials.html:2:55 in_else`,
		`theme/layouts/partials.html:2:91 in_range`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("uses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Columns count characters (5:44, after "—" and "日本語"); a
	// diagnostic at a use quotes its line.
	u := th.Keys()[0]
	d := u.At("UI string %q is missing", u.Key)
	if d.Header() != `theme/layouts/article.html:2:28: UI string "toc" is missing` || !strings.Contains(d.String(), `{{T "toc"}}`) {
		t.Errorf("diagnostic:\n%s", d.String())
	}
}

// TestThemeKeysDictNotConstant: {{T .field}} whose callers do not all
// give a constant is a key the trees do not tell.
func TestThemeKeysDictNotConstant(t *testing.T) {
	fsys := themeFs(t, map[string]string{
		"theme/layouts/partials.html": `{{define "dir"}}{{T .class}}{{end}}
{{define "a"}}{{template "dir" dict "class" "prev"}}{{template "dir" dict "class" .Kind}}{{end}}
`,
	})
	th, diags := loadMem(t, fsys)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	got := useStrings(th.Keys())
	if !slices.Contains(got, `theme/layouts/partials.html:1:21 ?`) || slices.ContainsFunc(got, func(s string) bool { return strings.HasSuffix(s, " prev") }) {
		t.Errorf("uses %q, want only the unknown key of {{T .class}}", got)
	}
}

// TestDefaultThemeKeys: the default theme's layouts ask for the keys
// the site strings hold, the pager's prev and next through its dict,
// and the languages' names through printf.
func TestDefaultThemeKeys(t *testing.T) {
	th := loadDefault(t)
	uses := th.Keys()
	keys := map[string]bool{}
	for _, u := range uses {
		switch {
		case u.Unknown:
			t.Errorf("%s: a key the default theme builds in a way the build cannot check", u)
		case u.Format != "":
			if u.Format != "lang_%s" {
				t.Errorf("%s: a format other than lang_%%s", u)
			}
		default:
			keys[u.Key] = true
			if !th.bundle.Has("ja", u.Key) || !th.bundle.Has("ko", u.Key) {
				t.Errorf("%s: no such UI string", u)
			}
		}
		if u.Line == 0 || !strings.HasPrefix(u.File, "themes/default/layouts/") {
			t.Errorf("%s: not placed in a layout", u)
		}
	}
	for _, k := range []string{"toc", "prev", "next", "og_locale", "lang_name", "tags", "planned", "copy_failed"} {
		if !keys[k] {
			t.Errorf("the default theme's keys lack %q", k)
		}
	}
}

// TestShortcodeKeys: the keys of the site shortcode templates, each at
// its file:line:col; a template that does not parse is skipped.
func TestShortcodeKeys(t *testing.T) {
	fsys := afero.NewMemMapFs()
	for name, body := range map[string]string{
		"sc/note.html":   "<div>\n  {{T \"callout_note\"}}{{.Inner}}{{T .Args.k}}</div>\n",
		"sc/broken.html": "{{T \"x\"",
		"sc/notes.txt":   "{{T \"no\"}}",
	} {
		if err := afero.WriteFile(fsys, name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Join(useStrings(ShortcodeKeys(fsys, "sc")), "\n")
	want := "sc/note.html:2:7 callout_note\nsc/note.html:2:42 ?"
	if got != want {
		t.Errorf("uses:\n%s\nwant:\n%s", got, want)
	}
	if got := ShortcodeKeys(fsys, "none"); got != nil {
		t.Errorf("a missing folder: %q", useStrings(got))
	}
}
