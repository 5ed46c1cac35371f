package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

// translationsSite writes a site of Japanese originals and Korean
// translations into the folder site of a new temporary folder, made the
// current folder, with files (path: text) beside the configuration.
func translationsSite(t *testing.T, files map[string]string) {
	t.Helper()
	t.Chdir(t.TempDir())
	writeFile(t, "site/kakehashi.toml", "languages = [\"ja\", \"ko\"]\n")
	for p, text := range files {
		writeFile(t, filepath.Join("site", filepath.FromSlash(p)), text)
	}
}

// hashOf is the hash of the original text, as at path.
func hashOf(t *testing.T, path, text string) string {
	t.Helper()
	pg, diags := source.ParsePage(path, source.Normalize([]byte(text)))
	if pg == nil || diags.Err() != nil {
		t.Fatalf("%s: %v", path, diags)
	}
	return translation.Hash(pg)
}

const (
	jaA = "---\ntitle: 題\n---\n\n本文。\n"
	koA = "---\ntitle: 제목\n---\n\n본문.\n"
)

// TestTranslationsStatusCLI: status prints a line a pair in aligned
// columns, the paths from where the command was run, and a summary; the
// hint to mark only when a translation is stale or unmarked; the site's
// errors, or a usage error, with their exit codes.
func TestTranslationsStatusCLI(t *testing.T) {
	const jaCur = "---\ntitle: 今\n---\n本文\n"
	cur := func(t *testing.T) string {
		return "---\ntitle: 지금\ntranslated: 2026-11-02 " + hashOf(t, "content/ja/cur.md", jaCur) + "\n---\n본문\n"
	}
	tests := []struct {
		name   string
		files  func(t *testing.T) map[string]string
		args   []string
		code   int
		stdout string
		stderr []string // each a line of stderr, in order
	}{{
		name: "every state",
		files: func(t *testing.T) map[string]string {
			return map[string]string{
				"content/ja/a.md": jaA, "content/ko/a.md": koA,
				"content/ja/cur.md": jaCur, "content/ko/cur.md": cur(t),
				"content/ja/only-ja.md": "---\ntitle: 日本語だけ\n---\n",
				"content/ko/only-ko.md": "---\ntitle: 한국어만\n---\n",
			}
		},
		args: []string{"translations", "status", "-s", "site"},
		code: 1,
		stdout: "unmarked    site/content/ko/a.md        from site/content/ja/a.md\n" +
			"current     site/content/ko/cur.md      from site/content/ja/cur.md\n" +
			"missing ko  site/content/ko/only-ja.md  from site/content/ja/only-ja.md\n" +
			"missing ja  site/content/ja/only-ko.md  only site/content/ko/only-ko.md\n" +
			"2 translations: 1 current, 0 stale, 1 unmarked; 2 missing\n" +
			"When a translation is up to date with its original: kakehashi translations mark PATH\n",
	}, {
		name: "stale, read by a script",
		files: func(t *testing.T) map[string]string {
			return map[string]string{"content/ja/cur.md": jaCur + "もう一文。\n", "content/ko/cur.md": cur(t)}
		},
		args:   []string{"translations", "status", "--exit-zero", "-s", "site"},
		stdout: "stale since " + time.Now().Format(time.DateOnly) + " (marked 2026-11-02)  site/content/ko/cur.md  from site/content/ja/cur.md\n1 translation: 0 current, 1 stale, 0 unmarked; 0 missing\nWhen a translation is up to date with its original: kakehashi translations mark PATH\n",
	}, {
		name: "a page missing in a language",
		files: func(t *testing.T) map[string]string {
			return map[string]string{"content/ja/cur.md": jaCur, "content/ko/cur.md": cur(t), "content/ja/only-ja.md": "---\ntitle: 日本語だけ\n---\n"}
		},
		args:   []string{"translations", "status", "-s", "site"},
		code:   1,
		stdout: "current     site/content/ko/cur.md      from site/content/ja/cur.md\nmissing ko  site/content/ko/only-ja.md  from site/content/ja/only-ja.md\n1 translation: 1 current, 0 stale, 0 unmarked; 1 missing\n",
	}, {
		name: "all current",
		files: func(t *testing.T) map[string]string {
			return map[string]string{"content/ja/cur.md": jaCur, "content/ko/cur.md": cur(t)}
		},
		args:   []string{"translations", "status", "-s", "site"},
		stdout: "current  site/content/ko/cur.md  from site/content/ja/cur.md\n1 translation: 1 current, 0 stale, 0 unmarked; 0 missing\n",
	}, {
		name: "an error in the site",
		files: func(t *testing.T) map[string]string {
			return map[string]string{"content/ja/a.md": jaA, "content/ko/a.md": "---\ntitle: x\ntranslated: yesterday\n---\n"}
		},
		args: []string{"translations", "status", "-s", "site"},
		code: 1,
		stderr: []string{
			`site/content/ko/a.md:3:13: front matter field "translated": "yesterday" is not a date and a hash: write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)`,
			"kakehashi translations status: 1 error in the site; fix them first",
		},
	}, {
		name:   "no site folder",
		files:  func(*testing.T) map[string]string { return nil },
		args:   []string{"translations", "status", "-s", "nope"},
		code:   2,
		stderr: []string{"kakehashi translations status: site folder nope: no such file or directory"},
	}, {
		name:   "an argument",
		files:  func(*testing.T) map[string]string { return nil },
		args:   []string{"translations", "status", "-s", "site", "content/ko/a.md"},
		code:   2,
		stderr: []string{`kakehashi translations status: unexpected argument "content/ko/a.md"`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			translationsSite(t, tt.files(t))
			code, stdout, stderr := runCLI(tt.args...)
			if code != tt.code || stdout != tt.stdout {
				t.Errorf("exit %d, want %d; stdout\n%s\nwant\n%s\nstderr %s", code, tt.code, stdout, tt.stdout, stderr)
			}
			rest := stderr
			for _, line := range tt.stderr {
				i := strings.Index(rest, line+"\n")
				if i < 0 {
					t.Errorf("stderr %q: no line %q", stderr, line)
					break
				}
				rest = rest[i+len(line):]
			}
			if tt.stderr == nil && stderr != "" {
				t.Errorf("stderr %q", stderr)
			}
		})
	}
}

