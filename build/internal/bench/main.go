// Command bench measures kakehashi against Hugo on the generated corpus
// (package build/internal/corpus) and writes the table to docs/bench.md. Run it from
// the repository root, as "make bench" does:
//
//	go run ./build/internal/bench
//
// For each corpus size it builds the site with kakehashi from cold
// (output and .kakehashi-cache removed) and with Hugo (when hugo is on
// PATH), alternating the two, BENCH_RUNS times each after one untimed
// warm-up; then kakehashi's warm rebuild (nothing changed, cache kept) and
// one-page rebuild (a line appended to one part). Wall time is the median;
// peak memory is the child's maximum resident set size from its rusage.
// Each build's output is checked for the expected article pages, so no
// tool looks fast by doing nothing.
//
// Environment:
//
//	BENCH_SIZES  parts per language, comma-separated (default 100,1000)
//	BENCH_RUNS   timed runs per measurement, at least 1 (default 5)
//	BENCH_OUT    markdown report path (default docs/bench.md; "-" for none)
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := 0
	if err := run(ctx, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		code = 1
	}
	stop()
	os.Exit(code)
}

// config is what the environment asks for.
type config struct {
	sizes []int
	runs  int
	out   string
}

func readConfig() (config, error) {
	c := config{sizes: []int{100, 1000}, runs: 5, out: "docs/bench.md"}
	if s := strings.TrimSpace(os.Getenv("BENCH_SIZES")); s != "" {
		c.sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return c, fmt.Errorf("BENCH_SIZES: %q is not a positive number of parts", f)
			}
			c.sizes = append(c.sizes, n)
		}
	}
	if s := strings.TrimSpace(os.Getenv("BENCH_RUNS")); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return c, fmt.Errorf("BENCH_RUNS: %q is not a positive number of runs", s)
		}
		c.runs = n
	}
	if s, ok := os.LookupEnv("BENCH_OUT"); ok {
		c.out = s
	}
	return c, nil
}

func run(ctx context.Context, stdout, stderr io.Writer) error {
	cfg, err := readConfig()
	if err != nil {
		return err
	}
	if _, err := os.Stat("go.mod"); err != nil {
		return fmt.Errorf("run from the repository root (no go.mod here)")
	}
	b, err := newBench(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer b.close()
	var results []sizeResult
	for _, n := range cfg.sizes {
		r, err := b.size(ctx, n)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	rep := report{machine: b.machine(ctx), cfg: cfg, results: results}
	fmt.Fprint(stdout, rep.text())
	if cfg.out != "" && cfg.out != "-" {
		if err := os.WriteFile(cfg.out, []byte(rep.markdown()), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "bench: wrote %s\n", cfg.out)
	}
	return nil
}
