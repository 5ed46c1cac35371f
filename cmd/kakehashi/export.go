package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/output"
	"github.com/kakehashi-dev/kakehashi/build/sitedir"
)

func runExport(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "export", "kakehashi export [-s DIR] [--out DIR] [--force] [--zip FILE] [--single-file] [--drafts]",
		"Writes a copy of the site that works opened straight from disk (file://), with\nno server and no network: every link names its index.html, search and the\ncalculators included. --zip also packs it into one archive. --single-file\nwrites instead one self-contained HTML per language holding the whole course,\nready to print to PDF.")
	var src, out, zipPath string
	var single, drafts, quiet, force bool
	sourceFlag(fs, &src, "site `folder`")
	fs.StringVar(&out, "out", "", "output `folder` (default: "+export.Dir+"/ in the site folder, "+export.SingleDir+"/ with --single-file)")
	fs.StringVar(&zipPath, "zip", "", "also write the copy as a zip `file`; in the site folder only a .zip name outside the sources and the output folders")
	fs.BoolVar(&single, "single-file", false, fmt.Sprintf("write one self-contained HTML per language (course-ja.html, course-ko.html);\nan image over %d MB stays a link to its file, with a warning", export.MaxInlineImage>>20))
	draftsFlag(fs, &drafts)
	quietFlag(fs, &quiet)
	fs.BoolVar(&force, "force", false, "replace the output folder, or the zip file, even when kakehashi did not write it\n(or wrote the other kind of export there); never the site's sources")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.stderr, "kakehashi export: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	kind := export.KindCopy
	if single {
		kind = export.KindSingleFile
	}
	if out == "" {
		out = export.DefaultOut(src, single)
	}
	if code := checkDest(env, "export", src, out, force); code >= 0 {
		return code
	}
	osFs := afero.NewOsFs()
	if err := export.CheckKind(osFs, out, kind, force); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi export: %v\n", err)
		return 2
	}
	place := export.ZipPlace{Site: sitedir.Dirs(src), Config: build.DefaultLayout().Config, Out: out, Build: build.DefaultLayout().Output, Force: force}
	if zipPath != "" {
		if _, err := export.CheckZip(osFs, zipPath, place); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi export: --zip %v\n", err)
			return 2
		}
	}
	in, err := sitedir.FS(src)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi export: %v\n", err)
		return 2
	}
	b, err := build.New(in, sitedir.WithWasm(build.Options{Drafts: drafts, ExplicitIndex: true}, src))
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi export: %v\n", err)
		return 1
	}
	unlock, code := lockSite(ctx, env, "export", src)
	if code >= 0 {
		return code
	}
	defer unlock()
	res, err := b.Build(ctx)
	if err != nil {
		return reportFailure(env, "export", err, src, out)
	}
	printWarnings(env.stderr, res.Summary.Warnings, src)
	warn := func(msg string) { fmt.Fprintf(env.stderr, "kakehashi export: warning: %s\n", diag.Escape(msg)) }
	site, err := export.Files(export.Course{Site: res.Site, Pages: res.Pages, T: b.T, Warn: warn}, single)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi export: %v\n", err)
		return 1
	}
	if err := output.Publish(ctx, osFs, out, output.WithKind(site, kind)); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi export: writing %s: %v\n%s is unchanged.\n", out, err, out)
		return 1
	}
	if zipPath != "" {
		// Checked again: the build took a while, and a file of someone
		// else's may have appeared there meanwhile.
		target, err := export.CheckZip(osFs, zipPath, place)
		if err != nil {
			fmt.Fprintf(env.stderr, "kakehashi export: --zip %v\nThe export in %s was written; the zip was not.\n", err, out)
			return 2
		}
		if err := export.WriteZip(ctx, osFs, target, filepath.Base(out), site); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi export: writing %s: %v\n%s is unchanged.\n", zipPath, err, zipPath)
			return 1
		}
	}
	if !quiet {
		files, size := site.Size()
		fmt.Fprintf(env.stdout, "kakehashi %s: exported %s (%d files, %s)\n", build.Version, out, files, output.HumanSize(size))
		if single {
			paths := site.Paths()
			sort.Strings(paths)
			for _, p := range paths {
				fmt.Fprintf(env.stdout, "  %s\n", filepath.Join(out, p))
			}
		} else {
			fmt.Fprintf(env.stdout, "  open %s in a browser\n", filepath.Join(out, "index.html"))
		}
		if zipPath != "" {
			fmt.Fprintf(env.stdout, "  zip: %s\n", zipPath)
		}
	}
	return 0
}
