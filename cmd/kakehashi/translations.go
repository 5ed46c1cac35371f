package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

const (
	translationsSynopsis       = "kakehashi translations status [-s DIR] | kakehashi translations mark [-s DIR] (PATH... | --all)"
	translationsStatusSynopsis = "kakehashi translations status [-s DIR]"
	translationsMarkSynopsis   = "kakehashi translations mark [-s DIR] (PATH... | --all)"
)

// translationsKinds are the subcommands of "kakehashi translations".
var translationsKinds = []string{"status", "mark"}

// runTranslations dispatches "kakehashi translations status" and
// "kakehashi translations mark".
func runTranslations(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintf(env.stderr, "Usage:\n  %s\n  %s\n\n%s\nRun \"kakehashi translations status -h\" or \"kakehashi translations mark -h\" for\ntheir flags.\n",
			translationsStatusSynopsis, translationsMarkSynopsis, translationsAbout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "status":
		return runTranslationsStatus(ctx, env, args[1:])
	case "mark":
		return runTranslationsMark(ctx, env, args[1:])
	}
	fmt.Fprintf(env.stderr, "kakehashi translations: unknown command %q%s (expected status or mark)\n", args[0], didYouMean(args[0], translationsKinds))
	return 2
}

const translationsAbout = `A translation records in its front matter which version of its original it
was made from ("translated: 2026-12-01 3f2a1c9e7b0d": the day and the hash of
the original's title, description, summary and body). status lists every
pair as current, stale or unmarked, and the pages with no twin; mark records
that translations are up to date with their originals today.`

// siteTranslations is a site's content and its pairs, as the build reads
// them.
type siteTranslations struct {
	src     string // the site folder as given
	langs   []string
	content *source.Content
	pairs   []translation.Pair
}

// show spells a path of the site (content/ko/x.md) from where the
// command was run.
func (s *siteTranslations) show(p string) string {
	if s.src == "." || s.src == "" {
		return p
	}
	return filepath.Join(s.src, filepath.FromSlash(p))
}

// loadTranslations reads the site folder src through the build's loader
// and pairs its pages; it returns -1 to go on, or the exit code.
func loadTranslations(ctx context.Context, env *cliEnv, cmd, src string) (*siteTranslations, int) {
	site, err := siteFs(src)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi %s: %v\n", cmd, err)
		return nil, 2
	}
	langs, diags := siteLangs(ctx, site, build.DefaultLayout().Content)
	s := &siteTranslations{src: src, langs: langs}
	if len(diags.Errors()) == 0 {
		var ldiags diag.List
		s.content, ldiags = source.Load(ctx, site, build.DefaultLayout().Content, langs)
		diags = append(diags, ldiags...)
	}
	if len(diags.Errors()) == 0 {
		var pdiags diag.List
		s.pairs, pdiags = translation.Pairs(s.content, langs)
		diags = append(diags, pdiags...)
	}
	if errs := diags.Errors(); len(errs) > 0 {
		for _, d := range errs.CapPerFile(maxPerFile) {
			fmt.Fprintln(env.stderr, relTo(src, d).String())
		}
		fmt.Fprintf(env.stderr, "kakehashi %s: %d error%s in the site; fix them first\n", cmd, len(errs), plural(len(errs)))
		return nil, 1
	}
	return s, -1
}

// pairLine is one pair as status prints it: its state, the translation's
// path and the original's.
type pairLine struct {
	state, tr, orig string
}

