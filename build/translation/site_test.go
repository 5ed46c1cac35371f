package translation

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/source"
)

// testLayout is the build's default layout.
var testLayout = Layout{Content: "content", Config: "kakehashi.toml", Cache: ".kakehashi-cache"}

// hashRe is a placeholder of a fixture for the hash of an original:
// "@hash(content/ja/a.md)".
var hashRe = regexp.MustCompile(`@hash\(([^)]+)\)`)

// writeSite writes the txtar archive's files under dir on fsys, each
// "@hash(PATH)" replaced by Hash of the archive's page at PATH.
func writeSite(t *testing.T, fsys afero.Fs, dir, archive string) {
	t.Helper()
	files := map[string][]byte{}
	a := txtar.Parse([]byte(archive))
	for _, f := range a.Files {
		files[f.Name] = f.Data
	}
	for _, f := range a.Files {
		data := hashRe.ReplaceAllFunc(f.Data, func(m []byte) []byte {
			p := string(hashRe.FindSubmatch(m)[1])
			return []byte(Hash(page(t, p, string(files[p]))))
		})
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := fsys.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := afero.WriteFile(fsys, name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// memSite is the archive's site in memory, loaded, and the filesystem it
// is on.
func memSite(t *testing.T, archive string) (*Site, afero.Fs) {
	t.Helper()
	return siteOn(t, "memory", archive, nil)
}

// diskSite writes the archive's site into the folder site of a new
// temporary folder, makes that the current folder, and loads the site.
func diskSite(t *testing.T, archive string) *Site {
	t.Helper()
	s, _ := siteOn(t, "disk", archive, nil)
	return s
}

// siteOn writes the archive's site, and then what extra writes, in
// memory (the site folder ".") or on disk (the folder site of a new
// temporary folder, made the current folder), and loads it as the
// commands do (through source.SiteFS on disk). It returns the site and
// the filesystem that its folder Dir is on.
func siteOn(t *testing.T, where, archive string, extra func(fsys afero.Fs, dir string)) (*Site, afero.Fs) {
	t.Helper()
	fsys, dir := afero.NewMemMapFs(), "."
	if where == "disk" {
		parent := t.TempDir()
		t.Chdir(parent)
		fsys, dir = afero.NewOsFs(), "site"
	}
	writeSite(t, fsys, dir, archive)
	if extra != nil {
		extra(fsys, dir)
	}
	read := fsys
	if where == "disk" {
		var err error
		if read, err = source.SiteFS(dir); err != nil {
			t.Fatal(err)
		}
	}
	s, diags := LoadSite(context.Background(), read, dir, testLayout)
	if s == nil || diags.Err() != nil {
		t.Fatalf("load: %v", diags)
	}
	return s, fsys
}

// reload is s loaded again from fsys, the filesystem its folder is on.
func reload(t *testing.T, s *Site, fsys afero.Fs) *Site {
	t.Helper()
	read := fsys
	if _, ok := fsys.(*afero.OsFs); ok {
		var err error
		if read, err = source.SiteFS(s.Dir); err != nil {
			t.Fatal(err)
		}
	}
	s, diags := LoadSite(context.Background(), read, s.Dir, testLayout)
	if s == nil || diags.Err() != nil {
		t.Fatalf("load: %v", diags)
	}
	return s
}

// TestSiteStatus: every pair of a site is one line in the order of
// Pairs, saying how it stands, where its translation is or would be, and
// its original, or the one page when the original is the page missing;
// a draft alone is no pair; the languages and which comes first are
// build/config's.
func TestSiteStatus(t *testing.T) {
	tests := []struct {
		name, site string
		want       []string // state | path | from, "only" when NoOriginal
		sum        Summary
	}{{
		name: "every state",
		site: `
-- kakehashi.toml --
languages = ["ja", "ko"]
-- content/ja/a.md --
---
title: 題
---
本文
-- content/ko/a.md --
---
title: 제목
---
본문
-- content/ja/cur.md --
---
title: 今
---
本文
-- content/ko/cur.md --
---
title: 지금
translated: 2026-11-02 @hash(content/ja/cur.md)
---
본문
-- content/ja/st.md --
---
title: 古い
lastmod: 2026-11-20
---
書き直した本文
-- content/ko/st.md --
+++
title = "옛"
translated = "2026-11-02 000000000000"
+++
본문
-- content/ja/only-ja.md --
---
title: 日本語だけ
---
-- content/ko/only-ko.md --
---
title: 한국어만
---
-- content/ja/draft.md --
---
title: 下書き
draft: true
---
-- content/ja/tof.md --
---
title: 訳
translationOf: ko
---
-- content/ko/tof.md --
---
title: 원문
---
-- content/ja/b/index.md --
---
title: 束
---
`,
		want: []string{
			"unmarked | content/ja/tof.md | from content/ko/tof.md",
			"unmarked | content/ko/a.md | from content/ja/a.md",
			"missing ko | content/ko/b/index.md | from content/ja/b/index.md",
			"current | content/ko/cur.md | from content/ja/cur.md",
			"missing ko | content/ko/only-ja.md | from content/ja/only-ja.md",
			"missing ja | content/ja/only-ko.md | only content/ko/only-ko.md",
			"stale since 2026-11-20 (marked 2026-11-02) | content/ko/st.md | from content/ja/st.md",
		},
		sum: Summary{Current: 1, Stale: 1, Unmarked: 2, Missing: 3},
	}, {
		name: "languages from the content folders",
		site: `
-- kakehashi.toml --
baseURL = "https://example.org/"
-- content/ko/x.md --
---
title: x
---
-- content/en/x.md --
---
title: x
---
-- content/en/y.md --
---
title: y
---
`,
		want: []string{
			"unmarked | content/ko/x.md | from content/en/x.md",
			"missing ko | content/ko/y.md | from content/en/y.md",
		},
		sum: Summary{Unmarked: 1, Missing: 1},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := memSite(t, tt.site)
			lines, sum := s.Status()
			var got []string
			for _, l := range lines {
				from := "from "
				if l.NoOriginal {
					from = "only "
				}
				got = append(got, l.State+" | "+l.Path+" | "+from+l.From)
				if side := l.Pair.Tr; side != nil && side.Path != l.Path && !l.NoOriginal {
					t.Errorf("%s: the line's pair is %s's", l.Path, side.Path)
				}
				switch {
				case l.Pair.Missing() && l.Status != (PairStatus{}):
					t.Errorf("%s: a line with a side missing has the status %+v", l.Path, l.Status)
				case !l.Pair.Missing() && (l.Status.String() != l.State || l.Status.Original != l.From):
					t.Errorf("%s: the line's status says %q of %s, its state %q", l.Path, l.Status.String(), l.Status.Original, l.State)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if sum != tt.sum {
				t.Errorf("summary %+v, want %+v", sum, tt.sum)
			}
			if n := sum.Translations(); n != len(s.Translations()) {
				t.Errorf("%d translations counted, %d to mark", n, len(s.Translations()))
			}
			for _, p := range s.Translations() {
				if p.Missing() {
					t.Errorf("%s: a pair missing a page to mark", p.Key)
				}
			}
		})
	}
}

// TestLoadSiteErrors: a fault of the configuration, of a front matter's
// translated: or of translationOf is an error at its place, and no site.
func TestLoadSiteErrors(t *testing.T) {
	const ja = "-- content/ja/a.md --\n---\ntitle: 題\n---\n"
	tests := []struct{ name, site, want string }{
		{"bad translated", "-- kakehashi.toml --\nlanguages = [\"ja\", \"ko\"]\n" + ja + "-- content/ko/a.md --\n---\ntitle: x\ntranslated: yesterday\n---\n",
			`content/ko/a.md:3:13: front matter field "translated": "yesterday" is not a date and a hash: write the day it was marked and the original's hash, like 2026-12-01 3f2a1c9e7b0d (kakehashi translations mark writes it)`},
		{"bad translationOf", "-- kakehashi.toml --\nlanguages = [\"ja\", \"ko\"]\n" + ja + "-- content/ko/a.md --\n---\ntitle: x\ntranslationOf: kr\n---\n",
			`content/ko/a.md:3:16: translationOf "kr" is not one of the site's languages (ja, ko): did you mean "ko"?`},
		{"no languages", "-- kakehashi.toml --\nbaseURL = \"https://example.org/\"\n", `kakehashi.toml: the site has no languages: list them in kakehashi.toml (languages = ["ja", "ko"]), or make a folder for each under content/ (content/ja/)`},
		{"bad configuration", "-- kakehashi.toml --\nlanguages = \"ja\"\n" + ja, `kakehashi.toml:1:13: "languages" must be a list of language codes, got string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := afero.NewMemMapFs()
			writeSite(t, fsys, ".", tt.site)
			s, diags := LoadSite(context.Background(), fsys, ".", testLayout)
			if s != nil {
				t.Error("a site with errors loaded")
			}
			errs := diags.Errors()
			if len(errs) != 1 || errs[0].Header() != tt.want {
				t.Errorf("diagnostics %v, want %q", diags, tt.want)
			}
		})
	}
}

func TestShow(t *testing.T) {
	for dir, want := range map[string]string{".": "content/ko/a.md", "": "content/ko/a.md", "../course": filepath.Join("..", "course", "content", "ko", "a.md")} {
		if got := (&Site{Dir: dir}).Show("content/ko/a.md"); got != want {
			t.Errorf("Dir %q: %q, want %q", dir, got, want)
		}
	}
}

const pairSite = `
-- kakehashi.toml --
languages = ["ja", "ko"]
-- content/ja/a.md --
---
title: 題
---
-- content/ko/a.md --
---
title: 제목
---
-- content/ja/tof.md --
---
title: 訳
translationOf: ko
---
-- content/ko/tof.md --
---
title: 원문
---
-- content/ja/only-ja.md --
---
title: 日本語だけ
---
-- content/ko/only-ko.md --
---
title: 한국어만
---
-- content/ja/draft.md --
---
title: 下書き
draft: true
---
-- content/ja/b/index.md --
---
title: 束
---
-- content/ja/b/figure.svg --
<svg xmlns="http://www.w3.org/2000/svg"/>
-- content/ko/b.md --
---
title: 묶음
---
-- ../outside.md --
x
`

// TestPairOf: a path names a translation's file relative to the current
// folder or to the site folder, through symbolic links inside the site;
// anything else is refused, saying why.
func TestPairOf(t *testing.T) {
	s := diskSite(t, pairSite)
	abs, err := filepath.Abs("site/content/ko/a.md")
	if err != nil {
		t.Fatal(err)
	}
	// A link in the site to its translation, and one to a file outside.
	if err := os.Symlink("content/ko/a.md", "site/ko-a.md"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside.md", "site/notes.md"); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ arg, want string }{
		{"content/ko/a.md", "a.md ja→ko"},
		{"site/content/ko/a.md", "a.md ja→ko"},
		{abs, "a.md ja→ko"},
		{"ko-a.md", "a.md ja→ko"},
		{"content/ja/tof.md", "tof.md ko→ja"},
		{"content/ko/b.md", "b.md ja→ko"},
		{"content/ja/a.md", "content/ja/a.md is an original (ja is the site's first language), not a translation: mark its translation instead, like: kakehashi translations mark site/content/ko/a.md"},
		{"content/ja/only-ja.md", "content/ja/only-ja.md is an original (ja is the site's first language), not a translation: mark its translation instead, like: kakehashi translations mark site/content/ko/only-ja.md"},
		{"content/ko/tof.md", "content/ko/tof.md is an original (its translations say translationOf: ko), not a translation: mark its translation instead, like: kakehashi translations mark site/content/ja/tof.md"},
		{"content/ko/only-ko.md", "content/ko/only-ko.md has no original: site/content/ja/only-ko.md does not exist"},
		{"content/ja/draft.md", "content/ja/draft.md has no original in another language to be marked against"},
		{"content/ja/b/figure.svg", "content/ja/b/figure.svg is not a page of the site (a .md file under site/content/<language>/)"},
		{"kakehashi.toml", "kakehashi.toml is not under site/content/: only a translation's page can be marked"},
		{"content/ko/nope.md", "content/ko/nope.md: no such file, in the current folder or in the site folder site"},
		{"outside.md", "outside.md is outside the site folder site: only a translation's page can be marked"},
		{"notes.md", "notes.md is outside the site folder site: only a translation's page can be marked"},
	}
	for _, tt := range tests {
		p, err := s.PairOf(tt.arg)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = p.Key + " " + p.OrigLang + "→" + p.Lang
		}
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.arg, got, tt.want)
		}
	}
}

// TestSelect: the pairs of the paths, each once however it is spelled,
// in the order first named, and every refusal.
func TestSelect(t *testing.T) {
	s := diskSite(t, pairSite)
	pairs, refused := s.Select([]string{"content/ko/b.md", "content/ko/a.md", "site/content/ko/a.md", "content/ja/a.md", "content/ja/tof.md", "nope.md"})
	var got []string
	for _, p := range pairs {
		got = append(got, p.Tr.Path)
	}
	if want := []string{"content/ko/b.md", "content/ko/a.md", "content/ja/tof.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pairs %q, want %q", got, want)
	}
	if len(refused) != 2 || !strings.HasPrefix(refused[0].Error(), "content/ja/a.md is an original") || !strings.HasPrefix(refused[1].Error(), "nope.md: no such file") {
		t.Errorf("refused %v", refused)
	}
}

const markSite = `
-- kakehashi.toml --
languages = ["ja", "ko"]
-- content/ja/a.md --
---
title: 題
---

本文。
-- content/ja/cur.md --
---
title: 今
---
本文
-- content/ko/cur.md --
---
title: 지금
translated: 2026-11-02 @hash(content/ja/cur.md)
---
본문
-- content/ja/st.md --
---
title: 古い
---
書き直した本文
-- content/ko/st.md --
+++
title = "옛"
translated = "2026-11-02 000000000000"

[params]
x = 1
+++
본문
`

// koA is a translation written in another editor: CRLF line ends,
// trailing spaces, a comment, a body that is not normalised.
const koA = "---\r\ntitle: \"제목\"  # 주석\r\ntags: [a, b]\r\n---\r\n\r\n본문.  \r\n\r\n\r\n```\r\n코드\r\n```\r\n"

// kstMorning is a morning in Seoul, the evening before in UTC: the day
// marked is the author's.
var kstMorning = time.Date(2026, 12, 1, 8, 0, 0, 0, time.FixedZone("KST", 9*60*60))

// TestMarkKeepsEveryOtherByte: marking a translation adds its one
// translated: line, or replaces it, and keeps every other byte of the
// file (trailing spaces, CRLF line ends, a body that is not normalised,
// a TOML table), and its mode; a translation current already is left as
// it is; the originals are untouched and their copies in the cache are
// what the hash says; no temporary file is left. On disk and in memory.
func TestMarkKeepsEveryOtherByte(t *testing.T) {
	for _, where := range []string{"disk", "memory"} {
		t.Run(where, func(t *testing.T) {
			// The translation as its author saved it, for their group
			// to read too (not the 0600 of a temporary file).
			s, fsys := siteOn(t, where, markSite, func(fsys afero.Fs, dir string) {
				name := filepath.Join(dir, "content", "ko", "a.md")
				if err := afero.WriteFile(fsys, name, []byte(koA), 0o640); err != nil {
					t.Fatal(err)
				}
				if err := fsys.Chmod(name, 0o640); err != nil {
					t.Fatal(err)
				}
			})
			read := func(p string) string {
				b, err := afero.ReadFile(fsys, s.Show(p))
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			before := map[string]string{}
			for _, p := range []string{"content/ja/a.md", "content/ja/cur.md", "content/ko/cur.md", "content/ja/st.md", "content/ko/st.md"} {
				before[p] = read(p)
			}
			var got []string
			for _, p := range s.Translations() {
				m, err := s.Mark(context.Background(), fsys, p, kstMorning)
				if err != nil || m.CopyErr != nil {
					t.Fatalf("%s: %v, copy %v", p.Key, err, m.CopyErr)
				}
				if m.Status.Hash != Hash(p.Orig) || m.Date != "2026-12-01" {
					t.Errorf("%s: %+v", p.Key, m)
				}
				got = append(got, p.Tr.Path+" "+map[bool]string{false: "marked", true: "unchanged"}[m.Unchanged])
				copy, err := s.store(fsys).Load(m.Status.Hash)
				if err != nil || string(copy.Src) != string(p.Orig.Src) {
					t.Errorf("%s: copy of the original %v", p.Key, err)
				}
			}
			if want := []string{"content/ko/a.md marked", "content/ko/cur.md unchanged", "content/ko/st.md marked"}; !reflect.DeepEqual(got, want) {
				t.Errorf("marked %q, want %q", got, want)
			}
			hash := func(p string) string { return Hash(page(t, p, before[p])) }
			want := map[string]string{
				"content/ko/a.md":  strings.Replace(koA, "tags: [a, b]\r\n", "tags: [a, b]\r\ntranslated: 2026-12-01 "+hash("content/ja/a.md")+"\r\n", 1),
				"content/ko/st.md": strings.Replace(before["content/ko/st.md"], "2026-11-02 000000000000", "2026-12-01 "+hash("content/ja/st.md"), 1),
			}
			for p, text := range before {
				if want[p] == "" {
					want[p] = text
				}
			}
			for p, text := range want {
				if got := read(p); got != text {
					t.Errorf("%s\n%q\nwant\n%q", p, got, text)
				}
			}
			if info, err := fsys.Stat(s.Show("content/ko/a.md")); err != nil || info.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640 (%v)", info.Mode().Perm(), err)
			}
			if entries, _ := afero.ReadDir(fsys, s.Show("content/ko")); len(entries) != 3 {
				t.Errorf("files beside the translations: %v", entries)
			}
			// Marked, every translation is current.
			if _, sum := reload(t, s, fsys).Status(); sum != (Summary{Current: 3}) {
				t.Errorf("after marking: %+v", sum)
			}
		})
	}
}

// failingRename is a filesystem on which no file can be renamed.
type failingRename struct{ afero.Fs }

func (failingRename) Rename(string, string) error { return errors.New("rename refused") }

// failingMkdir is a filesystem on which no folder can be made: the
// site's cache cannot be.
type failingMkdir struct{ afero.Fs }

func (failingMkdir) MkdirAll(string, os.FileMode) error { return errors.New("mkdir refused") }

// TestMarkFailures: a translation that cannot be written is left as it
// was, with no temporary file, and the error names its file; a copy of
// the original that cannot be kept does not keep the translation from
// being marked; a pair without both pages, or marking once interrupted,
// writes nothing.
func TestMarkFailures(t *testing.T) {
	const site = "-- kakehashi.toml --\nlanguages = [\"ja\", \"ko\"]\n-- content/ja/a.md --\n---\ntitle: 題\n---\n-- content/ko/a.md --\n---\ntitle: 제목\n---\n-- content/ja/only.md --\n---\ntitle: 一\n---\n"
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		fs      func(afero.Fs) afero.Fs
		ctx     context.Context
		pair    string // the pair's key
		want    string // the error, "" for none
		copyErr bool
	}{
		{name: "rename fails", fs: func(m afero.Fs) afero.Fs { return failingRename{m} }, pair: "a.md", want: "content/ko/a.md: rename refused", copyErr: true},
		{name: "read-only", fs: afero.NewReadOnlyFs, pair: "a.md", want: "content/ko/a.md: operation not permitted", copyErr: true},
		{name: "no cache", fs: func(m afero.Fs) afero.Fs { return failingMkdir{m} }, pair: "a.md", copyErr: true},
		{name: "missing a page", pair: "only.md", want: "only.md: a pair without both pages cannot be marked"},
		{name: "interrupted", ctx: cancelled, pair: "a.md", want: "content/ko/a.md: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, mem := memSite(t, site)
			fsys := mem
			if tt.fs != nil {
				fsys = tt.fs(mem)
			}
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			var p Pair
			for _, q := range s.Pairs {
				if q.Key == tt.pair {
					p = q
				}
			}
			before, _ := afero.ReadFile(mem, "content/ko/a.md")
			m, err := s.Mark(ctx, fsys, p, kstMorning)
			if got := fmtErr(err); got != tt.want {
				t.Errorf("error %q, want %q", got, tt.want)
			}
			if (m.CopyErr != nil) != tt.copyErr {
				t.Errorf("copy error %v", m.CopyErr)
			}
			after, _ := afero.ReadFile(mem, "content/ko/a.md")
			if marked := strings.Contains(string(after), "translated: 2026-12-01 "); marked != (tt.want == "") || !marked && string(after) != string(before) {
				t.Errorf("translation now %q", after)
			}
			if entries, _ := afero.ReadDir(mem, "content/ko"); len(entries) != 1 {
				t.Errorf("files beside the translation: %v", entries)
			}
		})
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
