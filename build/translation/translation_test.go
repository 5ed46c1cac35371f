package translation

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

func page(t *testing.T, p, src string) *source.Page {
	t.Helper()
	pg, diags := source.ParsePage(p, source.Normalize([]byte(src)))
	if pg == nil || diags.Err() != nil {
		t.Fatalf("%s: %v", p, diags)
	}
	first, rest, _ := strings.Cut(strings.TrimPrefix(p, "content/"), "/")
	pg.Lang, pg.Rel = first, rest
	return pg
}

const orig = "---\ntitle: \"題\"\ndescription: 説明\ndate: 2026-11-02\n---\n\n本文です。\n\n## 見出し\n"

// TestHashIgnoresWhatIsNotTranslated: the hash moves with the title, the
// description, the summary and the body, and not with the other fields,
// the front matter's syntax, line ends or trailing white space.
func TestHashIgnoresWhatIsNotTranslated(t *testing.T) {
	h := Hash(page(t, "content/ja/a.md", orig))
	if len(h) != 12 || strings.Trim(h, "0123456789abcdef") != "" {
		t.Fatalf("hash %q", h)
	}
	same := map[string]string{
		"other fields":      "---\ntitle: 題\ndescription: \"説明\"\ndate: 2026-12-24\ntags: [x]\nseries: s\npart: 3\n---\n\n本文です。\n\n## 見出し\n",
		"toml":              "+++\ntitle = \"題\"\ndescription = \"説明\"\n+++\n本文です。\n\n## 見出し\n",
		"crlf and trailing": strings.ReplaceAll("---\ntitle: 題\ndescription: 説明\n---\n\n\n本文です。  \n\n## 見出し\t\n\n\n", "\n", "\r\n"),
	}
	for name, src := range same {
		if got := Hash(page(t, "content/ja/a.md", src)); got != h {
			t.Errorf("%s: hash %s, want %s", name, got, h)
		}
	}
	differ := map[string]string{
		"title":   strings.Replace(orig, "題", "新しい題", 1),
		"summary": strings.Replace(orig, "date:", "summary: 要約\ndate:", 1),
		"body":    strings.Replace(orig, "本文です。", "本文でした。", 1),
		"moved":   "---\ntitle: \"題\"\ndescription: 説明\n---\n\n## 見出し\n\n本文です。\n",
		// The framing keeps a text from running into the next.
		"framing": "---\ntitle: \"題説明\"\n---\n\n本文です。\n\n## 見出し\n",
	}
	for name, src := range differ {
		if got := Hash(page(t, "content/ja/a.md", src)); got == h {
			t.Errorf("%s: same hash %s", name, got)
		}
	}
}

func TestStatus(t *testing.T) {
	o := page(t, "content/ja/a.md", orig)
	o.ModTime = time.Date(2026, 11, 28, 10, 0, 0, 0, time.Local)
	h := Hash(o)
	tr := page(t, "content/ko/a.md", "---\ntitle: 제목\n---\n본문\n")
	if st := Status(o, tr); st.State != Unmarked || st.String() != "unmarked" || st.Hash != h || st.Original != "content/ja/a.md" {
		t.Errorf("unmarked: %+v", st)
	}
	tr = page(t, "content/ko/a.md", "---\ntitle: 제목\ntranslated: 2026-11-02 "+h+"\n---\n본문\n")
	if st := Status(o, tr); st.State != Current || st.String() != "current" {
		t.Errorf("current: %+v", st)
	}
	tr = page(t, "content/ko/a.md", "---\ntitle: 제목\ntranslated: 2026-11-02 000000000000\n---\n본문\n")
	st := Status(o, tr)
	if st.State != Stale || st.String() != "stale since 2026-11-28 (marked 2026-11-02)" {
		t.Errorf("stale: %+v %s", st, st)
	}
	// The original's lastmod, when set, is when it was updated.
	o2 := page(t, "content/ja/a.md", strings.Replace(orig, "date: 2026-11-02", "date: 2026-11-02\nlastmod: 2026-11-20", 1))
	o2.ModTime = o.ModTime
	if st := Status(o2, tr); st.String() != "stale since 2026-11-20 (marked 2026-11-02)" {
		t.Errorf("lastmod: %s", st)
	}
}

