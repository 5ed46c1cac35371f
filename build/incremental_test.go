package build

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// TestIncrementalEqualsFresh edits the site step by step and checks after
// each step that the incremental build equals a fresh build of the same
// input, byte for byte, and that an edit re-renders only what it must.
func TestIncrementalEqualsFresh(t *testing.T) {
	fs := repoFs(t)
	b, err := New(fs, Options{BaseURL: "https://example.org/course/"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := b.Build(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if first.Changed != nil || first.Removed != nil {
		t.Fatal("first build reports changes")
	}
	total := first.Rendered

	const art = "content/ja/cka/05-ha-cluster.md"
	orig, _ := afero.ReadFile(fs, art)
	steps := []struct {
		name        string
		edit        func()
		invalidate  []string
		wantChanged []string // must be among the changed paths
		maxRendered int      // at most this many templates executed
	}{
		{"nothing changed", func() {}, nil, nil, 0},
		{"edit one article", func() {
			afero.WriteFile(fs, art, append(bytes.Clone(orig), []byte("\n追記した段落です。\n")...), 0o644)
		}, []string{art}, []string{"ja/cka/05-ha-cluster/index.html"}, 1},
		{"add a part page", func() {
			afero.WriteFile(fs, "content/series/cka.yaml", bytes.Replace(mustRead(t, fs, "content/series/cka.yaml"),
				[]byte("number: 6\n    title: { ja: \"クラスターアップグレード\", ko: \"클러스터 업그레이드\" }\n    state: planned"),
				[]byte("number: 6\n    title: { ja: \"クラスターアップグレード\", ko: \"클러스터 업그레이드\" }\n    state: published"), 1), 0o644)
			afero.WriteFile(fs, "content/ja/cka/06-upgrade.md", []byte("---\ntitle: アップグレード\nseries: cka\npart: 6\ndate: 2026-11-20\n---\n#5 の続きです。\n"), 0o644)
			afero.WriteFile(fs, "content/ko/cka/06-upgrade.md", []byte("---\ntitle: 업그레이드\nseries: cka\npart: 6\ndate: 2026-11-20\n---\n#5 의 다음입니다.\n"), 0o644)
		}, []string{"content/series/cka.yaml", "content/ja/cka/06-upgrade.md", "content/ko/cka/06-upgrade.md"},
			[]string{"ja/cka/06-upgrade/index.html", "ja/cka/05-ha-cluster/index.html", "sitemap.xml"}, 1 << 30},
		{"remove it again", func() {
			fs.Remove("content/ja/cka/06-upgrade.md")
			fs.Remove("content/ko/cka/06-upgrade.md")
			afero.WriteFile(fs, "content/series/cka.yaml", bytes.Replace(mustRead(t, fs, "content/series/cka.yaml"),
				[]byte("state: published\n  - number: 7"), []byte("state: planned\n  - number: 7"), 1), 0o644)
		}, []string{"content/ja/cka/06-upgrade.md", "content/ko/cka/06-upgrade.md", "content/series/cka.yaml"}, nil, 1 << 30},
		{"change a template", func() {
			p := "themes/default/layouts/baseof.html"
			afero.WriteFile(fs, p, bytes.Replace(mustRead(t, fs, p), []byte("<body"), []byte("<!-- edited -->\n<body"), 1), 0o644)
		}, []string{"themes/default/layouts/baseof.html"}, []string{"ja/cka/02-control-plane/index.html", "ko/index.html"}, 1 << 30},
		{"change a UI string", func() {
			p := "i18n/ko.toml"
			afero.WriteFile(fs, p, bytes.Replace(mustRead(t, fs, p), []byte(`copy = "복사"`), []byte(`copy = "복사하기"`), 1), 0o644)
		}, []string{"i18n/ko.toml"}, []string{"ko/cka/05-ha-cluster/index.html"}, 1 << 30},
	}
	for _, st := range steps {
		st.edit()
		b.Invalidate(st.invalidate...)
		inc, err := b.Build(ctx)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		fresh, err := buildSite(t, fs)
		if err != nil {
			t.Fatalf("%s: fresh build: %v", st.name, err)
		}
		if d := compareSites(inc, fresh); d != "" {
			t.Fatalf("%s: incremental build differs from a fresh one: %s", st.name, d)
		}
		changed := strings.Join(inc.Changed, " ")
		for _, w := range st.wantChanged {
			if !strings.Contains(" "+changed+" ", " "+w+" ") {
				t.Errorf("%s: %s not reported changed (changed: %s)", st.name, w, changed)
			}
		}
		if st.name == "nothing changed" && (len(inc.Changed) > 0 || len(inc.Removed) > 0) {
			t.Errorf("nothing changed, yet changed=%v removed=%v", inc.Changed, inc.Removed)
		}
		if st.name == "remove it again" && !strings.Contains(strings.Join(inc.Removed, " "), "ja/cka/06-upgrade/index.html") {
			t.Errorf("removed page not reported: %v", inc.Removed)
		}
		if inc.Rendered > st.maxRendered {
			t.Errorf("%s: %d of %d pages re-rendered, want at most %d", st.name, inc.Rendered, total, st.maxRendered)
		}
	}
}

func mustRead(t *testing.T, fs afero.Fs, p string) []byte {
	t.Helper()
	b, err := afero.ReadFile(fs, p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compareSites(a, b *Result) string {
	pa, pb := a.Site.Paths(), b.Site.Paths()
	if strings.Join(pa, ",") != strings.Join(pb, ",") {
		return "file sets differ:\n" + strings.Join(pa, ",") + "\n" + strings.Join(pb, ",")
	}
	for _, p := range pa {
		x, _ := a.Site.Get(p)
		y, _ := b.Site.Get(p)
		if !bytes.Equal(x, y) {
			return p + " differs"
		}
	}
	return ""
}
