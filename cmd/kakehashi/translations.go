package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/sitedir"
	"github.com/kakehashi-dev/kakehashi/build/translation"
)

const (
	translationsSynopsis       = "kakehashi translations status [-s DIR] [--exit-zero] | kakehashi translations mark [-s DIR] (PATH... | --all)"
	translationsStatusSynopsis = "kakehashi translations status [-s DIR] [--exit-zero]"
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

// loadTranslations reads the site folder src and pairs its pages
// (translation.LoadSite); it returns -1 to go on, or the exit code.
func loadTranslations(ctx context.Context, env *cliEnv, cmd, src string) (*translation.Site, int) {
	fsys, err := sitedir.FS(src)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi %s: %v\n", cmd, err)
		return nil, 2
	}
	l := build.DefaultLayout()
	s, diags := translation.LoadSite(ctx, fsys, src, translation.Layout{Content: l.Content, Config: l.Config, Cache: l.Cache})
	if errs := diags.Errors(); len(errs) > 0 {
		for _, d := range errs.CapPerFile(maxPerFile) {
			fmt.Fprintln(env.stderr, d.In(src).String())
		}
		fmt.Fprintf(env.stderr, "kakehashi %s: %d error%s in the site; fix them first\n", cmd, len(errs), plural(len(errs)))
		return nil, 1
	}
	return s, -1
}

func runTranslationsStatus(ctx context.Context, env *cliEnv, args []string) int {
	flags := newFlags(env, "translations status", translationsStatusSynopsis,
		"Lists every translation of the site with its original: current, \"stale since\nDAY (marked DAY)\" (the original changed since the translation was marked),\nunmarked (no translated: field), or \"missing ko\" (a published page with no\ntwin in that language), and a summary line.\n\n"+
			"Exits 1 when a translation is stale or unmarked or a page is missing in a\nlanguage, so that a CI job can wait for the translators; --exit-zero keeps 0\nfor scripts that only read the list.")
	var src string
	var exitZero bool
	sourceFlag(flags, &src, siteFolderHelp)
	flags.BoolVar(&exitZero, "exit-zero", false, "exit 0 even when translations are stale, unmarked or missing")
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
	lines, sum := s.Status()
	cols := make([][3]string, len(lines))
	w1, w2 := 0, 0
	for i, l := range lines {
		from := "from "
		if l.NoOriginal {
			from = "only "
		}
		cols[i] = [3]string{l.State, s.Show(l.Path), from + s.Show(l.From)}
		w1, w2 = max(w1, len(cols[i][0])), max(w2, len(cols[i][1]))
	}
	for _, c := range cols {
		fmt.Fprintf(env.stdout, "%-*s  %-*s  %s\n", w1, c[0], w2, c[1], c[2])
	}
	n := sum.Translations()
	fmt.Fprintf(env.stdout, "%d translation%s: %d current, %d stale, %d unmarked; %d missing\n",
		n, plural(n), sum.Current, sum.Stale, sum.Unmarked, sum.Missing)
	if sum.Stale+sum.Unmarked > 0 {
		fmt.Fprintf(env.stdout, "When a translation is up to date with its original: kakehashi translations mark PATH\n")
	}
	if sum.Stale+sum.Unmarked+sum.Missing > 0 && !exitZero {
		return 1
	}
	return 0
}

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
		todo = s.Translations()
	} else {
		var refused []error
		todo, refused = s.Select(pos)
		if len(refused) > 0 {
			for _, err := range refused {
				fmt.Fprintf(env.stderr, "kakehashi translations mark: %v\n", err)
			}
			fmt.Fprintf(env.stderr, "kakehashi translations mark: nothing was marked\n")
			return 1
		}
	}
	disk, now := afero.NewOsFs(), time.Now()
	marked, current := 0, 0
	for _, p := range todo {
		m, err := s.Mark(ctx, disk, p, now)
		if m.CopyErr != nil {
			fmt.Fprintf(env.stderr, "kakehashi translations mark: warning: keeping a copy of %s: %v\n", s.Show(p.Orig.Path), m.CopyErr)
		}
		if err != nil {
			fmt.Fprintf(env.stderr, "kakehashi translations mark: %v\n", err)
			if marked > 0 {
				fmt.Fprintf(env.stderr, "kakehashi translations mark: %d marked before it\n", marked)
			}
			return 1
		}
		if m.Unchanged {
			current++
			fmt.Fprintf(env.stdout, "unchanged %s: already current (marked %s)\n", s.Show(p.Tr.Path), m.Status.Marked.Date.Format(time.DateOnly))
			continue
		}
		marked++
		fmt.Fprintf(env.stdout, "marked %s: translated: %s %s (from %s)\n", s.Show(p.Tr.Path), m.Date, m.Status.Hash, s.Show(p.Orig.Path))
	}
	fmt.Fprintf(env.stdout, "%d marked, %d already current\n", marked, current)
	return 0
}
