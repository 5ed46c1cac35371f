package build

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/render"
	"github.com/kakehashi-dev/kakehashi/build/search"
)

var update = flag.Bool("update", false, "rewrite golden files")

// repoFs is the repository's own site (content, themes, i18n) under a
// writable in-memory layer, so tests can edit files without touching disk.
func repoFs(t testing.TB) afero.Fs {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	base := afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), root))
	return afero.NewCopyOnWriteFs(base, afero.NewMemMapFs())
}

func buildSite(t testing.TB, fs afero.Fs) (*Result, error) {
	t.Helper()
	b, err := New(fs, Options{BaseURL: "https://example.org/course/"})
	if err != nil {
		t.Fatal(err)
	}
	return b.Build(context.Background())
}

func TestBundledCourse(t *testing.T) {
	res, err := buildSite(t, repoFs(t))
	if err != nil {
		t.Fatalf("the bundled course does not build:\n%v", err)
	}
	if len(res.Summary.Warnings) > 0 {
		t.Errorf("warnings on the bundled course:\n%v", res.Summary.Warnings)
	}
	for _, p := range []string{
		"index.html", "404.html", "robots.txt", "sitemap.xml", "css/chroma.css",
		"ja/index.html", "ko/index.html", "ja/index.xml", "ko/index.xml",
		"ja/cka/index.html", "ko/cka/index.html",
		"ja/cka/02-control-plane/index.html", "ja/cka/05-ha-cluster/index.html",
		"ko/cka/02-control-plane/index.html", "ko/cka/05-ha-cluster/index.html",
	} {
		if _, ok := res.Site.Get(p); !ok {
			t.Errorf("missing %s", p)
		}
	}
	s := res.Summary
	if s.PartsPublished != 2 || s.PartsPlanned != 4 || s.Articles["ja"] != 2 || s.Articles["ko"] != 2 {
		t.Errorf("summary: %+v", s)
	}
	if s.HighlightHits == 0 {
		t.Error("no code block was reused between the ja and ko versions of a part")
	}
	for _, q := range []struct{ lang, query, want string }{
		{"ja", "クォーラム", "/ja/cka/05-ha-cluster/"},
		{"ja", "10.0.0.120", "/ja/cka/02-control-plane/"},
		{"ko", "쿼럼은", "/ko/cka/05-ha-cluster/"},
		{"ko", "etcdctl member list", "/ko/cka/05-ha-cluster/"},
	} {
		script, ok := res.Site.Get(search.IndexPath(q.lang))
		if !ok {
			t.Fatalf("no search index for %s", q.lang)
		}
		idx, err := search.Load(script)
		if err != nil {
			t.Fatal(err)
		}
		if hits := search.Search(idx, q.query); len(hits) == 0 || hits[0].URL != q.want {
			t.Errorf("search %s %q: got %+v, want %s first", q.lang, q.query, hits, q.want)
		}
	}
	art, _ := res.Site.Get("ja/cka/05-ha-cluster/index.html")
	for _, want := range []string{
		`<html lang="ja"`,
		`hreflang="ko" href="https://example.org/course/ko/cka/05-ha-cluster/"`,
		`href="../../../ja/cka/02-control-plane/"`, // "#2" links to part 2, relatively
		`class="part-ref planned"`,                 // "#4" is planned
		`<table>`,
		`class="code-copy"`,
	} {
		if !bytes.Contains(art, []byte(want)) {
			t.Errorf("ja/cka/05-ha-cluster: missing %s", want)
		}
	}
}

// TestGoldenArticles pins both articles in both languages. Rewrite with
// go test ./build -run Golden -update after an intended change.
func TestGoldenArticles(t *testing.T) {
	res, err := buildSite(t, repoFs(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"ja", "ko"} {
		for _, slug := range []string{"02-control-plane", "05-ha-cluster"} {
			got, _ := res.Site.Get(lang + "/cka/" + slug + "/index.html")
			golden := filepath.Join("testdata", "golden", lang+"-"+slug+".html")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; rerun with -update if intended\n%s", lang+"/"+slug, golden, firstDiff(want, got))
			}
		}
	}
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "lengths differ"
}

