package i18n

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// realBundle loads the repository's own strings files, every language.
func realBundle(t *testing.T) *Bundle {
	t.Helper()
	fsys := afero.NewReadOnlyFs(afero.NewOsFs())
	b, diags := Load(context.Background(), fsys, ".")
	if len(diags) > 0 {
		t.Fatalf("Load(real files): %v", diags)
	}
	return b
}

func memFs(t *testing.T, files map[string]string) afero.Fs {
	t.Helper()
	fsys := afero.NewMemMapFs()
	for name, body := range files {
		if err := afero.WriteFile(fsys, name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

func TestRealFilesHaveEveryKey(t *testing.T) {
	b := realBundle(t)
	if got := strings.Join(b.Langs(), ","); got != "en,ja,ko" {
		t.Fatalf("Langs() = %q, want en,ja,ko", got)
	}
	for _, lang := range b.Langs() {
		for _, other := range b.Langs() {
			for key := range b.strings[lang] {
				if !b.Has(other, key) {
					t.Errorf("key %q is in %s but not in %s", key, lang, other)
				}
			}
		}
	}
	// Keys the theme relies on.
	for _, key := range []string{"skip_to_content", "toc", "prev", "next", "series_index",
		"planned", "reading_time", "lang_name", "switch_language", "tags",
		"published_on", "copy", "copied", "not_found_title", "not_found_text", "back_home",
		"search_placeholder", "footer_text", "anchor", "callout_note", "callout_tip", "callout_warning",
		"callout_exam", "home_intro_heading", "feed_title", "date_format", "og_locale"} {
		for _, lang := range b.Langs() {
			if !b.Has(lang, key) || b.T(lang, key) == "" {
				t.Errorf("%s: key %q missing or empty", lang, key)
			}
		}
	}
	// Every raw file must not be empty either (sanity for the loader).
	for _, name := range []string{"en.toml", "ja.toml", "ko.toml"} {
		if fi, err := os.Stat(name); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestTranslate(t *testing.T) {
	b := realBundle(t)
	tests := []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"ja", "planned", nil, "準備中"},
		{"ko", "planned", nil, "준비 중"},
		{"ja", "copy", nil, "コピー"},
		{"ko", "copied", nil, "복사됨"},
		{"ja", "callout_exam", nil, "試験ポイント"},
		{"ko", "callout_exam", nil, "시험 포인트"},
		{"ja", "reading_time", []any{11}, "11 分で読めます"},
		{"ko", "reading_time", []any{11}, "읽는 데 약 11분"},
		{"en", "reading_time", []any{11}, "11 min read"},
		// Plural forms, by the first whole-number argument.
		{"en", "tag_articles", []any{1}, "1 article"},
		{"en", "tag_articles", []any{0}, "0 articles"},
		{"en", "tag_articles", []any{21}, "21 articles"},
		{"en", "series_parts", []any{int64(1)}, "1 part (planned ones included)"},
		{"ja", "tag_articles", []any{1}, "1 件の記事"},
		{"en", "tag_articles", nil, "%d articles"},
		{"en", Count("tag_articles", 1), nil, "%d article"},
		{"en", "diagram_workers", []any{"worker", 1}, "1 worker"},
		{"en", "diagram_workers", []any{"worker", 3}, "3 workers"},
		{"ja", "no_such_key", nil, "[ja:no_such_key]"},
		{"xx", "planned", nil, "[xx:planned]"},
	}
	for _, tt := range tests {
		var got string
		if tt.args == nil {
			got = b.T(tt.lang, tt.key)
		} else {
			got = b.Tf(tt.lang, tt.key, tt.args...)
		}
		if got != tt.want {
			t.Errorf("T(%s, %s, %v) = %q, want %q", tt.lang, tt.key, tt.args, got, tt.want)
		}
	}
	if b.Has("ja", "no_such_key") {
		t.Error("Has(ja, no_such_key) = true")
	}
}

// jaKo is the embedded strings of a ja/ko site.
func jaKo(t *testing.T) *Bundle {
	t.Helper()
	b, diags := LoadSite(context.Background(), afero.NewMemMapFs(), "i18n", []string{"ja", "ko"})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return b
}

func TestMatch(t *testing.T) {
	b := jaKo(t)
	tests := []struct {
		header, fallback, want string
	}{
		{"ko-KR,ko;q=0.9", "ja", "ko"},
		{"ko", "ja", "ko"},
		{"ja-JP,ja;q=0.9,en;q=0.8", "ko", "ja"},
		{"en-US,ko;q=0.5", "ja", "ko"},
		{"en", "ja", "ja"},
		{"en", "ko", "ko"},
		{"", "ja", "ja"},
		{"!!!garbage", "ja", "ja"},
	}
	for _, tt := range tests {
		if got := b.Match(tt.header, tt.fallback); got != tt.want {
			t.Errorf("Match(%q, %q) = %q, want %q", tt.header, tt.fallback, got, tt.want)
		}
	}
}

// TestPluralForms: a string with plural forms, written as dotted keys or
// as a table, takes the form of its language's rules for the count; a
// language without them has one string for every count.
func TestPluralForms(t *testing.T) {
	b, diags := Load(context.Background(), memFs(t, map[string]string{
		"i18n/ja.toml": "n = \"%d 件\"\nm = \"%d 個\"\n",
		"i18n/en.toml": "n.one = \"%d item\"\nn.other = \"%d items\"\n\n[m]\none = \"%d thing\"\nother = \"%d things\"\n",
		"i18n/ru.toml": "n.one = \"%d one\"\nn.few = \"%d few\"\nn.many = \"%d many\"\nn.other = \"%d other\"\nm = \"%d m\"\n",
	}), "i18n")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, tt := range []struct {
		lang, key string
		n         int
		want      string
	}{
		{"en", "n", 1, "1 item"}, {"en", "n", 2, "2 items"}, {"en", "n", 0, "0 items"},
		{"en", "m", 1, "1 thing"}, {"en", "m", 5, "5 things"},
		{"ja", "n", 1, "1 件"}, {"ja", "n", 7, "7 件"},
		{"ru", "n", 1, "1 one"}, {"ru", "n", 3, "3 few"}, {"ru", "n", 5, "5 many"}, {"ru", "n", 21, "21 one"},
	} {
		if got := b.Tf(tt.lang, tt.key, tt.n); got != tt.want {
			t.Errorf("Tf(%s, %s, %d) = %q, want %q", tt.lang, tt.key, tt.n, got, tt.want)
		}
		if got := fmt.Sprintf(b.T(tt.lang, Count(tt.key, tt.n)), tt.n); got != tt.want {
			t.Errorf("T(%s, Count(%s, %d)) = %q, want %q", tt.lang, tt.key, tt.n, got, tt.want)
		}
	}
	if !b.Has("en", Count("n", 3)) || b.T("en", "n") != "%d items" {
		t.Errorf("Has(Count) %v, T(en, n) = %q, want the other form", b.Has("en", Count("n", 3)), b.T("en", "n"))
	}
	if got := b.At("en", "m", "here").Header(); got != "i18n/en.toml:4:1: here" {
		t.Errorf("At(en, m) = %q, want the table's header line", got)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // each diagnostic's header, in order
	}{
		{
			name: "missing key names the file that lacks it",
			files: map[string]string{
				"i18n/ja.toml": "toc = \"目次\"\nplanned = \"準備中\"\n",
				"i18n/ko.toml": "toc = \"목차\"\n",
			},
			want: []string{`i18n/ja.toml:2:1: key "planned" is missing from i18n/ko.toml`},
		},
		{
			name: "missing keys both ways",
			files: map[string]string{
				"i18n/ja.toml": "a = \"1\"\n",
				"i18n/ko.toml": "# comment\nb = \"2\"\n",
			},
			want: []string{
				`i18n/ja.toml:1:1: key "a" is missing from i18n/ko.toml`,
				`i18n/ko.toml:2:1: key "b" is missing from i18n/ja.toml`,
			},
		},
		{
			name: "syntax error position in characters",
			files: map[string]string{
				"i18n/ja.toml": "toc = \"目次\"\nplanned = 準備中\n",
				"i18n/ko.toml": "toc = \"목차\"\nplanned = \"준비 중\"\n",
			},
			want: []string{`i18n/ja.toml:2:11: toml: `},
		},
		{
			name: "non-string value",
			files: map[string]string{
				"i18n/ja.toml": "toc = \"目次\"\n  n = 3\n",
				"i18n/ko.toml": "toc = \"목차\"\nn = \"3\"\n",
			},
			want: []string{
				`i18n/ja.toml:2:3: key "n": value must be a string, not int64`,
				`i18n/ko.toml:2:1: key "n" is missing from i18n/ja.toml`,
			},
		},
		{
			name: "plural forms without other",
			files: map[string]string{
				"i18n/ja.toml": "n = \"%d 件\"\n",
				"i18n/en.toml": "# counts\nn.one = \"%d item\"\n",
			},
			want: []string{
				`i18n/en.toml:2:1: key "n": a string with plural forms needs n.other`,
				`i18n/ja.toml:1:1: key "n" is missing from i18n/en.toml`,
			},
		},
		{
			name: "a plural form that is no category",
			files: map[string]string{
				"i18n/ja.toml": "n = \"%d 件\"\n",
				"i18n/en.toml": "n.other = \"%d items\"\nn.single = \"%d item\"\n",
			},
			want: []string{
				`i18n/en.toml:2:1: key "n.single": "single" is not a plural category; a string with plural forms has zero, one, two, few, many, other`,
				`i18n/ja.toml:1:1: key "n" is missing from i18n/en.toml`,
			},
		},
		{
			name: "a plural form that is not a string",
			files: map[string]string{
				"i18n/ja.toml": "n = \"%d 件\"\n",
				"i18n/en.toml": "[n]\nother = \"%d items\"\none = 1\n",
			},
			want: []string{
				`i18n/en.toml:3:1: key "n.one": value must be a string, not int64`,
				`i18n/ja.toml:1:1: key "n" is missing from i18n/en.toml`,
			},
		},
		{
			name:  "bad language file name",
			files: map[string]string{"i18n/not_a_lang!.toml": "a = \"b\"\n"},
			want:  []string{`i18n/not_a_lang!.toml: file name "not_a_lang!" is not a language tag`},
		},
		{
			name:  "no files",
			files: map[string]string{"i18n/README": "x"},
			want:  []string{`i18n: no <lang>.toml files with UI strings`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Load(context.Background(), memFs(t, tt.files), "i18n")
			if b != nil {
				t.Errorf("Load returned a bundle despite errors")
			}
			if len(diags) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%v", len(diags), len(tt.want), diags)
			}
			for i, d := range diags {
				if !strings.HasPrefix(d.Header(), tt.want[i]) {
					t.Errorf("diagnostic %d = %q, want prefix %q", i, d.Header(), tt.want[i])
				}
			}
		})
	}
}
