package corpus_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// repo is the repository the course is read from.
func repo() afero.Fs {
	return afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), filepath.Join("..", "..", "..")))
}

func load(t testing.TB) *corpus.Course {
	t.Helper()
	c, err := corpus.Load(context.Background(), repo())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var fenceRe = regexp.MustCompile("(?s)\n```([a-z]*)\n(.*?)```\n")

// fences returns the code blocks of a markdown page, as "lang\ncode".
func fences(md []byte) []string {
	var out []string
	for _, m := range fenceRe.FindAllSubmatch(md, -1) {
		out = append(out, string(m[1])+"\n"+string(m[2]))
	}
	return out
}

func TestGenerateIsDeterministic(t *testing.T) {
	c := load(t)
	for _, n := range []int{1, 7, 40} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			a, b := afero.NewMemMapFs(), afero.NewMemMapFs()
			if err := c.Generate(context.Background(), a, "site", n); err != nil {
				t.Fatal(err)
			}
			if err := corpus.GenerateFrom(context.Background(), repo(), b, "site", n); err != nil {
				t.Fatal(err)
			}
			count := 0
			err := afero.Walk(a, "site", func(p string, info os.FileInfo, err error) error {
				if err != nil || info.IsDir() {
					return err
				}
				count++
				x, _ := afero.ReadFile(a, p)
				y, err := afero.ReadFile(b, p)
				if err != nil {
					return err
				}
				if !bytes.Equal(x, y) {
					t.Errorf("%s differs between two generations", p)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if want := 2*n + 3; count < want {
				t.Errorf("%d files, want at least %d", count, want)
			}
		})
	}
}

func TestSiteLayout(t *testing.T) {
	c := load(t)
	const n = 12
	fs := afero.NewMemMapFs()
	if err := c.Generate(context.Background(), fs, "/s", n); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		"/s/content/series/cka.yaml", "/s/content/ja/_index.md", "/s/content/ko/_index.md",
		"/s/content/ja/cka/0001-ha-cluster.md", "/s/content/ko/cka/0012-etcd-quorum.md",
		"/s/themes/default/layouts/article.html", "/s/i18n/ja.toml", "/s/i18n/ko.toml",
	} {
		if ok, _ := afero.Exists(fs, p); !ok {
			t.Errorf("%s missing", p)
		}
	}
	for _, p := range []string{"/s/i18n/i18n.go", "/s/content/ja/cka/0013-troubleshooting.md", "/s/content/ja/cka/02-control-plane.md"} {
		if ok, _ := afero.Exists(fs, p); ok {
			t.Errorf("%s should not be written", p)
		}
	}
}

func TestSeriesFile(t *testing.T) {
	c := load(t)
	for _, n := range []int{1, 30} {
		s, diags := source.ParseSeries("cka.yaml", c.SeriesFile(n))
		if err := diags.Err(); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if len(s.Parts) != n+corpus.Planned {
			t.Fatalf("n=%d: %d parts listed, want %d", n, len(s.Parts), n+corpus.Planned)
		}
		for i, p := range s.Parts {
			want := source.Published
			if i >= n {
				want = source.Planned
			}
			if p.Number != i+1 || p.State != want || p.Title["ja"] == "" || p.Title["ko"] == "" {
				t.Errorf("n=%d: part %d = %+v, want number %d, state %s, titles in ja and ko", n, i, p, i+1, want)
			}
		}
	}
}

func TestPartsParseAndBelongToTheSeries(t *testing.T) {
	c := load(t)
	const n = 25
	for _, lang := range []string{"ja", "ko"} {
		for part := 1; part <= n; part++ {
			p := c.PartPath(lang, part)
			pg, diags := source.ParsePage(p, c.Part(lang, part, n))
			if len(diags) > 0 {
				t.Fatalf("%s: %v", p, diags)
			}
			if pg.Meta.Series != "cka" || pg.Meta.Part != part || pg.Meta.Title == "" || pg.Meta.Date.IsZero() || len(pg.Meta.Tags) == 0 {
				t.Errorf("%s: front matter %+v", p, pg.Meta)
			}
		}
	}
}

// refRe finds "#N" references outside code.
var refRe = regexp.MustCompile(`(?:^|[^0-9A-Za-z#&/])#(\d+)`)

