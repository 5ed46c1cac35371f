package build

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"

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
		if _, ok := res.Site.Get(assetPath(res, p)); !ok {
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
		idx, err := search.Load(q.lang, res.Site.Get)
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

// TestRenderDocPartSeries: a fragment outside any series names a part of
// one with part series=.
func TestRenderDocPartSeries(t *testing.T) {
	b, err := New(repoFs(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// named, and the spelling: the series by name, the part by
	// position
	for _, src := range []string{`{{< part series="cka" n=5 >}}`, `{{< part series="cka" 5 >}}`} {
		html, diags := b.RenderDoc(context.Background(), "x.md", []byte(src+"\n"), "ja")
		if len(diags) > 0 {
			t.Fatal(src, diags)
		}
		if want := `<a class="part-ref" href="/ja/cka/05-ha-cluster/">#5 `; !bytes.Contains(html, []byte(want)) {
			t.Errorf("%s: missing %s in\n%s", src, want, html)
		}
	}
}
