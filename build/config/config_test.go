package config

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// load reads src as kakehashi.toml, in a site whose content has folders
// ja/ and ko/, and returns the configuration and every diagnostic's
// header, the languages with UI strings being en, ja and ko.
func load(t *testing.T, src string) (*Config, []string) {
	t.Helper()
	fs := afero.NewMemMapFs()
	if err := afero.WriteFile(fs, File, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"content/ja", "content/ko"} {
		if err := fs.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c, diags := Load(context.Background(), fs, File)
	if len(diags.Errors()) == 0 {
		langs, ldiags := c.Langs(context.Background(), fs, "content")
		diags = append(append(diags, ldiags...), c.CheckLangs(langs, []string{"en", "ja", "ko"}, "content")...)
	}
	var out []string
	for _, d := range diags {
		out = append(out, d.Header())
	}
	return c, out
}

func TestLoadMessages(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"valid", `baseURL = "https://example.org/course/"
languages = ["ja", "ko"]
[title]
ja = "講座"
`, nil},
		{"short title of another language", "[shortTitle]\nja = \"講座\"\nzh = \"课程\"\n",
			[]string{`kakehashi.toml:3:1: warning: shortTitle for "zh", which is not one of the site's languages (ja, ko)`}},
		{"short title a string", "shortTitle = \"講座\"\n",
			[]string{`kakehashi.toml:1:14: "shortTitle" must be a table with one string per language ([shortTitle] ja = "…"), got string`}},
		{"unknown key", "baseUrl = \"https://example.org/\"\n",
			[]string{`kakehashi.toml:1:1: unknown key "baseUrl": did you mean "baseURL"?`}},
		{"unknown key after Japanese", "[title]\nja = \"講座\"\n\n[paramz]\nx = 1\n",
			[]string{`kakehashi.toml:4:2: unknown key "paramz": did you mean "params"?`}},
		{"unknown key far from any", "zzzzzzzz = 1\n",
			[]string{`kakehashi.toml:1:1: unknown key "zzzzzzzz"; the keys are baseURL, languages, theme, copyright, editURL, search, calculators, title, shortTitle, description, params`}},
		{"languages a string", "languages = \"ja\"\n",
			[]string{`kakehashi.toml:1:13: "languages" must be a list of language codes, got string`}},
		{"languages holding a number", "languages = [\"ja\", 3]\n",
			[]string{`kakehashi.toml:1:20: "languages" must be a list of language codes, got integer in the list`}},
		{"language twice", "languages = [\"ja\", \"ko\", \"ja\"]\n",
			[]string{`kakehashi.toml:1:26: language "ja" is listed twice in "languages"`}},
		{"no languages", "languages = []\n",
			[]string{`kakehashi.toml:1:13: "languages" must name at least one language, such as ["ja", "ko"]`}},
		{"unknown language", "languages = [\"ja\", \"fr\"]\n",
			[]string{`kakehashi.toml:1:20: language "fr" has no UI strings: add i18n/fr.toml, or use one of en, ja, ko`}},
		{"language typo", "languages = [\"jp\", \"ko\"]\n",
			[]string{`kakehashi.toml:1:14: language "jp" has no UI strings: did you mean "ja"?`}},
		{"base URL without scheme", "baseURL = \"example.com\"\n",
			[]string{`kakehashi.toml:1:11: "baseURL" must be an absolute URL with a scheme and a host, such as https://example.org/course/`}},
		{"base URL without host", "baseURL = \"/course/\"\n",
			[]string{`kakehashi.toml:1:11: "baseURL" must be an absolute URL with a scheme and a host, such as https://example.org/course/`}},
		{"base URL javascript:", "# 講座\nbaseURL = \"javascript:alert(1)//\"\n",
			[]string{`kakehashi.toml:2:11: "baseURL" must be an http:// or https:// URL, not javascript:, such as https://example.org/course/`}},
		{"base URL with a query", "baseURL = \"https://example.org/?a=1\"\n",
			[]string{`kakehashi.toml:1:11: "baseURL" must have no query (?) or fragment (#): page paths are appended to it, such as https://example.org/course/`}},
		{"editURL javascript:", "editURL = \"javascript:alert('{path}')\"\n",
			[]string{`kakehashi.toml:1:11: "editURL" must be an http:// or https:// URL, not javascript:, such as https://github.com/me/course/edit/main/{path}`}},
		{"editURL relative path", "editURL = \"../edit/{path}\"\n",
			[]string{`kakehashi.toml:1:11: "editURL" must be an absolute URL with a scheme and a host, such as https://github.com/me/course/edit/main/{path}`}},
		{"base URL a number", "baseURL = 3\n",
			[]string{`kakehashi.toml:1:11: "baseURL" must be a string, got integer`}},
		{"editURL without path", "editURL = \"https://github.com/me/course/edit/main/\"\n",
			[]string{`kakehashi.toml:1:11: "editURL" must hold {path}, the page's source path from the site root, such as https://github.com/me/course/edit/main/{path}`}},
		{"search not a boolean", "search = \"yes\"\n",
			[]string{`kakehashi.toml:1:10: "search" must be true or false, got string`}},
		{"title a string", "title = \"講座\"\n",
			[]string{`kakehashi.toml:1:9: "title" must be a table with one string per language ([title] ja = "…"), got string`}},
		{"title of a number, after Japanese", "copyright = \"© 講座\"\n[title]\nko = 3\n",
			[]string{`kakehashi.toml:3:6: "title.ko" must be a string, got integer`}},
		{"column in characters", "[description]\nja = \"説明\"; ko = 1\n",
			[]string{`kakehashi.toml:2:10: expected newline but got U+003B ';'`}},
		{"title for another language", "[title]\nja = \"講座\"\nen = \"Course\"\n",
			[]string{`kakehashi.toml:3:1: warning: title for "en", which is not one of the site's languages (ja, ko)`}},
		{"the list is the site's languages, not the folders", "languages = [\"ja\"]\n[title]\nko = \"강좌\"\n",
			[]string{`kakehashi.toml:3:1: warning: title for "ko", which is not one of the site's languages (ja)`}},
		{"description outside the languages", "languages = [\"ja\"]\n[description]\nko = \"강좌\"\n",
			[]string{`kakehashi.toml:3:1: warning: description for "ko", which is not one of the site's languages (ja)`}},
		{"theme a path", "theme = \"../x\"\n",
			[]string{`kakehashi.toml:1:9: "theme" must be the name of one folder under themes/, such as "default"`}},
		{"params not a table", "params = 1\n",
			[]string{`kakehashi.toml:1:10: "params" must be a table ([params]), got integer`}},
		{"every fault at once", "# 講座の設定\nbaseUrl = \"x\"\nsearch = 1\n",
			[]string{`kakehashi.toml:2:1: unknown key "baseUrl": did you mean "baseURL"?`, `kakehashi.toml:3:10: "search" must be true or false, got integer`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := load(t, tc.src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestLoadValues(t *testing.T) {
	c, diags := load(t, `baseURL = "https://example.org/course"
languages = ["ko", "ja"]
theme = "plain"
copyright = "© 2026 Author"
editURL = "https://github.com/me/course/edit/main/{path}?lang={lang}"
search = false
calculators = false

[title]
ja = "講座"
ko = "강좌"

[description]
ja = "説明"

[params]
repo = "me/course"
`)
	if diags != nil {
		t.Fatal(diags)
	}
	want := &Config{BaseURL: "https://example.org/course/", Languages: []string{"ko", "ja"}, Theme: "plain",
		Copyright: "© 2026 Author", EditURL: "https://github.com/me/course/edit/main/{path}?lang={lang}",
		Title: map[string]string{"ja": "講座", "ko": "강좌"}, Description: map[string]string{"ja": "説明"},
		Params: map[string]any{"repo": "me/course"}}
	c.Src, c.path, c.idx, c.pos = nil, "", nil, nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if got := c.EditLink("content/ja/cka/02-x.md", "ja"); got != "https://github.com/me/course/edit/main/content/ja/cka/02-x.md?lang=ja" {
		t.Errorf("EditLink = %q", got)
	}
}

func TestLoadMissing(t *testing.T) {
	c, diags := Load(context.Background(), afero.NewMemMapFs(), File)
	if diags != nil {
		t.Fatal(diags)
	}
	if !c.Search || !c.Calculators || c.BaseURL != "" || c.Languages != nil || c.Src != nil {
		t.Errorf("defaults: %+v", c)
	}
}

// TestLangs: the site's languages are the configuration's list, else the
// language folders of the content, never the languages that have UI
// strings.
func TestLangs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		config  string
		folders []string
		want    []string
		diags   []string
	}{
		{"the list, in its order", "languages = [\"ko\", \"ja\"]\n", []string{"ja", "ko", "en"}, []string{"ko", "ja"}, nil},
		{"the folders, by name", "", []string{"ko", "ja"}, []string{"ja", "ko"}, nil},
		{"a third folder", "", []string{"ja", "ko", "en"}, []string{"en", "ja", "ko"}, nil},
		{"one folder", "", []string{"ja"}, []string{"ja"}, nil},
		{"not languages", "", []string{"ja", "series", "_drafts", ".git", "images", "ja~", "zh-Hant"}, []string{"ja", "zh-Hant"}, nil},
		{"no folder", "", nil, nil, []string{`kakehashi.toml: the site has no languages: list them in kakehashi.toml (languages = ["ja", "ko"]), or make a folder for each under content/ (content/ja/)`}},
		{"no folder, a file", "baseURL = \"https://example.org/\"\n", []string{"series"}, nil, []string{`kakehashi.toml: the site has no languages: list them in kakehashi.toml (languages = ["ja", "ko"]), or make a folder for each under content/ (content/ja/)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			if tc.config != "" {
				if err := afero.WriteFile(fs, File, []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range tc.folders {
				if err := fs.MkdirAll("content/"+d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// A file is no language.
			if err := afero.WriteFile(fs, "content/de", []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			c, diags := Load(context.Background(), fs, File)
			if diags != nil {
				t.Fatal(diags)
			}
			got, diags := c.Langs(context.Background(), fs, "content")
			var heads []string
			for _, d := range diags {
				heads = append(heads, d.Header())
			}
			if !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(heads, tc.diags) {
				t.Errorf("Langs = %q, %q\nwant %q, %q", got, heads, tc.want, tc.diags)
			}
		})
	}
}

// TestCheckLangsFolder: a language of a content folder without UI
// strings is an error at the folder.
func TestCheckLangsFolder(t *testing.T) {
	c := Default()
	var heads []string
	for _, d := range c.CheckLangs([]string{"de", "ja"}, []string{"en", "ja", "ko"}, "content") {
		heads = append(heads, d.Header())
	}
	want := []string{`content/de: language "de" has no UI strings: add i18n/de.toml holding every key (the languages with strings are en, ja, ko)`}
	if !reflect.DeepEqual(heads, want) {
		t.Errorf("got %q\nwant %q", heads, want)
	}
}

// TestCheckWebURLs: the base URL and the edit URL are addresses for a
// reader's browser: http or https, absolute, with a host; nothing a link
// would run or open locally.
func TestCheckWebURLs(t *testing.T) {
	for _, tc := range []struct {
		s          string
		base, edit string // what the error says, "" for none
	}{
		{"https://example.org/course/", "", "must hold"},
		{"http://localhost:1313/", "", "must hold"},
		{"HTTPS://example.org/", "", "must hold"},
		{"https://github.com/me/c/edit/main/{path}", "", ""},
		{"https://{lang}.example.org/edit/{path}", "absolute URL", ""},
		{"javascript:alert(1)", "not javascript:", "not javascript:"},
		{"JavaScript://example.org/%0aalert(1)/{path}", "not javascript:", "not javascript:"},
		{"data:text/html,<script>alert(1)</script>{path}", "not data:", "not data:"},
		{"file:///etc/{path}", "not file:", "not file:"},
		{"ftp://example.org/{path}", "not ftp:", "not ftp:"},
		{"//example.org/{path}", "absolute URL", "absolute URL"},
		{"/course/{path}", "absolute URL", "absolute URL"},
		{"example.org/{path}", "absolute URL", "absolute URL"},
		{"https:example.org/{path}", "absolute URL", "absolute URL"},
		{"https:///{path}", "absolute URL", "absolute URL"},
		{"https://example.org/#top", "no query (?) or fragment (#)", ""},
		{"https://example.org/?", "no query (?) or fragment (#)", ""},
	} {
		if err := CheckBaseURL(tc.s); tc.base == "" && err != nil || tc.base != "" && (err == nil || !strings.Contains(err.Error(), tc.base)) {
			t.Errorf("CheckBaseURL(%q) = %v, want %q", tc.s, err, tc.base)
		}
		if tc.edit == "must hold" {
			continue // no {path}: Load refuses it before
		}
		if err := CheckEditURL(tc.s); tc.edit == "" && err != nil || tc.edit != "" && (err == nil || !strings.Contains(err.Error(), tc.edit)) {
			t.Errorf("CheckEditURL(%q) = %v, want %q", tc.s, err, tc.edit)
		}
	}
}
