package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/check"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/sitedir"
	"github.com/kakehashi-dev/kakehashi/build/source"
	"github.com/kakehashi-dev/kakehashi/build/timing"
)

const usage = `kakehashi builds a course site in several languages (Japanese and Korean
by default).

Usage:
  kakehashi <command> [flags]

Commands:
  build     render content/ into public/
  check     check the content for CI: links, translations, strings (nothing written)
  export    write a copy that works from file://, or one HTML per language
  import    convert a Hugo site into a new site: kakehashi import hugo SRC DEST
  new       start a site, or add a part to a series: kakehashi new site DIR
  render    print the HTML of one markdown document
  serve     serve the site with live reload while you write (also: server)
  translations  list translations behind their originals, or mark them up to date
  version   print the version and the commit it was built from
  help      print this help, or a command's: kakehashi help build

Run "kakehashi <command> -h" for a command's flags.
`

// command is one subcommand.
type command struct {
	name, synopsis string
	run            func(ctx context.Context, env *cliEnv, args []string) int
}

// cliEnv is what a command talks to.
type cliEnv struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func commands() []command {
	return []command{
		{"build", "kakehashi build [-s DIR] [-d DIR] [--force] [--base-url URL] [--drafts] [--strict]", runBuild},
		{"render", renderSynopsis, runRender},
		{"export", "kakehashi export [-s DIR] [--out DIR] [--force] [--zip FILE] [--single-file]", runExport},
		{"serve", serveSynopsis, runServe},
		{"new", newSynopsis, runNew},
		{"translations", translationsSynopsis, runTranslations},
		{"check", checkSynopsis, runCheck},
		{"import", importSynopsis, runImport},
		{"version", "kakehashi version", runVersion},
	}
}

// commandName is the command an alias stands for, or name itself.
func commandName(name string) string {
	switch name {
	case "server": // Hugo's name for it
		return "serve"
	case "-v", "--version":
		return "version"
	}
	return name
}

// commandNames are the commands and aliases, for "did you mean".
func commandNames() []string {
	names := []string{"help", "server"}
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &cliEnv{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "--help", "-help":
		if len(args) > 1 {
			for _, c := range commands() {
				if c.name == commandName(args[1]) {
					return c.run(ctx, env, []string{"-h"})
				}
			}
			fmt.Fprintf(stderr, "kakehashi help: unknown command %q%s\n", args[1], didYouMean(args[1], commandNames()))
			return 2
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	name = commandName(name)
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, env, args[1:])
		}
	}
	if hint := didYouMean(name, commandNames()); hint != "" {
		fmt.Fprintf(stderr, "kakehashi: unknown command %q%s\nRun \"kakehashi help\" for the commands.\n", name, hint)
		return 2
	}
	fmt.Fprintf(stderr, "kakehashi: unknown command %q\n\n%s", name, usage)
	return 2
}

