// Command gensite writes a kakehashi site of N generated parts per language
// (package build/internal/corpus, made from the bundled course) for the scale part
// of make search-bench: how many bytes each search moves as a course grows.
// Run it from the repository root:
//
//	go run ./build/search/bench/gensite -parts 30 -out .bench/search-corpus-30
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
)

func main() {
	parts := flag.Int("parts", 10, "parts per language")
	out := flag.String("out", "", "folder to write the site into (must not exist yet)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, *parts, *out)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gensite: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, parts int, out string) error {
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s already exists; remove it first", out)
	}
	c, err := corpus.LoadDir(ctx, ".")
	if err != nil {
		return err
	}
	return c.Generate(ctx, afero.NewOsFs(), out, parts)
}
