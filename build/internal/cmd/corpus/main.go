// Command corpus writes a site generated from the bundled CKA course
// (package build/internal/corpus): N parts per language, as a kakehashi
// site or as the equivalent Hugo site. It makes the corpus of make bench
// (the Hugo site with -hugo) and the scaled sites of make search-bench.
// Run it from the repository root:
//
//	go run ./build/internal/cmd/corpus [-src DIR] [-n N] [-hugo] DEST
//
// DEST must not exist yet, or be an empty folder, so that no file of an
// earlier corpus is left among the new one's.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

const usage = "Usage: go run ./build/internal/cmd/corpus [-src DIR] [-n N] [-hugo] DEST\n\n" +
	"Writes a site of N generated parts per language into DEST, which must not\n" +
	"exist yet or be an empty folder.\n\nFlags:\n"

func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	src := fs.String("src", ".", "repository `folder` whose content/, themes/ and i18n/ the parts are made from")
	n := fs.Int("n", 100, "parts per language")
	hugo := fs.Bool("hugo", false, "write the equivalent Hugo site instead of a kakehashi site")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if *n < 1 {
		fmt.Fprintf(stderr, "corpus: -n %d: want at least 1 part per language\n", *n)
		return 2
	}
	dest := fs.Arg(0)
	if err := emptyOrAbsent(dest); err != nil {
		return fail(stderr, err)
	}
	c, err := corpus.LoadDir(ctx, *src)
	if err != nil {
		return fail(stderr, err)
	}
	if *hugo {
		err = c.GenerateHugo(ctx, afero.NewOsFs(), filepath.ToSlash(dest), *n)
	} else {
		err = c.Generate(ctx, afero.NewOsFs(), filepath.ToSlash(dest), *n)
	}
	if err != nil {
		return fail(stderr, err)
	}
	return 0
}

// fail prints err once prefixed with "corpus: " (the package's own errors
// already are) and returns the exit status of a failed run.
func fail(stderr io.Writer, err error) int {
	msg := err.Error()
	if !strings.HasPrefix(msg, "corpus: ") {
		msg = "corpus: " + msg
	}
	fmt.Fprintln(stderr, msg)
	return 1
}

// emptyOrAbsent refuses a dest that is a file or a folder with anything in it.
func emptyOrAbsent(dest string) error {
	entries, err := os.ReadDir(dest)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: not an empty folder (%v)", dest, err)
	case len(entries) > 0:
		return fmt.Errorf("%s already holds files; remove it first", dest)
	}
	return nil
}