func TestDeterministic(t *testing.T) {
	a, err := buildSite(t, repoFs(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := buildSite(t, repoFs(t))
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := a.Site.Paths(), b.Site.Paths()
	if strings.Join(pa, ",") != strings.Join(pb, ",") {
		t.Fatal("two builds wrote different file sets")
	}
	for _, p := range pa {
		x, _ := a.Site.Get(p)
		y, _ := b.Site.Get(p)
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds", p)
		}
	}
}

// TestBadInput checks that each kind of bad input is reported with its
// file:line:col and the offending line, and that a stage reports all of its
// errors at once.
func TestBadInput(t *testing.T) {
	const art = "content/ja/cka/05-ha-cluster.md"
	tests := []struct {
		name  string
		edit  map[string]string // path → new content; "+" prefix appends
		wants []string          // substrings of the error, each must appear
	}{
		{"malformed front matter", map[string]string{art: "---\ntitle: [unclosed\n---\nbody\n"},
			[]string{art + ":2:", "front matter"}},
		{"wrong field type", map[string]string{art: "---\ntitle: x\nseries: cka\npart: five\n---\n"},
			[]string{art + `:4:7: front matter field "part" must be a positive whole number, got string "five"`, "    4 | part: five"}},
		{"part not in series", map[string]string{art: "---\ntitle: x\nseries: cka\npart: 9\n---\n"},
			[]string{art + `:4:1: part 9 is not in series "cka"`}},
		{"invalid UTF-8", map[string]string{art: "---\ntitle: x\n---\nok\n\xfe\n"},
			[]string{art + ":5:1: invalid UTF-8"}},
		{"two errors at once", map[string]string{
			art:                                  "---\ntitle: x\nseries: cka\npart: nine\n---\n",
			"content/ko/cka/02-control-plane.md": "---\ntitle: 1\ndate: soon\n---\n",
		}, []string{art + ":4:7:", "content/ko/cka/02-control-plane.md:3:7:"}},
		{"missing i18n key", map[string]string{"i18n/ko.toml": "lang_name = \"한국어\"\n"},
			[]string{"i18n/ko.toml", "toc"}},
		{"template syntax error", map[string]string{"themes/default/layouts/article.html": "{{define \"main\"}}\n{{if}}{{end}}"},
			[]string{"themes/default/layouts/article.html:2"}},
		{"template execution error", map[string]string{"themes/default/layouts/404.html": "~{{define \"main\"}}~{{define \"main\"}}{{.Site.Nope}}"},
			[]string{"themes/default/layouts/404.html:", "Nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := repoFs(t)
			for p, s := range tt.edit {
				if strings.HasPrefix(s, "~") { // ~old~new: replace in the file
					old, repl, _ := strings.Cut(s[1:], "~")
					b, err := afero.ReadFile(fs, p)
					if err != nil || !bytes.Contains(b, []byte(old)) {
						t.Fatalf("%s has no %q to edit", p, old)
					}
					s = strings.Replace(string(b), old, repl, 1)
				}
				if err := afero.WriteFile(fs, p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := buildSite(t, fs)
			if err == nil {
				t.Fatalf("build succeeded (%d files)", res.Summary.Files)
			}
			msg := err.Error()
			for _, w := range tt.wants {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not contain %q:\n%s", w, msg)
				}
			}
			for _, d := range diag.FromError(err) {
				if d.Path == "" {
					t.Errorf("diagnostic without a file: %s", d)
				}
			}
			if !regexp.MustCompile(`\S+:\d+(:\d+)?: `).MatchString(msg) {
				t.Errorf("no path:line position in %q", msg)
			}
		})
	}
}

// TestFailedBuildKeepsPublic: a broken edit after a good build leaves the
// published site as it was.
func TestFailedBuildKeepsPublic(t *testing.T) {
	fs := repoFs(t)
	res, err := buildSite(t, fs)
	if err != nil {
		t.Fatal(err)
	}
	out := afero.NewMemMapFs()
	if err := output.Publish(context.Background(), out, "/public", res.Site); err != nil {
		t.Fatal(err)
	}
	before, _ := afero.ReadFile(out, "/public/ja/cka/05-ha-cluster/index.html")
	afero.WriteFile(fs, "content/ja/cka/05-ha-cluster.md", []byte("---\npart: x\n---\n"), 0o644)
	if _, err := buildSite(t, fs); err == nil {
		t.Fatal("broken build succeeded")
	}
	after, _ := afero.ReadFile(out, "/public/ja/cka/05-ha-cluster/index.html")
	if !bytes.Equal(before, after) || len(after) == 0 {
		t.Fatal("public/ changed after a failed build")
	}
}

func TestRenderDoc(t *testing.T) {
	b, err := New(repoFs(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("---\ntitle: t\nseries: cka\npart: 5\n---\n#2 と #4 を見よ。\n\n```bash\n$ kubectl get nodes\n```\n")
	html, diags := b.RenderDoc(context.Background(), "x.md", src, "ko")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, want := range []string{`<a class="part-ref" href="/ko/cka/02-control-plane/"`, `준비 중`, `class="chroma"`} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("missing %s in\n%s", want, html)
		}
	}
}

// TestLongSeriesWindow: an article of a long series lists the parts near
// it, the first and last two, and marks the gaps; the series index lists
// them all.
func TestLongSeriesWindow(t *testing.T) {
	fs := repoFs(t)
	series := mustRead(t, fs, "content/series/cka.yaml")
	var extra strings.Builder
	for n := 30; n < 90; n++ {
		extra.WriteString("  - number: " + strconv.Itoa(n) + "\n    title: { ja: \"第" + strconv.Itoa(n) + "回\", ko: \"제" + strconv.Itoa(n) + "회\" }\n    state: planned\n")
	}
	afero.WriteFile(fs, "content/series/cka.yaml", append(series, extra.String()...), 0o644)
	res, err := buildSite(t, fs)
	if err != nil {
		t.Fatal(err)
	}
	var art *render.Page
	for _, p := range res.Pages {
		if p.URL == "/ja/cka/05-ha-cluster/" {
			art = p
		}
	}
	var nums []string
	for _, pr := range art.Series.Parts {
		s := strconv.Itoa(pr.Number)
		if pr.Gap {
			s = "…" + s
		}
		nums = append(nums, s)
	}
	if got, want := strings.Join(nums, " "), "2 4 5 6 7 24 30 31 32 33 …88 89"; got != want {
		t.Errorf("article lists %s\nwant %s", got, want)
	}
	index, _ := res.Site.Get("ja/cka/index.html")
	if !bytes.Contains(index, []byte("第60回")) {
		t.Error("the series index does not list every part")
	}
}
