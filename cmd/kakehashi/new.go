package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

const (
	newSynopsis     = "kakehashi new site DIR | kakehashi new part SERIES NUMBER SLUG [-s DIR] [--title-ja T] [--title-ko T]"
	newSiteSynopsis = "kakehashi new site DIR"
	newPartSynopsis = "kakehashi new part SERIES NUMBER SLUG [-s DIR] [--title LANG=TITLE]..."
)

// newKinds are what "kakehashi new" makes.
var newKinds = []string{"site", "part"}

// runNew dispatches "kakehashi new site" and "kakehashi new part".
func runNew(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintf(env.stderr, "Usage:\n  %s\n  %s\n\nScaffolds a new site, or a new part of a series in every language of a site.\nNothing that exists is overwritten. Run \"kakehashi new site -h\" or\n\"kakehashi new part -h\" for their flags.\n", newSiteSynopsis, newPartSynopsis)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "site":
		return runNewSite(ctx, env, args[1:])
	case "part":
		return runNewPart(ctx, env, args[1:])
	}
	fmt.Fprintf(env.stderr, "kakehashi new: unknown kind %q%s (expected site or part)\n", args[0], didYouMean(args[0], newKinds))
	return 2
}

// didYouMean is "; did you mean "x"?" when name is near one of the
// candidates, "" otherwise.
func didYouMean(name string, candidates []string) string {
	if s := diag.Suggest(name, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// parseInterspersed parses flags written anywhere among the positional
// arguments (kakehashi new part cka 3 x -s site) and returns the
// positional ones, or the exit code (>= 0) to stop with. An argument
// like "-3" is positional, so that a negative number is refused as a
// number rather than as a flag.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, int) {
	var pos []string
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			return append(pos, args[1:]...), -1
		case a == "-" || !strings.HasPrefix(a, "-") || isNegativeNumber(a):
			pos = append(pos, a)
			args = args[1:]
			continue
		}
		// Parse the flags up to the next negative number, which the flag
		// package would take for a flag.
		end := len(args)
		for i := 1; i < len(args); i++ {
			if isNegativeNumber(args[i]) {
				end = i
				break
			}
		}
		if code := parse(fs, args[:end]); code >= 0 {
			return nil, code
		}
		rest := fs.Args()
		if n := end - len(rest); n > 0 && args[n-1] == "--" {
			return append(append(pos, rest...), args[end:]...), -1
		}
		args = append(slices.Clone(rest), args[end:]...)
		if len(rest) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	return pos, -1
}

var negativeNumberRe = regexp.MustCompile(`^-[0-9]+$`)

func isNegativeNumber(s string) bool { return negativeNumberRe.MatchString(s) }

// errExists is returned by fileSet.create for a file that is already
// there.
var errExists = errors.New("already exists")

// fileSet writes a set of files all or none: when a write fails, undo
// removes the files and folders it created and puts back the files it
// replaced, so the command can be run again once the cause is mended.
type fileSet struct {
	fs       afero.Fs
	created  []string   // files, in the order written
	dirs     []string   // folders made, parents first
	replaced []original // files replaced, in the order replaced
}

// original is a file's content and permissions before fileSet replaced
// it.
type original struct {
	path string
	data []byte
	mode fs.FileMode
}

// mkdirs makes the folder dir and its missing parents, remembering the
// ones it made.
func (w *fileSet) mkdirs(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := w.fs.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := w.fs.Mkdir(missing[i], 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // made by someone else meanwhile: not ours to remove
			}
			return err
		}
		w.dirs = append(w.dirs, missing[i])
	}
	return nil
}

// create writes a new file, making its folders; it never replaces one
// that exists.
func (w *fileSet) create(path string, data []byte) error {
	if err := w.mkdirs(filepath.Dir(path)); err != nil {
		return err
	}
	f, err := w.fs.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s %w", path, errExists)
	}
	if err != nil {
		return err
	}
	w.created = append(w.created, path)
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replace gives the existing file path the content data through a
// temporary file beside it and a rename, keeping its permissions. was is
// the content it was planned from: a file changed since is left alone.
func (w *fileSet) replace(path string, was, data []byte) error {
	info, err := w.fs.Stat(path)
	if err != nil {
		return err
	}
	cur, err := afero.ReadFile(w.fs, path)
	if err != nil {
		return err
	}
	if !bytes.Equal(cur, was) {
		return fmt.Errorf("%s changed while it was being edited; run the command again", path)
	}
	if err := writeKeepMode(w.fs, path, data, info.Mode().Perm()); err != nil {
		return err
	}
	w.replaced = append(w.replaced, original{path, cur, info.Mode().Perm()})
	return nil
}

