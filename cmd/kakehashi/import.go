package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/hugoimport"
)

const importSynopsis = "kakehashi import hugo SRC DEST"

// runImport is "kakehashi import hugo SRC DEST": it converts the Hugo
// site in SRC into a kakehashi site in DEST and prints the report.
func runImport(ctx context.Context, env *cliEnv, args []string) int {
	flags := newFlags(env, "import", importSynopsis,
		"Converts the Hugo site in SRC (its configuration, pages in every language,\npage bundles, static/, layouts/shortcodes/ and i18n/) into a kakehashi site\nin DEST, a new or empty folder, and prints what was converted, approximated\nand not converted, each at its file:line:col in SRC. SRC is never written;\nDEST is written whole or not at all. A section whose pages have weights (or\ndates) becomes a series; each page's Hugo URL is kept as an alias.")
	if code := parse(flags, args); code >= 0 {
		return code
	}
	pos := flags.Args()
	if len(pos) == 0 || pos[0] != "hugo" {
		if len(pos) > 0 {
			fmt.Fprintf(env.stderr, "kakehashi import: unknown kind %q%s (kakehashi imports hugo sites)\n", pos[0], didYouMean(pos[0], []string{"hugo"}))
		} else {
			fmt.Fprintf(env.stderr, "Usage: %s\n", importSynopsis)
		}
		return 2
	}
	if len(pos) != 3 {
		fmt.Fprintf(env.stderr, "kakehashi import hugo: want the Hugo site's folder and a new folder, like: %s\n", "kakehashi import hugo my-hugo-site my-course")
		return 2
	}
	src, dest := pos[1], pos[2]
	report, err := hugoimport.Import(ctx, src, dest)
	var usage *hugoimport.UsageError
	var diags diag.List
	switch {
	case errors.Is(err, hugoimport.ErrNotEmpty), errors.As(err, &usage):
		fmt.Fprintf(env.stderr, "kakehashi import hugo: %v\n", err)
		return 2
	case errors.As(err, &diags):
		fmt.Fprintln(env.stderr, diags.Error())
		fmt.Fprintf(env.stderr, "kakehashi import hugo: %s of %s cannot be read; nothing was written\n", filesCount(diags), src)
		return 1
	case err != nil:
		fmt.Fprintf(env.stderr, "kakehashi import hugo: %v; nothing was written\n", err)
		return 1
	}
	fmt.Fprintf(env.stdout, "kakehashi import hugo: %s → %s\n", src, dest)
	if err := report.Write(env.stdout); err != nil {
		return 1
	}
	if !report.Built {
		fmt.Fprintf(env.stderr, "kakehashi import hugo: the site is in %s, but kakehashi build fails on it: mend the errors above\n", dest)
		return 1
	}
	return 0
}

// filesCount is "1 file" or "n files": how many files the diagnostics
// are about.
func filesCount(diags diag.List) string {
	files := map[string]bool{}
	for _, d := range diags {
		files[d.Path] = true
	}
	if len(files) == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", len(files))
}