func TestPartContents(t *testing.T) {
	c := load(t)
	const n = 40
	tests := []struct {
		name string
		ok   func(lang string, md []byte) bool
	}{
		{"has a GFM table", func(_ string, md []byte) bool { return bytes.Contains(md, []byte("\n| --- |")) }},
		{"has several shell blocks", func(_ string, md []byte) bool {
			k := 0
			for _, f := range fences(md) {
				if strings.HasPrefix(f, "bash\n") || strings.HasPrefix(f, "console\n") {
					k++
				}
			}
			return k >= 2
		}},
		{"has headings h2 and h3", func(_ string, md []byte) bool {
			return bytes.Contains(md, []byte("\n## ")) && bytes.Contains(md, []byte("\n### "))
		}},
		{"is written in its language", func(lang string, md []byte) bool {
			script := unicode.Hiragana
			if lang == "ko" {
				script = unicode.Hangul
			}
			k := 0
			for _, r := range string(md) {
				if unicode.Is(script, r) {
					k++
				}
			}
			return k > 500
		}},
		{"refers to other parts", func(_ string, md []byte) bool {
			return len(refRe.FindAll(fenceRe.ReplaceAll(md, nil), -1)) >= 4
		}},
		{"refers only to parts of the series", func(_ string, md []byte) bool {
			for _, m := range refRe.FindAllSubmatch(fenceRe.ReplaceAll(md, nil), -1) {
				k, _ := strconv.Atoi(string(m[1]))
				if k < 1 || k > n+corpus.Planned {
					return false
				}
			}
			return true
		}},
		{"has no shortcodes", func(_ string, md []byte) bool { return !bytes.Contains(md, []byte("{{")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, lang := range []string{"ja", "ko"} {
				for part := 1; part <= n; part++ {
					if !tt.ok(lang, c.Part(lang, part, n)) {
						t.Errorf("%s part %d fails", lang, part)
					}
				}
			}
		})
	}
}

func TestCodeBlocks(t *testing.T) {
	c := load(t)
	const n = 120
	owner := map[string]int{}
	for part := 1; part <= n; part++ {
		ja, ko := fences(c.Part("ja", part, n)), fences(c.Part("ko", part, n))
		if len(ja) < 5 {
			t.Errorf("part %d has %d code blocks, want at least 5", part, len(ja))
		}
		if strings.Join(ja, "\x00") != strings.Join(ko, "\x00") {
			t.Errorf("part %d: ja and ko code blocks differ", part)
		}
		want := c.CodeBlocks(part, n)
		if len(want) != len(ja) {
			t.Fatalf("part %d: CodeBlocks gives %d blocks, the page has %d", part, len(want), len(ja))
		}
		for i, f := range ja {
			if _, code, _ := strings.Cut(f, "\n"); code != want[i] {
				t.Errorf("part %d block %d: CodeBlocks differs from the page", part, i)
			}
			if prev, dup := owner[f]; dup && prev != part {
				t.Errorf("part %d repeats a code block of part %d:\n%s", part, prev, f)
			}
			owner[f] = part
		}
	}
}

func TestPartsDiffer(t *testing.T) {
	c := load(t)
	const n = 60
	for _, lang := range []string{"ja", "ko"} {
		seen := map[string]int{}
		for part := 1; part <= n; part++ {
			_, body, _ := strings.Cut(string(c.Part(lang, part, n)), "\n---\n")
			// Compare prose only: code blocks differ by construction.
			prose := fenceRe.ReplaceAllString(body, "")
			if prev, dup := seen[prose]; dup {
				t.Errorf("%s: parts %d and %d have the same prose", lang, prev, part)
			}
			seen[prose] = part
		}
	}
}

func TestGeneratedSiteBuilds(t *testing.T) {
	c := load(t)
	const n = 6
	fs := afero.NewMemMapFs()
	if err := c.Generate(context.Background(), fs, "/site", n); err != nil {
		t.Fatal(err)
	}
	b, err := build.New(afero.NewBasePathFs(fs, "/site"), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summary
	if s.Articles["ja"] != n || s.Articles["ko"] != n || s.PartsPublished != n || s.PartsPlanned != corpus.Planned {
		t.Errorf("summary: %+v", s)
	}
	// The generated translations are never marked: that is all it warns.
	for _, w := range s.Warnings {
		if w.Code != "unmarked-translation" {
			t.Errorf("warning: %v", w)
		}
	}
	// Every code block is highlighted once, for ja, and reused for ko.
	blocks := 0
	for part := 1; part <= n; part++ {
		blocks += len(c.CodeBlocks(part, n))
	}
	if s.HighlightRuns != int64(blocks) || s.HighlightHits < int64(blocks) {
		t.Errorf("highlighted %d blocks, reused %d; the corpus has %d distinct blocks", s.HighlightRuns, s.HighlightHits, blocks)
	}
}

func TestHugoSite(t *testing.T) {
	c := load(t)
	const n = 5
	files := map[string][]byte{}
	for _, f := range c.HugoFiles(n) {
		files[f.Path] = f.Data
	}
	for _, f := range c.Content(n) {
		if strings.HasPrefix(f.Path, "content/series/") {
			continue
		}
		if !bytes.Equal(files[f.Path], f.Data) {
			t.Errorf("%s: Hugo site's copy differs from kakehashi's", f.Path)
		}
	}
	var cfg struct {
		DefaultContentLanguage string
		Languages              map[string]struct{ ContentDir string }
		Markup                 struct {
			Highlight       struct{ NoClasses *bool }
			TableOfContents struct{ StartLevel, EndLevel int }
		}
	}
	if err := toml.Unmarshal(files["hugo.toml"], &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.DefaultContentLanguage != "ja" || cfg.Languages["ja"].ContentDir != "content/ja" || cfg.Languages["ko"].ContentDir != "content/ko" {
		t.Errorf("languages: %+v", cfg)
	}
	if h := cfg.Markup.Highlight.NoClasses; h == nil || *h {
		t.Errorf("markup.highlight.noClasses must be false")
	}
	if toc := cfg.Markup.TableOfContents; toc.StartLevel != 2 || toc.EndLevel != 4 {
		t.Errorf("tableOfContents: %+v", toc)
	}
	layouts := string(files["layouts/_default/baseof.html"]) + string(files["layouts/_default/single.html"]) + string(files["layouts/_default/list.html"])
	for _, want := range []string{".TableOfContents", ".Translations", ".PrevInSection", ".NextInSection", ".Content", `block "main"`} {
		if !strings.Contains(layouts, want) {
			t.Errorf("layouts lack %s", want)
		}
	}
}

// hugos are the Hugo binaries at hand: hugo on PATH, the one HUGO names,
// and the newest that ../shared/tools/hugo-latest.sh builds into its
// default folder (when it has been built), each once.
func hugos(t *testing.T) []string {
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	if p, err := exec.LookPath("hugo"); err == nil {
		add(p)
	}
	add(os.Getenv("HUGO"))
	if home, err := os.UserHomeDir(); err == nil {
		add(filepath.Join(home, ".cache", "hugo-latest", "hugo"))
	}
	if len(out) == 0 {
		t.Skip("no hugo installed")
	}
	return out
}

// TestHugoBuildsIt builds the Hugo site with every Hugo at hand, and checks
// its article pages, and that the build warns of nothing (no deprecated
// configuration key or template method).
func TestHugoBuildsIt(t *testing.T) {
	c := load(t)
	const n = 4
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	if err := c.GenerateHugo(context.Background(), afero.NewOsFs(), site, n); err != nil {
		t.Fatal(err)
	}
	for i, hugo := range hugos(t) {
		version, _ := exec.Command(hugo, "version").Output()
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Logf("%s: %s", hugo, bytes.TrimSpace(version))
			out := filepath.Join(dir, fmt.Sprint("out", i))
			msg, err := exec.Command(hugo, "-s", site, "-d", out).CombinedOutput()
			if err != nil {
				t.Fatalf("hugo: %v\n%s", err, msg)
			}
			if bytes.Contains(msg, []byte("WARN")) || bytes.Contains(msg, []byte("deprecated")) {
				t.Errorf("hugo warns:\n%s", msg)
			}
			other := map[string]string{"ja": "한국어", "ko": "日本語"}
			for _, lang := range []string{"ja", "ko"} {
				for part := 1; part <= n; part++ {
					rel := strings.TrimSuffix(strings.TrimPrefix(c.PartPath(lang, part), "content/"), ".md")
					page, err := os.ReadFile(filepath.Join(out, rel, "index.html"))
					if err != nil {
						t.Fatal(err)
					}
					for _, want := range []string{`class="chroma"`, `id="TableOfContents"`, fmt.Sprintf("lab%d-cp-1", part), `hreflang=`,
						`">` + other[lang] + `</a></nav>`} {
						if !bytes.Contains(page, []byte(want)) {
							t.Errorf("%s lacks %s", rel, want)
						}
					}
				}
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	c := load(t)
	tests := []struct {
		name string
		run  func() error
	}{
		{"zero parts", func() error { return c.Generate(context.Background(), afero.NewMemMapFs(), "s", 0) }},
		{"zero parts for Hugo", func() error { return c.GenerateHugo(context.Background(), afero.NewMemMapFs(), "s", 0) }},
		{"empty repository", func() error {
			_, err := corpus.Load(context.Background(), afero.NewMemMapFs())
			return err
		}},
		{"no series file", func() error {
			fs := afero.NewMemMapFs()
			for _, lang := range []string{"ja", "ko"} {
				afero.WriteFile(fs, "content/"+lang+"/cka/01-a.md", []byte("---\ntitle: a\n---\n\n## h\n\ntext\n"), 0o644)
			}
			_, err := corpus.Load(context.Background(), fs)
			return err
		}},
		{"canceled", func() error {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return c.Generate(ctx, afero.NewMemMapFs(), "s", 3)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestMemSite(t *testing.T) {
	c, err := corpus.LoadDir(context.Background(), filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := c.MemSite(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	got, err := afero.ReadFile(fs, c.PartPath("ko", 3))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, c.Part("ko", 3, 3)) {
		t.Error("MemSite's part 3 differs from Part")
	}
	if _, err := corpus.LoadDir(context.Background(), t.TempDir()); err == nil {
		t.Error("LoadDir of an empty folder: no error")
	}
}