// undo takes back everything written so far, after err stopped the
// writing, and returns err saying so, or what could not be taken back.
func (w *fileSet) undo(err error) error {
	var left []string
	for i := len(w.replaced) - 1; i >= 0; i-- {
		o := w.replaced[i]
		if rerr := writeKeepMode(w.fs, o.path, o.data, o.mode); rerr != nil {
			left = append(left, fmt.Sprintf("%s could not be put back as it was (%v)", o.path, rerr))
		}
	}
	for i := len(w.created) - 1; i >= 0; i-- {
		if rerr := w.fs.Remove(w.created[i]); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			left = append(left, fmt.Sprintf("%s could not be removed (%v)", w.created[i], rerr))
		}
	}
	for i := len(w.dirs) - 1; i >= 0; i-- {
		w.fs.Remove(w.dirs[i]) // only when empty: a file put there meanwhile stays
	}
	if len(left) > 0 {
		return fmt.Errorf("%w; undoing what was written: %s", err, strings.Join(left, "; "))
	}
	if errors.Is(err, errExists) {
		return fmt.Errorf("%w; nothing was written", err)
	}
	return fmt.Errorf("%w; what was written so far was removed, nothing changed", err)
}

// writeKeepMode replaces path's content through a temporary file beside
// it, given the permissions mode, and renamed into place: a failure
// leaves the file as it was.
func writeKeepMode(fsys afero.Fs, path string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := afero.TempFile(fsys, filepath.Dir(path), ".kakehashi-new-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			fsys.Remove(name)
		}
	}()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Chmod(name, mode)
	}
	if err == nil {
		err = fsys.Rename(name, path)
	}
	return err
}

// starterFile is one file of the starter site.
type starterFile struct {
	path string // slash-separated, under the site folder
	text string
}

// starterSite is the bilingual starter "kakehashi new site" writes: a
// configuration, a series with part 1 published and part 2 planned, part
// 1 and a home page in Japanese and Korean. date is the pages' date.
func starterSite(date string) []starterFile {
	return []starterFile{
		{"kakehashi.toml", `# The site's configuration. Command-line flags override it.

# The absolute URL the site is published under, used by canonical links,
# hreflang alternates, the sitemap and robots.txt. Set it to your own
# before publishing:
# baseURL = "https://example.org/"

# The site's languages; the first is the original of the translations.
languages = ["ja", "ko"]
theme = "default"

[title]
ja = "私のコース"
ko = "나의 코스"

[description]
ja = "日本語と韓国語で読める技術コースです。"
ko = "일본어와 한국어로 읽을 수 있는 기술 코스입니다."
`},
		{".gitignore", "/public/\n/" + exportDir + "/\n/" + exportSingleDir + "/\n/.kakehashi-cache/\n"},
		{"content/series/course.yaml", `# The series: every part by number, its title in each language, and its
# state: published (its pages exist) or planned (shown as coming soon).
# "kakehashi new part course 2 next-step" publishes part 2.
id: course
title:
  ja: "はじめてのコース"
  ko: "첫 번째 코스"
description:
  ja: "kakehashi で作ったコースの見本です。記事を足して、自分のコースに育ててください。"
  ko: "kakehashi로 만든 코스의 견본입니다. 글을 더해 나만의 코스로 키워 보세요."
parts:
  - number: 1
    title: { ja: "はじめに", ko: "시작하며" }
    state: published
  - number: 2
    title: { ja: "次の一歩", ko: "다음 걸음" }
    state: planned
`},
		{"content/ja/_index.md", `---
title: "私のコース"
description: "日本語と韓国語で読める技術コースです。"
---

ようこそ。このサイトの記事は、すべて日本語と韓国語で読めます。ページ上部の言語切り替えから、同じ記事のもう一方の言語版に移動できます。
`},
		{"content/ko/_index.md", `---
title: "나의 코스"
description: "일본어와 한국어로 읽을 수 있는 기술 코스입니다."
---

환영합니다. 이 사이트의 모든 글은 일본어와 한국어로 읽을 수 있습니다. 페이지 위쪽의 언어 전환에서 같은 글의 다른 언어판으로 이동할 수 있습니다.
`},
		{"content/ja/course/01-intro.md", `---
title: "はじめに"
description: "このコースの進め方と、記事の書き方を紹介します。"
series: course
part: 1
date: ` + date + `
---

このコースへようこそ。この記事は ` + "`content/ja/course/01-intro.md`" + ` にあり、韓国語版は同じパスの ` + "`content/ko/course/01-intro.md`" + ` です。

## 記事を書く

記事は Markdown で書きます。コードブロックはハイライトされ、コマンドだけをコピーするボタンが付きます。

` + "```console\n$ kakehashi serve\n```" + `

次回は #2 で扱います。まだ準備中なので、リンクの代わりに「準備中」の印が表示されます。
`},
		{"content/ko/course/01-intro.md", `---
title: "시작하며"
description: "이 코스의 진행 방식과 글 쓰는 법을 소개합니다."
series: course
part: 1
date: ` + date + `
---

이 코스에 오신 것을 환영합니다. 이 글은 ` + "`content/ko/course/01-intro.md`" + `에 있고, 일본어판은 같은 경로의 ` + "`content/ja/course/01-intro.md`" + `입니다.

## 글 쓰기

글은 Markdown으로 씁니다. 코드 블록은 하이라이트되고, 명령어만 복사하는 버튼이 붙습니다.

` + "```console\n$ kakehashi serve\n```" + `

다음 내용은 #2에서 다룹니다. 아직 준비 중이라 링크 대신 '준비 중' 표시가 나타납니다.
`},
	}
}