func runTranslationsStatus(ctx context.Context, env *cliEnv, args []string) int {
	flags := newFlags(env, "translations status", translationsStatusSynopsis,
		"Lists every translation of the site with its original: current, \"stale since\nDAY (marked DAY)\" (the original changed since the translation was marked),\nunmarked (no translated: field), or \"missing ko\" (a published page with no\ntwin in that language), and a summary line.")
	var src string
	sourceFlag(flags, &src, siteFolderHelp)
	pos, code := parseInterspersed(flags, args)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(env.stderr, "kakehashi translations status: unexpected argument %q\n", pos[0])
		return 2
	}
	s, code := loadTranslations(ctx, env, "translations status", src)
	if code >= 0 {
		return code
	}
	counts := map[string]int{}
	var lines []pairLine
	for _, p := range s.pairs {
		switch {
		case p.Orig == nil:
			counts["missing"]++
			lines = append(lines, pairLine{"missing " + p.OrigLang, s.show(twinPath(p.Tr, p.OrigLang)), "only " + s.show(p.Tr.Path)})
		case p.Tr == nil:
			counts["missing"]++
			lines = append(lines, pairLine{"missing " + p.Lang, s.show(twinPath(p.Orig, p.Lang)), "from " + s.show(p.Orig.Path)})
		default:
			st := translation.Status(p.Orig, p.Tr)
			counts[st.State.String()]++
			lines = append(lines, pairLine{st.String(), s.show(p.Tr.Path), "from " + s.show(p.Orig.Path)})
		}
	}
	w1, w2 := 0, 0
	for _, l := range lines {
		w1, w2 = max(w1, len(l.state)), max(w2, len(l.tr))
	}
	for _, l := range lines {
		fmt.Fprintf(env.stdout, "%-*s  %-*s  %s\n", w1, l.state, w2, l.tr, l.orig)
	}
	n := len(s.pairs) - counts["missing"]
	fmt.Fprintf(env.stdout, "%d translation%s: %d current, %d stale, %d unmarked; %d missing\n",
		n, plural(n), counts["current"], counts["stale"], counts["unmarked"], counts["missing"])
	if counts["stale"]+counts["unmarked"] > 0 {
		fmt.Fprintf(env.stdout, "When a translation is up to date with its original: kakehashi translations mark PATH\n")
	}
	return 0
}

// twinPath is the path p's page would have in lang.
func twinPath(p *source.Page, lang string) string {
	return strings.TrimSuffix(p.Path, p.Lang+"/"+p.Rel) + lang + "/" + p.Rel
}

// markNow is the day marking records, in the author's time zone.
var markNow = time.Now

func runTranslationsMark(ctx context.Context, env *cliEnv, args []string) int {
	flags := newFlags(env, "translations mark", translationsMarkSynopsis,
		"Records that the translations at PATH (their files, relative to the site folder\nor to the current folder) are up to date with their originals today: writes\n\"translated: DAY HASH\" into each one's front matter, changing nothing else, and\nkeeps a copy of the original in .kakehashi-cache/originals/ for the\nside-by-side view. A path that is not a translation is refused, and then\nnothing is written.")
	var src string
	var all bool
	sourceFlag(flags, &src, siteFolderHelp)
	flags.BoolVar(&all, "all", false, "mark every translation that has its original")
	pos, code := parseInterspersed(flags, args)
	if code >= 0 {
		return code
	}
	switch {
	case all && len(pos) > 0:
		fmt.Fprintf(env.stderr, "kakehashi translations mark: give paths or --all, not both\n")
		return 2
	case !all && len(pos) == 0:
		fmt.Fprintf(env.stderr, "kakehashi translations mark: want the translations to mark, like: kakehashi translations mark content/ko/cka/05-ha-cluster.md (or --all)\n")
		return 2
	}
	s, code := loadTranslations(ctx, env, "translations mark", src)
	if code >= 0 {
		return code
	}
	var todo []translation.Pair
	if all {
		for _, p := range s.pairs {
			if !p.Missing() {
				todo = append(todo, p)
			}
		}
	} else {
		var refused []string
		seen := map[string]bool{}
		for _, arg := range pos {
			p, err := s.pairOf(arg)
			if err != nil {
				refused = append(refused, err.Error())
				continue
			}
			if !seen[p.Tr.Path] {
				seen[p.Tr.Path] = true
				todo = append(todo, p)
			}
		}
		if len(refused) > 0 {
			for _, r := range refused {
				fmt.Fprintf(env.stderr, "kakehashi translations mark: %s\n", r)
			}
			fmt.Fprintf(env.stderr, "kakehashi translations mark: nothing was marked\n")
			return 1
		}
	}
	store := translation.Store{Fs: afero.NewOsFs(), Dir: filepath.ToSlash(filepath.Join(src, filepath.FromSlash(build.DefaultLayout().Cache), translation.StoreDir))}
	date := markNow().Format(time.DateOnly)
	marked, current := 0, 0
	for _, p := range todo {
		st := translation.Status(p.Orig, p.Tr)
		// A copy of the original as marked, for the side-by-side view;
		// the cache is not in the repository, so it may be missing.
		if err := store.Save(st.Hash, p.Orig.Src); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi translations mark: warning: keeping a copy of %s: %v\n", s.show(p.Orig.Path), err)
		}
		if st.State == translation.Current {
			current++
			fmt.Fprintf(env.stdout, "unchanged %s: already current (marked %s)\n", s.show(p.Tr.Path), st.Marked.Date.Format(time.DateOnly))
			continue
		}
		file := s.show(p.Tr.Path)
		if err := markFile(file, date, st.Hash); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi translations mark: %s: %v\n", file, err)
			if marked > 0 {
				fmt.Fprintf(env.stderr, "kakehashi translations mark: %d marked before it\n", marked)
			}
			return 1
		}
		marked++
		fmt.Fprintf(env.stdout, "marked %s: translated: %s %s (from %s)\n", file, date, st.Hash, s.show(p.Orig.Path))
	}
	fmt.Fprintf(env.stdout, "%d marked, %d already current\n", marked, current)
	return 0
}

