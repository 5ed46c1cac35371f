package source

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"golang.org/x/text/unicode/norm"
)

func TestParsePageFrontMatter(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    FrontMatter
		wantErr string // substring of the first diagnostic, with its position
	}{
		{
			name: "yaml",
			src:  "---\ntitle: HA クラスター\nseries: cka\npart: 5\ndate: 2026-11-02\ntags: [a, b]\ndraft: false\n---\nbody\n",
			want: FrontMatter{Title: "HA クラスター", Series: "cka", Part: 5, Date: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), Tags: []string{"a", "b"}},
		},
		{
			name: "toml",
			src:  "+++\ntitle = \"x\"\npart = 2\ndate = 2026-10-05\n+++\nbody\n",
			want: FrontMatter{Title: "x", Part: 2, Date: time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC)},
		},
		{name: "no front matter", src: "# hello\n", want: FrontMatter{}},
		{name: "wrong type part", src: "---\ntitle: x\npart: five\n---\n", wantErr: "p.md:3:7: front matter field \"part\" must be a positive whole number, got string \"five\""},
		{name: "wrong type title", src: "---\ntitle: [a]\n---\n", wantErr: "p.md:2:8: front matter field \"title\" must be a string"},
		{name: "bad date", src: "---\ndate: yesterday\n---\n", wantErr: "p.md:2:7: front matter field \"date\" must be a date"},
		{name: "tags not a list", src: "---\ntags: k8s\n---\n", wantErr: "p.md:2:7: front matter field \"tags\" must be a list of strings"},
		{name: "draft not bool", src: "---\ndraft: maybe\n---\n", wantErr: "p.md:2:8: front matter field \"draft\" must be true or false"},
		{name: "malformed yaml", src: "---\ntitle: x\n  bad: : y\n---\n", wantErr: "p.md:3:6: front matter: mapping values are not allowed in this context"},
		{name: "unclosed", src: "---\ntitle: x\nbody\n", wantErr: "p.md:1:1: front matter opened with \"---\" is never closed"},
		{name: "malformed toml", src: "+++\ntitle = \n+++\n", wantErr: "p.md:2:"},
		{name: "toml wrong type", src: "+++\npart = \"x\"\n+++\n", wantErr: "p.md:2:8: front matter field \"part\""},
		{name: "not a mapping", src: "---\n- a\n---\n", wantErr: "p.md:2:1: front matter must be a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg, diags := ParsePage("p.md", []byte(tt.src))
			if tt.wantErr != "" {
				if len(diags.Errors()) == 0 {
					t.Fatalf("no error; want %q", tt.wantErr)
				}
				if got := diags.Errors()[0].String(); !strings.Contains(got, tt.wantErr) {
					t.Fatalf("error\n%s\nwant it to contain %q", got, tt.wantErr)
				}
				if pg != nil {
					t.Fatalf("a page was returned despite the error")
				}
				return
			}
			if len(diags) > 0 {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
			got := pg.Meta
			if got.Title != tt.want.Title || got.Part != tt.want.Part || got.Series != tt.want.Series ||
				!got.Date.Equal(tt.want.Date) || strings.Join(got.Tags, ",") != strings.Join(tt.want.Tags, ",") || got.Draft != tt.want.Draft {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestBodyStartKeepsLines(t *testing.T) {
	src := "---\ntitle: x\n---\nline four\n"
	pg, d := ParsePage("p.md", []byte(src))
	if len(d) > 0 {
		t.Fatal(d)
	}
	if got := string(pg.Body()); got != "line four\n" {
		t.Fatalf("body %q", got)
	}
}

func TestUnknownFieldWarns(t *testing.T) {
	pg, d := ParsePage("p.md", []byte("---\ntitel: x\nlayout: wide\n---\n"))
	if pg == nil {
		t.Fatal("warning must not drop the page")
	}
	if len(d) != 2 || !strings.Contains(d[0].String(), `p.md:2:1: warning: front matter field "titel" is not known: did you mean "title"? it is ignored`) ||
		!strings.Contains(d[1].String(), `p.md:3:1: warning: front matter field "layout" is not known: it is ignored`) {
		t.Fatalf("got %v", d)
	}
	if pg.Meta.Params != nil {
		t.Fatalf("params %v", pg.Meta.Params)
	}
}

func TestInvalidUTF8(t *testing.T) {
	d, ok := CheckUTF8("p.md", []byte("---\ntitle: ok\n---\nあ\xffい\n"))
	if ok {
		t.Fatal("accepted invalid UTF-8")
	}
	if !strings.HasPrefix(d.String(), "p.md:4:2: invalid UTF-8 (byte 0xff)") {
		t.Fatalf("got %s", d)
	}
}

func TestLoadNormalisesAndSorts(t *testing.T) {
	fs := afero.NewMemMapFs()
	nfd := norm.NFD.String("한국어")
	files := map[string]string{
		"content/ko/cka/" + nfd + ".md": "---\ntitle: " + nfd + "\n---\n",
		"content/ja/cka/b.md":           "---\ntitle: b\n---\n",
		"content/ja/cka/a.md":           "\uFEFF---\r\ntitle: a\r\n---\r\nbody\r\n",
		"content/ja/.hidden.md":         "x",
		"content/series/cka.yaml":       "id: cka\ntitle: {ja: C, ko: C}\nparts:\n  - number: 2\n    title: {ja: a, ko: b}\n    state: published\n",
		"content/en/x.md":               "---\n---\n",
	}
	for p, s := range files {
		afero.WriteFile(fs, p, []byte(s), 0o644)
	}
	c, d := Load(context.Background(), fs, "content", []string{"ja", "ko"})
	if len(d) != 1 || !strings.Contains(d[0].String(), `content/en/x.md: language folder "en" is not one of the site's languages`) {
		t.Fatalf("diagnostics %v", d)
	}
	var rels []string
	for _, p := range c.Pages {
		rels = append(rels, p.Lang+"/"+p.Rel)
	}
	if got := strings.Join(rels, " "); got != "ja/cka/a.md ja/cka/b.md ko/cka/한국어.md" {
		t.Fatalf("pages %q", got)
	}
	if c.Pages[2].Meta.Title != "한국어" {
		t.Fatalf("title not NFC: %q", c.Pages[2].Meta.Title)
	}
	if c.Pages[0].Meta.Title != "a" || string(c.Pages[0].Body()) != "body\n" {
		t.Fatalf("BOM/CRLF not handled: %+v %q", c.Pages[0].Meta, c.Pages[0].Body())
	}
	if len(c.Series) != 1 || c.Series[0].ID != "cka" {
		t.Fatalf("series %v", c.Series)
	}
}

func TestParseSeries(t *testing.T) {
	good := "id: cka\ntitle: {ja: CKA, ko: CKA}\nparts:\n  - number: 5\n    title: {ja: HA, ko: HA}\n    state: published\n  - number: 2\n    title: {ja: a, ko: b}\n    state: planned\n"
	s, d := ParseSeries("s.yaml", []byte(good))
	if len(d) > 0 {
		t.Fatal(d)
	}
	if s.Numbers() != "#2, #5" {
		t.Fatalf("parts %s", s.Numbers())
	}
	if p, ok := s.Part(5); !ok || p.State != Published || p.Title["ja"] != "HA" {
		t.Fatalf("part 5: %+v %v", p, ok)
	}
	if _, ok := s.Part(3); ok {
		t.Fatal("part 3 found")
	}
	bad := []struct{ src, want string }{
		{"id: cka\nparts:\n  - number: two\n", `s.yaml:3:13: part "number" must be a positive whole number, got "two"`},
		{"id: cka\nparts:\n  - number: 2\n    state: done\n", `s.yaml:4:12: part "state" must be "published" or "planned", got "done"`},
		{"id: cka\nparts:\n  - number: 2\n  - number: 2\n", `s.yaml:4:13: part #2 is listed twice`},
		{"id: cka\ncolour: red\nparts: []\n", `s.yaml:2:1: unknown series field "colour"`},
		{"id: cka\n", `s.yaml:1:1: series file has no "parts"`},
	}
	for _, b := range bad {
		_, d := ParseSeries("s.yaml", []byte(b.src))
		if len(d) == 0 || !strings.Contains(d.Error(), b.want) {
			t.Errorf("%q: got %v, want %q", b.src, d, b.want)
		}
	}
}

// TestReadSized: a file is read whole whether it kept the size it was
// stamped with, shrank or grew since, and is refused once it grew past
// the limit.
func TestReadSized(t *testing.T) {
	text := strings.Repeat("本文の行。\n", 100)
	for _, c := range []struct {
		name string
		size int64
	}{{"same size", int64(len(text))}, {"shrank", int64(len(text)) + 50}, {"grew", 10}, {"empty at the check", 0}} {
		got, err := readSized(strings.NewReader(text), c.size)
		if err != nil || string(got) != text {
			t.Errorf("%s: read %d bytes, %v; want %d", c.name, len(got), err, len(text))
		}
	}
	if got, err := readSized(strings.NewReader(""), 0); err != nil || len(got) != 0 {
		t.Errorf("empty file: %q, %v", got, err)
	}
	if _, err := readSized(io.LimitReader(zeros{}, MaxFileSize+10), 100); err == nil {
		t.Error("a file grown past the limit was read")
	}
}

type zeros struct{}

func (zeros) Read(b []byte) (int, error) { clear(b); return len(b), nil }

// TestLoaderComplete: told that the files it was given are every change
// (Complete), a Loader reads those again without walking the content
// folder: an unreported new file stays unseen, as the watcher would
// have named it. Any named file that is not a page it read (a new page,
// a removed one, an image), or a Load not told so, walks again.
func TestLoaderComplete(t *testing.T) {
	ctx := context.Background()
	fs := afero.NewMemMapFs()
	write := func(p, title string) {
		afero.WriteFile(fs, p, []byte("---\ntitle: "+title+"\n---\n本文\n"), 0o644)
	}
	write("content/ja/a.md", "a")
	write("content/ja/b.md", "b")
	l := NewLoader()
	titles := func(c *Content) string {
		var ts []string
		for _, p := range c.Pages {
			ts = append(ts, p.Meta.Title)
		}
		return strings.Join(ts, " ")
	}
	load := func() string {
		c, diags := l.Load(ctx, fs, "content", []string{"ja"})
		if diags.Err() != nil {
			t.Fatal(diags)
		}
		return titles(c)
	}
	load()
	write("content/ja/a.md", "a2")
	write("content/ja/c.md", "c") // not reported
	l.Invalidate("content/ja/a.md")
	l.Complete()
	if got := load(); got != "a2 b" {
		t.Errorf("told a.md changed: %q, want a2 b (c.md unseen: no walk)", got)
	}
	l.Complete() // nothing named: nothing read
	if got := load(); got != "a2 b" {
		t.Errorf("told nothing changed: %q", got)
	}
	if got := load(); got != "a2 b c" {
		t.Errorf("not told: %q, want the walk to find c.md", got)
	}
	write("content/ja/d.md", "d")
	l.Invalidate("content/ja/d.md")
	l.Complete()
	if got := load(); got != "a2 b c d" {
		t.Errorf("told of a new page: %q", got)
	}
	fs.Remove("content/ja/b.md")
	l.Invalidate("content/ja/b.md")
	l.Complete()
	if got := load(); got != "a2 c d" {
		t.Errorf("told of a removed page: %q", got)
	}
	write("content/ja/b.md", "b2")
	afero.WriteFile(fs, "content/ja/pic.png", []byte("png"), 0o644)
	l.Invalidate("content/ja/pic.png")
	l.Complete()
	c, _ := l.Load(ctx, fs, "content", []string{"ja"})
	if titles(c) != "a2 b2 c d" || len(c.Files) != 1 {
		t.Errorf("told of a new image: %q, %d files", titles(c), len(c.Files))
	}
}