func runNewSite(ctx context.Context, env *cliEnv, args []string) int {
	return newSite(ctx, env, afero.NewOsFs(), args)
}

// newSite is "kakehashi new site", writing through fsys.
func newSite(_ context.Context, env *cliEnv, fsys afero.Fs, args []string) int {
	flags := newFlags(env, "new site", newSiteSynopsis,
		"Writes a bilingual starter site into DIR, a new or empty folder: kakehashi.toml,\na series with its first part in Japanese and Korean, and a home page per\nlanguage. It builds as it is.")
	pos, code := parseInterspersed(flags, args)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintf(env.stderr, "kakehashi new site: want one folder, like: kakehashi new site my-course\n")
		return 2
	}
	dir := pos[0]
	if strings.TrimSpace(dir) == "" {
		fmt.Fprintf(env.stderr, "kakehashi new site: the folder name %q is empty; name a new folder, like: kakehashi new site my-course\n", dir)
		return 2
	}
	switch info, err := fsys.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		fmt.Fprintf(env.stderr, "kakehashi new site: %v\n", err)
		return 1
	case !info.IsDir():
		fmt.Fprintf(env.stderr, "kakehashi new site: %s exists and is not a folder\n", dir)
		return 2
	default:
		entries, err := afero.ReadDir(fsys, dir)
		if err != nil {
			fmt.Fprintf(env.stderr, "kakehashi new site: %v\n", err)
			return 1
		}
		if len(entries) > 0 {
			fmt.Fprintf(env.stderr, "kakehashi new site: %s is not empty; choose a new folder or an empty one\n", dir)
			return 2
		}
	}
	date := time.Now().Format(time.DateOnly)
	files := starterSite(date)
	// The Korean pages are translations of the Japanese ones, and up to
	// date with them: the site starts with no stale translation.
	var originals []starterOriginal
	for i, f := range files {
		rest, ok := strings.CutPrefix(f.path, "content/ko/")
		if !ok {
			continue
		}
		for _, o := range files {
			if o.path == "content/ja/"+rest {
				text, orig, err := markStarterPage(o.text, f.text, date)
				if err != nil {
					fmt.Fprintf(env.stderr, "kakehashi new site: %s: %v\n", f.path, err)
					return 1
				}
				files[i].text = text
				originals = append(originals, orig)
			}
		}
	}
	w := &fileSet{fs: fsys}
	for _, f := range files {
		if err := w.create(filepath.Join(dir, filepath.FromSlash(f.path)), []byte(f.text)); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi new site: %v\n", w.undo(err))
			if errors.Is(err, errExists) {
				return 2
			}
			return 1
		}
	}
	saveOriginals(env, fsys, "new site", dir, originals)
	fmt.Fprintf(env.stdout, "kakehashi %s: new site in %s\n", build.Version, dir)
	for _, f := range files {
		fmt.Fprintf(env.stdout, "  %s\n", filepath.Join(dir, filepath.FromSlash(f.path)))
	}
	fmt.Fprintf(env.stdout, "Next:\n  cd %s && kakehashi serve\n  kakehashi new part course 2 next-step    (publishes part 2)\n", shellQuote(dir))
	return 0
}

// starterOriginal is an original a new translation was marked against,
// to keep in the store of marked originals.
type starterOriginal struct {
	hash string
	text []byte
}

// markStarterPage returns the page text tr marked as up to date on date
// with its original, the page text orig.
func markStarterPage(orig, tr, date string) (string, starterOriginal, error) {
	pg, diags := source.ParsePage("", []byte(orig))
	if err := diags.Err(); err != nil || pg == nil {
		return "", starterOriginal{}, fmt.Errorf("its original does not parse: %v", diags)
	}
	h := translation.Hash(pg)
	out, err := translation.Mark([]byte(tr), date, h)
	if err != nil {
		return "", starterOriginal{}, err
	}
	return string(out), starterOriginal{h, []byte(orig)}, nil
}

// saveOriginals keeps the originals new translations were marked against
// in the site's .kakehashi-cache/originals, for the side-by-side view; it
// is a cache, so a failure is only a warning.
func saveOriginals(env *cliEnv, fsys afero.Fs, cmd, site string, originals []starterOriginal) {
	store := translation.Store{Fs: fsys, Dir: filepath.ToSlash(filepath.Join(site, filepath.FromSlash(build.DefaultLayout().Cache), translation.StoreDir))}
	for _, o := range originals {
		if err := store.Save(o.hash, o.text); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi %s: warning: keeping a copy of an original in %s: %v\n", cmd, store.Dir, err)
			return
		}
	}
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_./+=:@", r)))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