// newFlags makes a flag set that prints the command's synopsis on -h.
func newFlags(env *cliEnv, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\n%s\n\nFlags:\n", synopsis, about)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags; it returns -1 to go on, or the exit code. An
// unknown flag is one line with the nearest known flag, not the whole
// usage.
func parse(fs *flag.FlagSet, args []string) int {
	out := fs.Output()
	var msg strings.Builder
	fs.SetOutput(&msg)
	err := fs.Parse(args)
	fs.SetOutput(out)
	const undefined = "flag provided but not defined: -"
	switch {
	case err == nil:
		return -1
	case errors.Is(err, flag.ErrHelp):
		io.WriteString(out, msg.String())
		return 0
	case strings.HasPrefix(err.Error(), undefined):
		name := strings.TrimPrefix(err.Error(), undefined)
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		hint := ""
		if s := diag.Suggest(name, names); s != "" {
			hint = "; did you mean " + flagName(s) + "?"
		}
		fmt.Fprintf(out, "kakehashi %s: unknown flag %s%s\nRun \"kakehashi %s -h\" for its flags.\n", fs.Name(), flagName(name), hint, fs.Name())
		return 2
	}
	io.WriteString(out, msg.String())
	return 2
}

// flagName spells a flag as the help does: -s, --base-url.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func runBuild(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "build", "kakehashi build [-s DIR] [-d DIR] [--force] [--base-url URL] [--drafts] [--strict]",
		"Renders the site into the destination folder. The new site replaces the old one\nonly when the whole build succeeded.")
	var src, dest, baseURL string
	var drafts, quiet bool
	sourceFlag(fs, &src, siteFolderHelp)
	fs.StringVar(&dest, "d", "", "destination `folder` (default: public/ in the site folder)")
	fs.StringVar(&dest, "dest", "", "same as -d")
	baseURLFlag(fs, &baseURL)
	draftsFlag(fs, &drafts)
	quietFlag(fs, &quiet)
	var noCache, force, strict, timings bool
	fs.BoolVar(&strict, "strict", false, "fail on warnings too, leaving the destination as it was")
	fs.BoolVar(&timings, "timings", false, "print the time of each stage, each template and the slowest pages (also with -q)")
	fs.BoolVar(&noCache, "no-cache", false, "build everything afresh, ignoring the cache in .kakehashi-cache/")
	fs.BoolVar(&force, "force", false, "replace the destination even when it holds files kakehashi did not write")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.stderr, "kakehashi build: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if baseURL != "" {
		if err := config.CheckBaseURL(baseURL); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi build: --base-url %v\n", err)
			return 2
		}
	}
	if dest == "" {
		dest = sitedir.DefaultDest(src)
	}
	if code := checkDest(env, "build", src, dest, force); code >= 0 {
		return code
	}
	// A build's site has no kind of its own: an export's folder is not
	// replaced by one unasked.
	if err := export.CheckKind(afero.NewOsFs(), dest, "", force); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi build: %v\n", err)
		return 2
	}
	opts := sitedir.WithCache(sitedir.WithWasm(build.Options{BaseURL: baseURL, Drafts: drafts, SkipUnchanged: true}, src), src, noCache)
	prog := timing.NewProgress(env.stderr, quiet)
	opts.Progress = prog.Update
	if timings {
		opts.Timings = timing.New(nil)
	}
	in, err := sitedir.FS(src)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi build: %v\n", err)
		return 2
	}
	b, err := build.New(in, opts)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi build: %v\n", err)
		return 1
	}
	sitedir.LimitMemory(src)
	// One build of the site at a time, from its staging folder to the
	// cache saved after the commit.
	unlock, code := lockSite(ctx, env, "build", src)
	if code >= 0 {
		return code
	}
	defer unlock()
	res, err := sitedir.Build(ctx, b, dest, strict, opts.Timings)
	prog.Clear()
	var strictErr *sitedir.StrictError
	var commitErr *sitedir.CommitError
	switch {
	case errors.As(err, &strictErr):
		n := len(strictErr.Warnings)
		printWarnings(env.stderr, strictErr.Warnings, src)
		fmt.Fprintf(env.stderr, "kakehashi build: %d warning%s with --strict; %s was left as it was\n", n, plural(n), dest)
		return 1
	case errors.As(err, &commitErr):
		fmt.Fprintf(env.stderr, "kakehashi build: writing %s: %v\n%s is unchanged.\n", dest, commitErr.Err, dest)
		return 1
	case err != nil:
		return reportFailure(env, "build", err, src, dest)
	}
	printWarnings(env.stderr, res.Summary.Warnings, src)
	if !quiet {
		fmt.Fprintf(env.stdout, "kakehashi %s: built %s\n%s\n", build.Version, dest, summaryText(res.Summary))
		switch {
		case res.Unchanged:
			fmt.Fprintf(env.stdout, "  nothing changed since the last build: %s is up to date\n", dest)
		case res.Reused > 0:
			fmt.Fprintf(env.stdout, "  unchanged: %d files kept from the previous build (cache in .kakehashi-cache/)\n", res.Reused)
		}
	}
	if timings {
		fmt.Fprintln(env.stdout)
		opts.Timings.Report().Write(env.stdout, res.Summary.Elapsed, slowestPages)
	}
	return 0
}

// slowestPages is how many pages build --timings lists.
const slowestPages = 10

// reportFailure prints every error and warning the build found, as check
// does (sorted by file and position, at most maxPerFile of a file), and
// says the output is untouched.
func reportFailure(env *cliEnv, cmd string, err error, src, dest string) int {
	diags, err := check.Found(nil, err)
	if err != nil {
		// Not a fault of the input (an interrupted build, a full disk):
		// there is no file to name.
		fmt.Fprintf(env.stderr, "kakehashi %s: %s", cmd, diag.Escape(err.Error()))
		if dest != "" {
			fmt.Fprintf(env.stderr, "; %s was left as it was", dest)
		}
		fmt.Fprintln(env.stderr)
		return 1
	}
	for _, d := range diags.CapPerFile(maxPerFile) {
		fmt.Fprintln(env.stderr, d.In(src).String())
	}
	n, w := len(diags.Errors()), len(diags.Warnings())
	fmt.Fprintf(env.stderr, "kakehashi %s: %d error%s", cmd, n, plural(n))
	if w > 0 {
		fmt.Fprintf(env.stderr, ", %d warning%s", w, plural(w))
	}
	if dest != "" {
		fmt.Fprintf(env.stderr, "; %s was left as it was", dest)
	}
	fmt.Fprintln(env.stderr)
	return 1
}

// maxPerFile is how many diagnostics of one file are printed; the rest
// are counted ("and N more in this file").
const maxPerFile = 20

