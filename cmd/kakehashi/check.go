package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/sitedir"
)

const checkSynopsis = "kakehashi check [-s DIR] [--strict] [--format text|json|github] [--drafts]"

// checkFormats are the output forms of kakehashi check.
var checkFormats = []string{"text", "json", "github"}

// runCheck is the content gate for CI: the whole pipeline in memory,
// nothing written, then the checks of the site as a reader meets it.
// Exit 0 when clean, 1 on errors (and, with --strict, warnings), 2 on
// usage errors.
func runCheck(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "check", checkSynopsis,
		"Checks the site without writing anything, and reports in one run every error\n"+
			"and warning a build finds, sorted by file and line: the configuration, the UI\n"+
			"strings, each page (front matter, shortcodes, images, parts), then links and\n"+
			"sections in every language, missing, stale and unmarked translations, twins\n"+
			"whose code or headings differ, the glossary's terms and unused UI strings.")
	var src, format string
	var strict, drafts bool
	sourceFlag(fs, &src, siteFolderHelp)
	fs.BoolVar(&strict, "strict", false, "fail on warnings too")
	fs.StringVar(&format, "format", "text", "output `form`: text, json, or github (workflow annotations)")
	draftsFlag(fs, &drafts)
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.stderr, "kakehashi check: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if !slices.Contains(checkFormats, format) {
		msg := fmt.Sprintf("kakehashi check: unknown --format %q: text, json or github", format)
		if s := diag.Suggest(format, checkFormats); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		fmt.Fprintln(env.stderr, msg)
		return 2
	}
	in, err := sitedir.FS(src)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi check: %s\n", diag.Escape(err.Error()))
		return 2
	}
	b, err := build.New(in, build.Options{Drafts: drafts, LazySearch: true})
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi check: %s\n", diag.Escape(err.Error()))
		return 1
	}
	diags, err := b.Check(ctx)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi check: %s\n", diag.Escape(err.Error()))
		return 1
	}
	for i, d := range diags {
		d = d.In(src)
		if d.Code == "" {
			d.Code = "build"
		}
		diags[i] = d
	}
	errs, warns := len(diags.Errors()), len(diags.Warnings())
	switch format {
	case "json":
		diags.WriteJSON(env.stdout)
	case "github":
		diags.WriteGitHub(env.stdout)
	default:
		for _, d := range diags.CapPerFile(maxPerFile) {
			if d.Severity == diag.Error && d.Line > 0 || d.Severity == diag.Error && d.Path != "" {
				d.Msg = "error: " + d.Msg // path:line:col: error|warning: message
			}
			fmt.Fprintln(env.stdout, d.String())
		}
	}
	if format != "json" {
		fmt.Fprintln(env.stderr, checkSummary(errs, warns, strict))
	}
	if errs > 0 || (strict && warns > 0) {
		return 1
	}
	return 0
}

// checkSummary is the last line: what was found and what it means.
func checkSummary(errs, warns int, strict bool) string {
	if errs == 0 && warns == 0 {
		return "kakehashi check: no problems"
	}
	s := fmt.Sprintf("kakehashi check: %d error%s, %d warning%s", errs, plural(errs), warns, plural(warns))
	if errs == 0 && !strict {
		s += " (warnings pass; --strict fails on them)"
	}
	return s
}
