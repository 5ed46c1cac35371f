package build

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/spf13/afero"
)

// TestSkipUnchanged: with SkipUnchanged, a build that finds every input
// and output file as the last one left them does nothing and reports
// that build's summary, warnings included; any change to an input, to
// the output folder or to the options makes it do its work, and the
// output always equals a fresh build.
func TestSkipUnchanged(t *testing.T) {
	in := repoFs(t)
	out, cacheFs := afero.NewMemMapFs(), afero.NewMemMapFs()
	builder := func(baseURL string) *Builder {
		b, err := New(in, Options{BaseURL: baseURL, CacheDir: "/cache", CacheFs: cacheFs, SkipUnchanged: true})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const base = "https://example.org/course/"
	skipped := func(res *Result) bool { return res.Unchanged && res.Rendered == 0 && res.Reused == 0 }
	// A page in Japanese only: the build warns that it has no Korean
	// translation, and so must the builds that skip their work.
	afero.WriteFile(in, "content/ja/notes.md", []byte("---\ntitle: メモ\n---\n\n本文。\n"), 0o644)
	cold := buildToDisk(t, builder(base), out)
	if skipped(cold) || cold.Rendered == 0 {
		t.Fatalf("cold build: rendered %d, unchanged %v", cold.Rendered, cold.Unchanged)
	}
	if len(cold.Summary.Warnings) == 0 {
		t.Fatal("the course builds with no warning: the test cannot see warnings carried over")
	}
	again := buildToDisk(t, builder(base), out)
	if !skipped(again) {
		t.Fatalf("nothing changed, yet the build rendered %d and reused %d files", again.Rendered, again.Reused)
	}
	if fmt.Sprint(again.Summary.Warnings) != fmt.Sprint(cold.Summary.Warnings) ||
		again.Summary.Files != cold.Summary.Files || again.Summary.Pages["ja"] != cold.Summary.Pages["ja"] {
		t.Errorf("the skipped build reports %d files, %d warnings; the last build %d, %d",
			again.Summary.Files, len(again.Summary.Warnings), cold.Summary.Files, len(cold.Summary.Warnings))
	}
	sameAsFresh(t, "skipped", in, out)

	steps := []struct {
		name   string
		change func()
	}{
		{"a page edited", func() {
			const art = "content/ja/cka/05-ha-cluster.md"
			afero.WriteFile(in, art, append(mustRead(t, in, art), "\n追記した段落です。\n"...), 0o644)
		}},
		{"a page added", func() {
			afero.WriteFile(in, "content/ko/notes.md", []byte("---\ntitle: 메모\n---\n\n본문.\n"), 0o644)
		}},
		{"a UI string edited", func() {
			const p = "i18n/ja.toml"
			afero.WriteFile(in, p, append(mustRead(t, in, p), "\n"...), 0o644)
		}},
		{"an output file hand-edited, same size", func() {
			const p = "/public/ko/cka/05-ha-cluster/index.html"
			afero.WriteFile(out, p, bytes.Replace(mustRead(t, out, p), []byte("<html"), []byte("<HTML"), 1), 0o644)
		}},
		{"an output file removed", func() { out.Remove("/public/ja/cka/02-control-plane/index.html") }},
		{"a stray file in the output", func() { afero.WriteFile(out, "/public/stray.txt", []byte("x"), 0o644) }},
	}
	for _, s := range steps {
		s.change()
		if res := buildToDisk(t, builder(base), out); skipped(res) {
			t.Errorf("%s: the build did nothing", s.name)
		}
		sameAsFresh(t, s.name, in, out)
		if res := buildToDisk(t, builder(base), out); !skipped(res) {
			t.Errorf("%s, then nothing: the second build rendered %d and reused %d files", s.name, res.Rendered, res.Reused)
		}
	}
	if res := buildToDisk(t, builder("https://example.org/other/"), out); skipped(res) {
		t.Error("another base URL: the build did nothing")
	}
}
