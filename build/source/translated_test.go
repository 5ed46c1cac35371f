package source

import (
	"reflect"
	"testing"
	"time"
)

// TestTranslatedFields pins what "translated" and "translationOf" decode
// to in YAML and TOML, where a bad value is reported and the exact
// message, which shows the right form.
func TestTranslatedFields(t *testing.T) {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, src string
		check     func(t *testing.T, fm FrontMatter)
		want      []string
	}{
		{"yaml", "---\ntitle: x\ntranslated: 2026-12-01 3f2a1c9e7b0d\ntranslationOf: ko\n---\n", func(t *testing.T, fm FrontMatter) {
			if want := (Translated{Date: day, Hash: "3f2a1c9e7b0d"}); fm.Translated != want {
				t.Errorf("translated %+v", fm.Translated)
			}
			if fm.Translated.String() != "2026-12-01 3f2a1c9e7b0d" {
				t.Errorf("String() = %q", fm.Translated.String())
			}
			if fm.TranslationOf != "ko" {
				t.Errorf("translationOf %q", fm.TranslationOf)
			}
			if p := fm.Pos["translated"]; p.Key != 13 || p.Off != 25 {
				t.Errorf("translated at key %d value %d, want 13 and 25", p.Key, p.Off)
			}
		}, nil},
		{"yaml quoted", "---\ntranslated: \"2026-12-01 3f2a1c9e7b0d\"\n---\n", func(t *testing.T, fm FrontMatter) {
			if fm.Translated.Hash != "3f2a1c9e7b0d" || !fm.Translated.Date.Equal(day) {
				t.Errorf("translated %+v", fm.Translated)
			}
		}, nil},
		{"toml", "+++\ntitle = \"x\"\ntranslated = \"2026-12-01 3f2a1c9e7b0d\"\ntranslationOf = \"ko\"\n+++\n", func(t *testing.T, fm FrontMatter) {
			if fm.Translated.Hash != "3f2a1c9e7b0d" || fm.TranslationOf != "ko" {
				t.Errorf("got %+v", fm)
			}
			if p := fm.Pos["translated"]; p.Key != 16 {
				t.Errorf("translated at %d, want 16", p.Key)
			}
		}, nil},
		{"unset", "---\ntitle: x\n---\n", func(t *testing.T, fm FrontMatter) {
			if !fm.Translated.IsZero() || fm.Translated.String() != "" || fm.TranslationOf != "" {
				t.Errorf("got %+v", fm)
			}
		}, nil},
		{"yesterday", "---\ntranslated: yesterday\n---\n", nil,
			[]string{`p.md:2:13: front matter field "translated": "yesterday" is not a date and a hash: write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)`}},
		{"not a date", "---\ntranslated: 2026-13-01 3f2a1c9e7b0d\n---\n", nil,
			[]string{`p.md:2:13: front matter field "translated": "2026-13-01" is not a date of the form 2026-12-01: write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)`}},
		{"short hash", "---\ntranslated: 2026-12-01 3f2a1c\n---\n", nil,
			[]string{`p.md:2:24: front matter field "translated": hash "3f2a1c" is 6 characters; it must be 12 lowercase hexadecimal digits: write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)`}},
		{"not hex", "---\ntranslated: \"2026-12-01 3f2a1c9e7b0z\"\n---\n", nil,
			[]string{`p.md:2:25: front matter field "translated": hash "3f2a1c9e7b0z" is not hexadecimal; it must be 12 lowercase hexadecimal digits: write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)`}},
		{"toml bad hash", "+++\ntranslated = \"2026-12-01 3F2A1C9E7B0D\"\n+++\n", nil,
			[]string{`p.md:2:26: front matter field "translated": hash "3F2A1C9E7B0D" is in capitals; it must be 12 lowercase hexadecimal digits: write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)`}},
		{"toml bare date", "+++\ntranslated = 2026-12-01\n+++\n", nil,
			[]string{`p.md:2:14: front matter field "translated": "2026-12-01" is not a date and a hash: write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)`}},
		{"not a string", "---\ntranslated: [2026-12-01]\n---\n", nil,
			[]string{`p.md:2:13: front matter field "translated" must be the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d, got []interface {} [2026-12-01 00:00:00 +0000 UTC]`}},
		{"translationOf not a code", "---\ntranslationOf: Korean\n---\n", nil,
			[]string{`p.md:2:16: front matter field "translationOf" must be the language code of the page's original, like ko, got string "Korean"`}},
		{"misspelt", "---\ntranslate: 2026-12-01 3f2a1c9e7b0d\n---\n", nil,
			[]string{`p.md:2:1: warning: front matter field "translate" is not known: did you mean "translated"? it is ignored`}},
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