// TestTranslationsMarkCLI: mark refuses what is not a translation and
// then writes nothing; it marks each translation named once, however it
// is spelled, with today's date, and says which were current already;
// --all marks every translation; a copy of the original that cannot be
// kept is a warning; usage errors exit 2.
func TestTranslationsMarkCLI(t *testing.T) {
	const jaB = "---\ntitle: 二\n---\n二つ目\n"
	translationsSite(t, map[string]string{
		"content/ja/a.md": jaA, "content/ko/a.md": koA,
		"content/ja/b.md": jaB, "content/ko/b.md": "---\ntitle: 둘\n---\n두 번째\n",
	})
	hashA, hashB := hashOf(t, "content/ja/a.md", jaA), hashOf(t, "content/ja/b.md", jaB)
	today := time.Now().Format(time.DateOnly)
	// The day marked, today's, or tomorrow's when the run passed midnight.
	day := func(out string) string {
		if d := time.Now().Format(time.DateOnly); d != today && strings.Contains(out, d) {
			return d
		}
		return today
	}
	steps := []struct {
		args   []string
		code   int
		stdout func(string) string // from the day marked
		stderr string
	}{{
		args: []string{"translations", "mark", "-s", "site", "content/ja/a.md", "content/ko/b.md", "nope.md"},
		code: 1,
		stderr: "kakehashi translations mark: content/ja/a.md is an original (ja is the site's first language), not a translation: mark its translation instead, like: kakehashi translations mark site/content/ko/a.md\n" +
			"kakehashi translations mark: nope.md: no such file, in the current folder or in the site folder site\n" +
			"kakehashi translations mark: nothing was marked\n",
	}, {
		args: []string{"translations", "mark", "-s", "site", "content/ko/a.md", "site/content/ko/a.md"},
		stdout: func(d string) string {
			return "marked site/content/ko/a.md: translated: " + d + " " + hashA + " (from site/content/ja/a.md)\n1 marked, 0 already current\n"
		},
	}, {
		args: []string{"translations", "mark", "-s", "site", "--all"},
		stdout: func(d string) string {
			return "unchanged site/content/ko/a.md: already current (marked " + d + ")\nmarked site/content/ko/b.md: translated: " + d + " " + hashB + " (from site/content/ja/b.md)\n1 marked, 1 already current\n"
		},
	}, {
		args:   []string{"translations", "mark", "-s", "site"},
		code:   2,
		stderr: "kakehashi translations mark: want the translations to mark, like: kakehashi translations mark content/ko/cka/05-ha-cluster.md (or --all)\n",
	}, {
		args:   []string{"translations", "mark", "-s", "site", "--all", "content/ko/a.md"},
		code:   2,
		stderr: "kakehashi translations mark: give paths or --all, not both\n",
	}}
	for _, st := range steps {
		before := map[string]string{}
		for _, p := range []string{"ja/a.md", "ko/a.md", "ja/b.md", "ko/b.md"} {
			b, _ := os.ReadFile(filepath.Join("site", "content", filepath.FromSlash(p)))
			before[p] = string(b)
		}
		code, stdout, stderr := runCLI(st.args...)
		want := ""
		if st.stdout != nil {
			want = st.stdout(day(stdout))
		}
		if code != st.code || stdout != want || stderr != st.stderr {
			t.Errorf("%v: exit %d, want %d\nstdout %q\nwant   %q\nstderr %q\nwant   %q", st.args, code, st.code, stdout, want, stderr, st.stderr)
		}
		if code != 0 {
			for p, text := range before {
				if b, _ := os.ReadFile(filepath.Join("site", "content", filepath.FromSlash(p))); string(b) != text {
					t.Errorf("%v: %s changed", st.args, p)
				}
			}
		}
	}
	if b, _ := os.ReadFile("site/content/ko/a.md"); !strings.Contains(string(b), "\ntranslated: "+day(string(b))+" "+hashA+"\n") {
		t.Errorf("marked translation %q", b)
	}

	// A cache folder that cannot be made: the translation is marked all
	// the same.
	translationsSite(t, map[string]string{"content/ja/a.md": jaA, "content/ko/a.md": koA, ".kakehashi-cache": "a file"})
	code, stdout, stderr := runCLI("translations", "mark", "-s", "site", "--all")
	if code != 0 || !strings.HasPrefix(stderr, "kakehashi translations mark: warning: keeping a copy of site/content/ja/a.md: ") || !strings.HasSuffix(stdout, "1 marked, 0 already current\n") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}