// pairOf finds the pair whose translation's file is at arg, a path
// relative to the site folder or to the current folder, or says why arg
// cannot be marked.
func (s *siteTranslations) pairOf(arg string) (translation.Pair, error) {
	rel, err := siteRel(s.src, arg)
	if err != nil {
		return translation.Pair{}, err
	}
	content := build.DefaultLayout().Content
	if !strings.HasPrefix(rel, content+"/") {
		return translation.Pair{}, fmt.Errorf("%s is not under %s/: only a translation's page can be marked", arg, s.show(content))
	}
	for _, p := range s.pairs {
		switch {
		case p.Tr != nil && p.Tr.Path == rel:
			if p.Orig == nil {
				return p, fmt.Errorf("%s has no original: %s does not exist", arg, s.show(twinPath(p.Tr, p.OrigLang)))
			}
			return p, nil
		case p.Orig != nil && p.Orig.Path == rel:
			why := fmt.Sprintf("%s is the site's first language", p.OrigLang)
			if p.OrigLang != s.langs[0] {
				why = fmt.Sprintf("its translations say translationOf: %s", p.OrigLang)
			}
			return p, fmt.Errorf("%s is an original (%s), not a translation: mark its translation instead, like: kakehashi translations mark %s", arg, why, s.show(twinPath(p.Orig, p.Lang)))
		}
	}
	for _, p := range s.content.Pages {
		if p.Path == rel {
			// A page no other language shares: a draft alone.
			return translation.Pair{}, fmt.Errorf("%s has no original in another language to be marked against", arg)
		}
	}
	return translation.Pair{}, fmt.Errorf("%s is not a page of the site (a .md file under %s/<language>/)", arg, s.show(content))
}

// siteRel is the slash-separated path in the site folder src of the file
// arg names: relative to the current folder when such a file is in the
// site, else relative to the site folder.
func siteRel(src, arg string) (string, error) {
	root, err := realPath(src)
	if err != nil {
		return "", err
	}
	cands := []string{arg}
	if !filepath.IsAbs(arg) {
		cands = append(cands, filepath.Join(src, arg))
	}
	outside := false
	for _, c := range cands {
		if _, err := os.Stat(c); err != nil {
			continue
		}
		real, err := realPath(c)
		if err != nil {
			return "", err
		}
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			outside = true
			continue
		}
		return filepath.ToSlash(rel), nil
	}
	if outside {
		return "", fmt.Errorf("%s is outside the site folder %s: only a translation's page can be marked", arg, src)
	}
	return "", fmt.Errorf("%s: no such file, in the current folder or in the site folder %s", arg, src)
}

func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// markFile rewrites the translation's file with its translated: field
// saying date and hash.
func markFile(path, date, hash string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := translation.Mark(src, date, hash)
	if err != nil {
		return err
	}
	return writeAtomic(path, out)
}

// writeAtomic replaces the file at path with data: a temporary file in
// the same folder, synced, with path's permissions, renamed over it. A
// failure leaves path as it was.
func writeAtomic(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".kakehashi-mark-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil && !errors.Is(err, fs.ErrPermission) {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // the rename itself, where the system allows it
		d.Close()
	}
	return nil
}

// siteLangs reads the site's configuration and works out its languages
// as the build does (config.Config.Langs): the languages list, else the
// language folders under content.
func siteLangs(ctx context.Context, site afero.Fs, content string) ([]string, diag.List) {
	cfg, diags := config.Load(ctx, site, config.File)
	if len(diags.Errors()) > 0 {
		return nil, diags
	}
	langs, ldiags := cfg.Langs(ctx, site, content)
	return langs, append(diags, ldiags...)
}
