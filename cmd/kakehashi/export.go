package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/export"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

func runExport(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "export", "kakehashi export [-s DIR] [--out DIR] [--force] [--zip FILE] [--single-file] [--drafts]",
		"Writes a copy of the site that works opened straight from disk (file://), with\nno server and no network: every link names its index.html, search and the\ncalculators included. --zip also packs it into one archive. --single-file\nwrites instead one self-contained HTML per language holding the whole course,\nready to print to PDF.")
	var src, out, zipPath string
	var single, drafts, quiet, force bool
	sourceFlag(fs, &src, "site `folder`")
	fs.StringVar(&out, "out", "", "output `folder` (default: public-offline/ in the site folder)")
	fs.StringVar(&zipPath, "zip", "", "also write the copy as a zip `file`")
	fs.BoolVar(&single, "single-file", false, "write one self-contained HTML per language (course-ja.html, course-ko.html)")
	draftsFlag(fs, &drafts)
	quietFlag(fs, &quiet)
	fs.BoolVar(&force, "force", false, "replace the output folder even when it holds files kakehashi did not write")
	if code := parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.stderr, "kakehashi export: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if out == "" {
		out = filepath.Join(src, "public-offline")
	}
	if code := checkDest(env, "export", src, out, force); code >= 0 {
		return code
	}
	if zipPath != "" {
		if err := output.CheckFile(afero.NewOsFs(), zipPath, siteDirs(src)); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi export: --zip %v\n", err)
			return 2
		}
	}
	in, err := siteFs(src)
	if err != nil {
		fmt.Fprintf(env.stderr, "kakehashi export: %v\n", err)
		return 2
	}
	b, err := build.New(in, withWasm(build.Options{Drafts: drafts, ExplicitIndex: true}, src))
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
	site := export.Site(res.Site)
	if single {
		docs, err := export.SingleFile(export.Course{Site: res.Site, Pages: res.Pages, T: b.T})
		if err != nil {
			fmt.Fprintf(env.stderr, "kakehashi export: %v\n", err)
			return 1
		}
		site = output.New()
		for lang, doc := range docs {
			site.Put("course-"+lang+".html", doc)
		}
	}
	if err := output.Publish(ctx, afero.NewOsFs(), out, site); err != nil {
		fmt.Fprintf(env.stderr, "kakehashi export: writing %s: %v\n%s is unchanged.\n", out, err, out)
		return 1
	}
	if zipPath != "" {
		var buf bytes.Buffer
		if err := export.Zip(ctx, &buf, filepath.Base(out), site); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi export: %v\n", err)
			return 1
		}
		if err := writeFileAtomic(zipPath, buf.Bytes()); err != nil {
			fmt.Fprintf(env.stderr, "kakehashi export: writing %s: %v\n", zipPath, err)
			return 1
		}
	}
	if !quiet {
		files, size := site.Size()
		fmt.Fprintf(env.stdout, "kakehashi %s: exported %s (%d files, %s)\n", build.Version, out, files, humanBytes(size))
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

// writeFileAtomic writes through a temporary file beside path and renames
// it into place, so a failed write leaves the old file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".kakehashi-zip-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
