package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/scaffold"
)

const (
	newSynopsis     = "kakehashi new site DIR | kakehashi new part SERIES NUMBER SLUG [-s DIR] [--title LANG=TITLE]..."
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

// runNewSite is "kakehashi new site": the starter site scaffold plans,
// written on the OS's disk.
func runNewSite(ctx context.Context, env *cliEnv, args []string) int {
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
	fsys := afero.NewOsFs()
	plan, err := scaffold.PlanSite(ctx, fsys, dir, scaffold.SiteOptions{Ignore: []string{export.Dir, export.SingleDir}})
	if err == nil {
		err = plan.Write(fsys)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi new site: %v\n", err)
		return newExit(err)
	}
	if err := plan.KeepOriginals(fsys); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi new site: warning: %v\n", err)
	}
	fmt.Fprintf(env.stdout, "kakehashi %s: new site in %s\n", build.Version, dir)
	for _, f := range plan.Files {
		fmt.Fprintf(env.stdout, "  %s\n", f.Path)
	}
	fmt.Fprintf(env.stdout, "Next:\n  cd %s && kakehashi serve\n  kakehashi new part course 2 next-step    (publishes part 2)\n", shellQuote(dir))
	return 0
}

// newExit is the exit status of a failed "kakehashi new": 2 for what the
// author can mend (a refusal, a file in the way), 1 for a failure to read
// or write.
func newExit(err error) int {
	var u scaffold.UsageError
	if errors.As(err, &u) || errors.Is(err, scaffold.ErrExists) {
		return 2
	}
	return 1
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
