// Command corpus writes a benchmark site made from the bundled CKA
// course: N parts per language, as a kakehashi site or as the equivalent
// Hugo site.
//
//	go run ./build/internal/cmd/corpus [-src DIR] [-n N] [-hugo] DEST
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	src := fs.String("src", ".", "repository `folder` whose content/, themes/ and i18n/ the parts are made from")
	n := fs.Int("n", 100, "parts per language")
	hugo := fs.Bool("hugo", false, "write the equivalent Hugo site instead of a kakehashi site")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: go run ./build/internal/cmd/corpus [-src DIR] [-n N] [-hugo] DEST\n\nWrites a benchmark site of N parts per language into DEST.\n\nFlags:\n")
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
	absSrc, err := filepath.Abs(*src)
	if err != nil {
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return 1
	}
	c, err := corpus.Load(ctx, afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), absSrc)))
	if err != nil {
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return 1
	}
	dest := filepath.ToSlash(fs.Arg(0))
	if *hugo {
		err = c.GenerateHugo(ctx, afero.NewOsFs(), dest, *n)
	} else {
		err = c.Generate(ctx, afero.NewOsFs(), dest, *n)
	}
	if err != nil {
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return 1
	}
	return 0
}
