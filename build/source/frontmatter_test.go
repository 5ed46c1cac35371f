package source

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestFrontMatterFields pins what the fields slug, lastmod, aliases,
// summary and params decode to, in YAML, TOML and JSON alike, and the exact
// message of each bad value and of unknown fields, at its position.
func TestFrontMatterFields(t *testing.T) {
	tests := []struct {
		name, src string
		check     func(t *testing.T, fm FrontMatter)
		want      []string // every diagnostic, "path:line:col: message"
	}{
		{"slug", "---\ntitle: x\nslug: old-name\n---\n", func(t *testing.T, fm FrontMatter) {
			if fm.Slug != "old-name" {
				t.Errorf("slug %q", fm.Slug)
			}
		}, nil},
		{"slug with a slash", "---\nslug: a/b\n---\n", nil,
			[]string{`p.md:2:7: front matter field "slug" cannot be a URL segment: "a/b" contains '/': it must be a single name, not a path`}},
		{"slug dot dot", "---\nslug: \"..\"\n---\n", nil,
			[]string{`p.md:2:7: front matter field "slug" cannot be a URL segment: ".." would name a folder above or at the same level`}},
		{"slug not a string", "---\nslug: [a]\n---\n", nil,
			[]string{`p.md:2:7: front matter field "slug" must be a string, got []interface {} [a]`}},
		{"lastmod", "---\ndate: 2026-10-01\nlastmod: 2026-11-02T09:00:00+09:00\n---\n", func(t *testing.T, fm FrontMatter) {
			want := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
			if !fm.Lastmod.Equal(want) {
				t.Errorf("lastmod %v, want %v", fm.Lastmod, want)
			}
		}, nil},
		{"lastmod not a date", "---\nlastmod: yesterday\n---\n", nil,
			[]string{`p.md:2:10: front matter field "lastmod" must be a date like 2026-11-02 or 2026-11-02T09:00:00+09:00, got string "yesterday"`}},
		{"lastmod before date", "---\ndate: 2026-10-01\nlastmod: 2026-09-30\n---\n", nil,
			[]string{`p.md:3:10: warning: lastmod 2026-09-30 is before date 2026-10-01: the page cannot have been updated before it was published`}},
		{"aliases", "---\naliases:\n  - /ja/old-name/\n  - older\n  - /ja/page.html\n---\n", func(t *testing.T, fm FrontMatter) {
			if want := []string{"/ja/old-name/", "older", "/ja/page.html"}; !reflect.DeepEqual(fm.Aliases, want) {
				t.Errorf("aliases %q", fm.Aliases)
			}
			if p := fm.Pos["aliases"]; p.Item(1) != 35 {
				t.Errorf("second alias at %d, want 35", p.Item(1))
			}
		}, nil},
		{"alias with a bad segment", "---\naliases: [/ja/ok/, /ja/../x/]\n---\n", nil,
			[]string{`p.md:2:20: alias "/ja/../x/" cannot be published: ".." would name a folder above or at the same level`}},
		{"alias of nothing", "---\naliases:\n  - /\n---\n", nil,
			[]string{`p.md:3:5: alias "/" cannot be published: it names no page`}},
		{"alias with an empty segment", "---\naliases: [/ja//x/]\n---\n", nil,
			[]string{`p.md:2:11: alias "/ja//x/" cannot be published: it is empty`}},
		{"aliases not a list", "---\naliases: /ja/x/\n---\n", nil,
			[]string{`p.md:2:10: front matter field "aliases" must be a list of URL paths, got string "/ja/x/"`}},
		{"summary", "---\ndescription: long\nsummary: short\n---\n", func(t *testing.T, fm FrontMatter) {
			if fm.Summary != "short" || fm.Description != "long" {
				t.Errorf("summary %q, description %q", fm.Summary, fm.Description)
			}
		}, nil},
		{"summary not a string", "---\nsummary: 3\n---\n", nil,
			[]string{`p.md:2:10: front matter field "summary" must be a string, got int 3`}},
		{"tag that cannot be a segment", "---\ntags: [ok, a/b]\n---\n", nil,
			[]string{`p.md:2:12: tag "a/b" cannot be a URL segment: "a/b" contains '/': it must be a single name, not a path`}},
		{"params", "---\nparams:\n  layout: wide\n---\n", func(t *testing.T, fm FrontMatter) {
			if fm.Params["layout"] != "wide" {
				t.Errorf("params %v", fm.Params)
			}
		}, nil},
		{"misspelt field", "---\ntitle: x\nsumary: y\n---\n", nil,
			[]string{`p.md:3:1: warning: front matter field "sumary" is not known: did you mean "summary"? it is ignored`}},
		{"unknown field", "---\ntitle: x\nlayout: wide\n---\n", nil,
			[]string{`p.md:3:1: warning: front matter field "layout" is not known: it is ignored`}},
		{"toml", "+++\ntitle = \"x\"\nslug = \"new\"\nlastmod = 2026-11-02\naliases = [\"/ja/old/\"]\nsummary = \"s\"\n+++\n", func(t *testing.T, fm FrontMatter) {
			if fm.Slug != "new" || fm.Summary != "s" || fm.Lastmod.IsZero() || len(fm.Aliases) != 1 {
				t.Errorf("got %+v", fm)
			}
		}, nil},
		{"toml alias with a bad segment", "+++\ntitle = \"x\"\naliases = [\"/ja/ok/\", \"/ja/../x/\"]\n+++\n", nil,
			[]string{`p.md:3:23: alias "/ja/../x/" cannot be published: ".." would name a folder above or at the same level`}},
		{"toml tag on its own line", "+++\ntags = [\n  \"ok\",\n  \"a/b\",\n]\n+++\n", nil,
			[]string{`p.md:4:3: tag "a/b" cannot be a URL segment: "a/b" contains '/': it must be a single name, not a path`}},
		{"toml value of the wrong type", "+++\ndraft =   \"yes\"\n+++\n", nil,
			[]string{`p.md:2:11: front matter field "draft" must be true or false, got string "yes"`}},
		{"toml params table", "+++\ntitle = \"x\"\n[params]\nlayout = \"wide\"\n+++\n", func(t *testing.T, fm FrontMatter) {
			if fm.Params["layout"] != "wide" || fm.Pos["params"].Key != 16 {
				t.Errorf("params %v at %+v", fm.Params, fm.Pos["params"])
			}
		}, nil},
		{"toml dotted key", "+++\nparams.layout = \"wide\"\nsumary = \"s\"\n+++\n", nil,
			[]string{`p.md:3:1: warning: front matter field "sumary" is not known: did you mean "summary"? it is ignored`}},
		{"toml misspelt", "+++\ntitle = \"x\"\nalias = [\"/ja/old/\"]\n+++\n", nil,
			[]string{`p.md:3:1: warning: front matter field "alias" is not known: did you mean "aliases"? it is ignored`}},
		{"json", "{\n  \"title\": \"x\",\n  \"slug\": \"new\",\n  \"part\": 3,\n  \"draft\": true,\n  \"lastmod\": \"2026-11-02\",\n  \"aliases\": [\"/ja/old/\"],\n  \"summary\": \"s\",\n  \"params\": {\"layout\": \"wide\", \"n\": 2}\n}\nBody.\n", func(t *testing.T, fm FrontMatter) {
			if fm.Title != "x" || fm.Slug != "new" || fm.Part != 3 || !fm.Draft || fm.Summary != "s" || fm.Lastmod.IsZero() || len(fm.Aliases) != 1 ||
				fm.Params["layout"] != "wide" || fm.Params["n"] != 2 {
				t.Errorf("got %+v", fm)
			}
			if p := fm.Pos["slug"]; p.Key != 20 || p.Off != 28 {
				t.Errorf("slug at %+v, want its name at 20 and its value at 28", p)
			}
		}, nil},
		{"json alias with a bad segment", "{\"title\": \"x\", \"aliases\": [\"/ja/ok/\", \"/ja/../x/\"]}\n", nil,
			[]string{`p.md:1:39: alias "/ja/../x/" cannot be published: ".." would name a folder above or at the same level`}},
		{"json tag on its own line", "{\n  \"tags\": [\n    \"ok\",\n    \"a/b\"\n  ]\n}\n", nil,
			[]string{`p.md:4:5: tag "a/b" cannot be a URL segment: "a/b" contains '/': it must be a single name, not a path`}},
		{"json value of the wrong type", "{\n  \"draft\":   \"yes\"\n}\n", nil,
			[]string{`p.md:2:14: front matter field "draft" must be true or false, got string "yes"`}},
		{"json part not whole", "{\"part\": 2.5}\n", nil,
			[]string{`p.md:1:10: front matter field "part" must be a positive whole number, got float64 2.5`}},
		{"json misspelt", "{\n  \"title\": \"x\",\n  \"sumary\": \"y\"\n}\n", nil,
			[]string{`p.md:3:3: warning: front matter field "sumary" is not known: did you mean "summary"? it is ignored`}},
		{"json syntax error", "{\n  \"title\": \"x\",\n  \"tags\": [a]\n}\n", nil,
			[]string{`p.md:3:12: front matter: invalid character 'a' looking for beginning of value`}},
		{"json bad list item", "{\"tags\": [\"a\", b]}\n", nil,
			[]string{`p.md:1:16: front matter: invalid character 'b' looking for beginning of value`}},
		{"json bad value", "{\"draft\": yes}\n", nil,
			[]string{`p.md:1:11: front matter: invalid character 'y' looking for beginning of value`}},
		{"json missing comma", "{\n  \"title\": \"x\"\n  \"draft\": true\n}\n", nil,
			[]string{`p.md:3:3: front matter: invalid character '"' after object key:value pair`}},
		{"json field twice", "{\"title\": \"x\", \"draft\": true, \"title\": \"y\"}\n", func(t *testing.T, fm FrontMatter) {
			if fm.Title != "y" || !fm.Draft || fm.Pos["title"].Off != 39 {
				t.Errorf("title %q at %+v, draft %v", fm.Title, fm.Pos["title"], fm.Draft)
			}
		}, []string{`p.md:1:31: warning: front matter field "title" is given twice; the last value counts, as in Hugo`}},
		{"json never closed", "{\n  \"title\": \"x\"\n", nil,
			[]string{`p.md:1:1: front matter opened with "{" is never closed: end the JSON object with its "}"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg, d := ParsePage("p.md", []byte(tt.src))
			var got []string
			for _, x := range d {
				got = append(got, x.Header())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %q\nwant %q", got, tt.want)
			}
			if tt.check != nil {
				if pg == nil {
					t.Fatal("no page")
				}
				tt.check(t, pg.Meta)
			}
		})
	}
}

// TestTagSlug: a tag's URL segment is lowercased with spaces as "-";
// Japanese and Korean keep their characters.
func TestTagSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Kubernetes":    "kubernetes",
		"control plane": "control-plane",
		"  CKA  exam ":  "cka-exam",
		"インフラ":          "インフラ",
		"컨테이너 오케스트레이션":  "컨테이너-오케스트레이션",
	} {
		if got := TagSlug(in); got != want {
			t.Errorf("TagSlug(%q) = %q, want %q", in, got, want)
		}
	}
	// Every byte of ASCII, alone and between letters: the slug of a
	// plain tag (taken as it is) is the one the general rule makes.
	for c := range 128 {
		for _, in := range []string{string(rune(c)), "a" + string(rune(c)) + "b", "k8s" + string(rune(c))} {
			if got, want := TagSlug(in), strings.Join(strings.Fields(strings.ToLower(in)), "-"); got != want {
				t.Errorf("TagSlug(%q) = %q, want %q", in, got, want)
			}
		}
	}
}

// TestJSONFrontMatter: a page whose first character (but spaces) opens a
// JSON object has it for front matter, as in Hugo, and its body begins
// after the object's line; a page that begins with a shortcode has none.
func TestJSONFrontMatter(t *testing.T) {
	tests := []struct {
		name, src, title, body string
	}{
		{"object", "{\n  \"title\": \"J\"\n}\n\nBody {of} J.\n", "J", "\nBody {of} J.\n"},
		{"CRLF", "{\"title\": \"J\"}\r\nBody.\r\n", "J", "Body.\r\n"},
		{"after blank lines", "\n  {\"title\": \"J\", \"tags\": [\"a}\"]}\nBody.\n", "J", "Body.\n"},
		{"braces and quotes in strings", "{\"title\": \"a \\\"}\\\" b\"}\nBody.\n", `a "}" b`, "Body.\n"},
		{"empty", "{}\nBody.\n", "", "Body.\n"},
		{"a page beginning with a shortcode", "{{< part 2 >}}\n", "", "{{< part 2 >}}\n"},
		{"a page beginning with a brace", "{not json}\n", "", "{not json}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg, d := ParsePage("p.md", []byte(tt.src))
			if len(d) > 0 || pg == nil {
				t.Fatalf("diagnostics %v", d)
			}
			if pg.Meta.Title != tt.title || string(pg.Body()) != tt.body {
				t.Errorf("title %q, body %q; want %q, %q", pg.Meta.Title, pg.Body(), tt.title, tt.body)
			}
		})
	}
}

// TestYAMLLines: the offsets found with the front matter's lines indexed
// once are yamlOffset's, for every line and column of a front matter and
// past it.
func TestYAMLLines(t *testing.T) {
	for _, src := range []string{
		"---\ntitle: 日本語のタイトル\ntags:\n  - a\n  - 한국어\n---\nbody\n",
		"---\n\n\ntitle: x\n---\n",
		"---\ntitle: x", // no closing line
	} {
		b := []byte(src)
		fm, start := b[4:], 4
		if i := strings.Index(src[4:], "---"); i >= 0 {
			fm = b[4 : 4+i]
		}
		at := newYAMLLines(b, fm, start)
		for line := 0; line <= strings.Count(string(fm), "\n")+3; line++ {
			for col := 0; col <= 12; col++ {
				if got, want := at.offset(line, col), yamlOffset(b, start, line, col); got != want {
					t.Errorf("%q: line %d col %d: offset %d, want %d", src, line, col, got, want)
				}
			}
		}
	}
}
