package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/scaffold"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// runNewPart is "kakehashi new part": the part scaffold plans, written on
// the OS's disk.
func runNewPart(ctx context.Context, env *cliEnv, args []string) int {
	flags := newFlags(env, "new part", newPartSynopsis,
		"Adds part NUMBER to the series file content/series/SERIES.yaml, in number order\nand published (a planned part becomes published and keeps its titles), and\nwrites content/<lang>/SERIES/NN-SLUG.md in each language of the site with its\nfront matter filled in. Nothing that exists is overwritten. --title-LANG TITLE\n(--title-ja, --title-ko) is --title LANG=TITLE.")
	var src string
	titles := map[string]string{}
	sourceFlag(flags, &src, "site `folder`")
	flags.Func("title", "the part's title in one language, `LANG=TITLE`, once per language (default: from SLUG)", func(v string) error {
		lang, title, ok := strings.Cut(v, "=")
		switch {
		case !ok || lang == "":
			return fmt.Errorf("want LANG=TITLE, like --title ja=スケジューリング")
		case titles[lang] != "":
			return fmt.Errorf("the title in %s is given twice", lang)
		}
		titles[lang] = title
		return nil
	})
	pos, code := parseInterspersed(flags, titleAliases(args))
	if code >= 0 {
		return code
	}
	if len(pos) != 3 {
		fmt.Fprintf(env.stderr, "kakehashi new part: want SERIES NUMBER SLUG, like: kakehashi new part cka 3 scheduling\n")
		return 2
	}
	n, err := strconv.Atoi(pos[1])
	if err != nil || n < 1 {
		fmt.Fprintf(env.stderr, "kakehashi new part: NUMBER must be a positive whole number, got %q\n", pos[1])
		return 2
	}
	if err := scaffold.CheckSlug(pos[2]); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi new part: SLUG must be one clean name: %v\n", err)
		return 2
	}
	// The site is read through the confined view every command reads it
	// through, and written on the OS's disk.
	fsys := afero.NewOsFs()
	site, err := source.SiteFS(src)
	var plan *scaffold.Plan
	if err == nil {
		plan, err = scaffold.PlanPart(ctx, site, src, scaffold.PartRequest{Series: pos[0], Number: n, Slug: pos[2], Titles: titles})
	}
	if err == nil {
		err = plan.Write(fsys)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi new part: %v\n", err)
		return newExit(err)
	}
	if err := plan.KeepOriginals(fsys); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi new part: warning: %v\n", err)
	}
	verb := "added part #%d to %s"
	if plan.WasPlanned {
		verb = "published the planned part #%d in %s"
	}
	fmt.Fprintf(env.stdout, "kakehashi %s: "+verb+"\n", build.Version, n, plan.Series)
	for _, f := range plan.Files {
		fmt.Fprintf(env.stdout, "  %s\n", f.Path)
	}
	return 0
}

// titleAliases rewrites each --title-LANG TITLE (or --title-LANG=TITLE,
// one dash or two) of args as --title LANG=TITLE, for any language: the
// flags of the first version, --title-ja and --title-ko, still work.
func titleAliases(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		lang, ok := strings.CutPrefix(name, "title-")
		if !strings.HasPrefix(a, "-") || !ok || lang == "" {
			out = append(out, a)
			continue
		}
		if !hasVal && i+1 < len(args) {
			i++
			val, hasVal = args[i], true
		}
		if !hasVal {
			out = append(out, a) // the flag package says what is missing
			continue
		}
		out = append(out, "--title", lang+"="+val)
	}
	return out
}