func TestPairs(t *testing.T) {
	c := &source.Content{Pages: []*source.Page{
		page(t, "content/ja/a.md", "---\ntitle: a\n---\n"),
		page(t, "content/ko/a.md", "---\ntitle: a\n---\n"),
		page(t, "content/ja/only-ja.md", "---\ntitle: a\n---\n"),
		page(t, "content/ja/draft.md", "---\ntitle: a\ndraft: true\n---\n"),
		page(t, "content/ko/first-ko.md", "---\ntitle: a\n---\n"),
		page(t, "content/ja/first-ko.md", "---\ntitle: a\ntranslationOf: ko\n---\n"),
		page(t, "content/ja/folder/index.md", "---\ntitle: a\n---\n"),
		page(t, "content/ko/folder.md", "---\ntitle: a\n---\n"),
	}}
	pairs, diags := Pairs(c, []string{"ja", "ko"})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var got []string
	for _, p := range pairs {
		s := p.Key + " " + p.OrigLang + "→" + p.Lang
		if p.Orig == nil {
			s += " no original"
		}
		if p.Tr == nil {
			s += " no translation"
		}
		got = append(got, s)
	}
	want := []string{"first-ko.md ko→ja", "a.md ja→ko", "folder.md ja→ko", "only-ja.md ja→ko no translation"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestTranslationOfChecked(t *testing.T) {
	c := &source.Content{Pages: []*source.Page{
		page(t, "content/ja/a.md", "---\ntitle: a\ntranslationOf: kr\n---\n"),
		page(t, "content/ko/b.md", "---\ntitle: b\ntranslationOf: ko\n---\n"),
		page(t, "content/ja/c.md", "---\ntranslationOf: ko\n---\n"),
		page(t, "content/ko/c.md", "---\ntranslationOf: ja\n---\n"),
	}}
	_, diags := Pairs(c, []string{"ja", "ko"})
	var got []string
	for _, d := range diags {
		got = append(got, d.Header())
	}
	want := []string{
		`content/ja/a.md:3:16: translationOf "kr" is not one of the site's languages (ja, ko): did you mean "ko"?`,
		`content/ko/b.md:3:16: translationOf "ko" is the page's own language: a page cannot be a translation of itself; remove the field from the original`,
		`content/ko/c.md:2:16: translationOf "ja" disagrees with content/ja/c.md, which says its original is in "ko": the pages of one name have one original`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestMark(t *testing.T) {
	const d, h = "2026-12-01", "3f2a1c9e7b0d"
	tests := []struct{ name, in, want string }{
		{"add yaml", "---\ntitle: x\ntags: [a]\n\n---\n\n本文  \n", "---\ntitle: x\ntags: [a]\ntranslated: 2026-12-01 3f2a1c9e7b0d\n\n---\n\n本文  \n"},
		{"replace yaml", "---\ntitle: x\ntranslated: 2026-11-02 000000000000 # old\ndate: 2026-11-02\n---\nb\n", "---\ntitle: x\ntranslated: 2026-12-01 3f2a1c9e7b0d\ndate: 2026-11-02\n---\nb\n"},
		{"replace quoted", "---\n\"translated\": \"2026-11-02 000000000000\"\n---\nb", "---\ntranslated: 2026-12-01 3f2a1c9e7b0d\n---\nb"},
		{"yaml after a nested field", "---\nparams:\n  a: 1\n---\nb\n", "---\nparams:\n  a: 1\ntranslated: 2026-12-01 3f2a1c9e7b0d\n---\nb\n"},
		{"crlf", "---\r\ntitle: x\r\n---\r\nb\r\n", "---\r\ntitle: x\r\ntranslated: 2026-12-01 3f2a1c9e7b0d\r\n---\r\nb\r\n"},
		{"bom", "\uFEFF---\ntitle: x\n---\nb\n", "\uFEFF---\ntitle: x\ntranslated: 2026-12-01 3f2a1c9e7b0d\n---\nb\n"},
		{"add toml", "+++\ntitle = \"x\"\n+++\nb\n", "+++\ntitle = \"x\"\ntranslated = \"2026-12-01 3f2a1c9e7b0d\"\n+++\nb\n"},
		{"toml before a table", "+++\ntitle = \"x\"\n\n[params]\na = 1\n+++\nb\n", "+++\ntitle = \"x\"\ntranslated = \"2026-12-01 3f2a1c9e7b0d\"\n\n[params]\na = 1\n+++\nb\n"},
		{"replace toml", "+++\ntranslated = \"2026-11-02 000000000000\"\ntitle = \"x\"\n+++\nb\n", "+++\ntranslated = \"2026-12-01 3f2a1c9e7b0d\"\ntitle = \"x\"\n+++\nb\n"},
		{"no front matter", "本文\n", "---\ntranslated: 2026-12-01 3f2a1c9e7b0d\n---\n本文\n"},
		{"already", "---\ntranslated: 2026-12-01 3f2a1c9e7b0d\n---\nb\n", "---\ntranslated: 2026-12-01 3f2a1c9e7b0d\n---\nb\n"},
		{"add json", "{\n  \"title\": \"x\"\n}\n本文\n", "{\n  \"translated\": \"2026-12-01 3f2a1c9e7b0d\",\n  \"title\": \"x\"\n}\n本文\n"},
		{"add json on one line", "{\"title\": \"x\"}\nb\n", "{\"translated\": \"2026-12-01 3f2a1c9e7b0d\", \"title\": \"x\"}\nb\n"},
		{"add json crlf", "{\r\n\t\"title\": \"x\"\r\n}\r\nb\r\n", "{\r\n\t\"translated\": \"2026-12-01 3f2a1c9e7b0d\",\r\n\t\"title\": \"x\"\r\n}\r\nb\r\n"},
		{"add json, empty object", "{}\nb\n", "{\"translated\": \"2026-12-01 3f2a1c9e7b0d\"}\nb\n"},
		{"replace json", "{\n  \"title\": \"x\",\n  \"translated\" : \"2026-11-02 000000000000\"\n}\n\"translated\": \"kept in the body\"\n", "{\n  \"title\": \"x\",\n  \"translated\": \"2026-12-01 3f2a1c9e7b0d\"\n}\n\"translated\": \"kept in the body\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Mark([]byte(tt.in), d, h)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
	if _, err := Mark([]byte("---\ntitle: x\n"), d, h); err == nil {
		t.Error("unclosed front matter marked")
	}
	if _, err := Mark([]byte("---\n---\n"), "yesterday", h); err == nil {
		t.Error("a bad date marked")
	}
}

func TestStore(t *testing.T) {
	fs := afero.NewMemMapFs()
	s := Store{Fs: fs, Dir: ".kakehashi-cache/originals"}
	o := page(t, "content/ja/a.md", orig)
	h := Hash(o)
	if _, err := s.Load(h); err != ErrNoCopy {
		t.Fatalf("load before save: %v", err)
	}
	if err := s.Save(h, o.Src); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(h)
	if err != nil || string(got.Body()) != string(o.Body()) {
		t.Fatalf("load: %v %v", err, got)
	}
	// A copy edited by hand is no copy.
	afero.WriteFile(fs, ".kakehashi-cache/originals/"+h+".md", []byte("---\ntitle: x\n---\n"), 0o644)
	if _, err := s.Load(h); err != ErrNoCopy {
		t.Errorf("edited copy: %v", err)
	}
}

func TestBlocks(t *testing.T) {
	old := "Intro.\n\n```sh\n$ a\n\n$ b\n```\n\nGone.\n\nKept  \nlines.\n\nEdited.\n"
	new := "Intro.\n\n```sh\n$ a\n\n$ b\n```\n\nKept\nlines.\n\nEdited again.\n\nAdded.\n"
	d := Blocks([]byte(old), []byte(new))
	var got []string
	for _, b := range d.New {
		got = append(got, []string{"=", "~", "+"}[b.Change]+" "+b.Text)
	}
	want := []string{"= Intro.", "= ```sh\n$ a\n\n$ b\n```", "= Kept\nlines.", "~ Edited again.", "+ Added."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("new: got %q\nwant %q", got, want)
	}
	if d.New[3].Was != "Edited." || d.New[3].Line != 12 {
		t.Errorf("changed block: %+v", d.New[3])
	}
	if len(d.Removed) != 1 || d.Removed[0].Text != "Gone." || d.Removed[0].Line != 9 {
		t.Errorf("removed: %+v", d.Removed)
	}
	if !d.Changed() || Blocks([]byte(old), []byte(old)).Changed() {
		t.Error("Changed")
	}
	// An unclosed fence runs to the end.
	if bs := SplitBlocks("a\n```\nx\n\ny"); len(bs) != 2 || bs[1].Text != "```\nx\n\ny" {
		t.Errorf("unclosed fence: %+v", bs)
	}
}

// FuzzMark: whatever the front matter and body, Mark either refuses or
// gives a file whose body is byte for byte the old one, whose front
// matter reads back the date and hash, and that Mark leaves as it is.
func FuzzMark(f *testing.F) {
	for _, s := range []string{
		"---\ntitle: x\n---\nbody  \n\n",
		"+++\ntitle = \"x\"\n[params]\na = 1\n+++\r\nbody\r\n",
		"---\ntranslated: 2026-01-01 000000000000\nx:\n  - a\n---\n---\n",
		"no front matter\n---\n",
		"---\r\ntitle: |\r\n  translated: x\r\n---\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, err := Mark([]byte(src), "2026-12-01", "3f2a1c9e7b0d")
		if err != nil {
			return
		}
		before, _ := source.ParsePage("", source.Normalize([]byte(src)))
		after, diags := source.ParsePage("", source.Normalize(out))
		if after == nil || diags.Err() != nil || after.Meta.Translated.String() != "2026-12-01 3f2a1c9e7b0d" {
			t.Fatalf("marked %q reads back %v %v", out, after, diags)
		}
		if before != nil && string(before.Body()) != string(after.Body()) {
			t.Fatalf("body %q became %q", before.Body(), after.Body())
		}
		again, err := Mark(out, "2026-12-01", "3f2a1c9e7b0d")
		if err != nil || string(again) != string(out) {
			t.Fatalf("marking again: %q, %v", again, err)
		}
	})
}