// printWarnings prints the warnings of a build, sorted by file and
// position, at most maxPerFile of a file.
func printWarnings(w io.Writer, ws diag.List, src string) {
	ws = slices.Clone(ws)
	ws.Sort()
	kept, dropped := ws.CapPerFile(maxPerFile).CapPerCode(maxPerCode)
	for _, d := range kept {
		fmt.Fprintln(w, d.In(src).String())
	}
	for _, code := range slices.Sorted(maps.Keys(dropped)) {
		n := dropped[code]
		fmt.Fprintf(w, "... and %d more warning%s of this kind (%s); kakehashi check lists every one\n", n, plural(n), code)
	}
}

// maxPerCode is how many warnings of one kind (their code) a build
// prints; the rest are counted. A course whose thousand translations are
// not marked yet would otherwise print a thousand lines on every build.
const maxPerCode = 10

// checkDest refuses a destination folder that would take the place of the
// site's own files (exit 2); it returns -1 to go on.
func checkDest(env *cliEnv, cmd, src, dest string, force bool) int {
	err := sitedir.CheckDest(src, dest, force)
	if err == nil {
		return -1
	}
	fmt.Fprintf(env.stderr, "kakehashi %s: %v\n", cmd, err)
	return 2
}

// lockSite waits for any other build of the site to finish and holds the
// site's lock (.kakehashi-cache/lock) until unlock. A site folder where
// the lock cannot be made (read-only) is built without it, with a
// warning. It returns -1 to go on, or the exit code.
func lockSite(ctx context.Context, env *cliEnv, cmd, src string) (unlock func(), code int) {
	path := sitedir.LockPath(src)
	unlock, err := sitedir.Lock(ctx, src, func(pid int) {
		if pid > 0 {
			fmt.Fprintf(env.stderr, "kakehashi %s: waiting for the build with PID %d to finish (lock %s)\n", cmd, pid, path)
		} else {
			fmt.Fprintf(env.stderr, "kakehashi %s: waiting for another build to finish (lock %s)\n", cmd, path)
		}
	})
	switch {
	case err == nil:
		return unlock, -1
	case ctx.Err() != nil:
		fmt.Fprintf(env.stderr, "kakehashi %s: interrupted while waiting for the lock %s\n", cmd, path)
		return nil, 1
	}
	fmt.Fprintf(env.stderr, "kakehashi %s: warning: building without the lock %s: %v\n", cmd, path, err)
	return func() {}, -1
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// renderSynopsis is kakehashi render's usage line.
const renderSynopsis = "kakehashi render [FILE|-] [--lang LANG] [-s DIR]"

func runRender(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "render", renderSynopsis,
		"Prints the HTML fragment of one markdown document (front matter, markdown,\ncode blocks, #N links) as a build renders it. FILE \"-\" or none reads stdin.")
	var lang, src string
	fs.StringVar(&lang, "lang", "", "language of the document, one of the site's `LANG` (default: from its content/<lang>/ folder, else the site's first)")
	sourceFlag(fs, &src, "site `folder`, for series links and UI strings")
	// Accept flags after the file name too: kakehashi render a.md --lang ko.
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") || len(args) > 0 && args[0] == "-" {
		file, args = args[0], args[1:]
	}
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if file == "" && fs.NArg() > 0 {
		file = fs.Arg(0)
	}
	// The document is read as a build reads a content file: a regular
	// file only, of at most source.MaxFileSize bytes.
	name := file
	if file == "" || file == "-" {
		name = "<stdin>"
	}
	data, err := source.ReadDocument(ctx, env.stdin, file)
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(env.stderr, "kakehashi render: interrupted while reading %s\n", name)
		return 1
	case err != nil:
		fmt.Fprintf(env.stderr, "kakehashi render: %s: %v\n", name, err)
		return 1
	}
	in, err := sitedir.FS(src)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi render: %v\n", err)
		return 2
	}
	b, err := build.New(in, build.Options{})
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi render: %v\n", err)
		return 1
	}
	langs, err := b.Langs(ctx)
	if err != nil {
		for _, d := range diag.FromError(err) {
			fmt.Fprintln(env.stderr, d.In(src).String())
		}
		return 1
	}
	if lang == "" {
		lang = config.LangFromPath(file, langs)
	}
	if lang != "" && !slices.Contains(langs, lang) {
		fmt.Fprintf(env.stderr, "kakehashi render: --lang must be one of the site's languages (%s), got %q\n", strings.Join(langs, ", "), lang)
		return 2
	}
	html, diags := b.RenderDoc(ctx, name, data, lang)
	for _, d := range diags {
		fmt.Fprintln(env.stderr, d.String())
	}
	if len(diags.Errors()) > 0 {
		return 1
	}
	env.stdout.Write(html)
	return 0
}
