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
// Hugo is the binary HUGO names; else the newest, which
// ../shared/tools/hugo-latest.sh (beside the checkout) builds and prints
// the path of; else hugo on PATH, which the report says may not be the
// newest. Both tools' versions are in the report.
//
// At each size it also measures the floor (goldmark and chroma alone on
// the same pages, on every core, in a process of its own: this binary
// run again with BENCH_FLOOR_SITE), runs "kakehashi build --timings" once
// for where a build's time goes, and times "kakehashi serve"'s
// save-to-reload: a line appended to a part, until the reload event of its
// event stream arrives and until the page holds the line.
//
// The report judges the targets of issue 23, unless other work kept the
// machine busy during the bench (more than 0.15 cores on average, or a
// 1-minute load above 0.5 at the start): then each target is "not
// judged", and with BENCH_STRICT=1 the command fails.
//
// Environment:
//
//	BENCH_SIZES        parts per language, comma-separated (default 100,1000)
//	BENCH_RUNS         timed runs per measurement, at least 1 (default 5)
//	BENCH_SERVE_EDITS  timed edits under serve per size, after one warm-up (default 10; 0: none)
//	BENCH_OUT          markdown report path (default docs/bench.md; "-" for none)
//	BENCH_STRICT       1: exit non-zero when the machine was too busy to judge
//	HUGO               path of the hugo binary to compare with
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
	if dir := os.Getenv(floorEnv); dir != "" {
		if err := floorChild(ctx, os.Stdout, dir, os.Getenv(floorOnceEnv) == "1"); err != nil {
			fmt.Fprintf(os.Stderr, "bench floor: %v\n", err)
			code = 1
		}
		stop()
		os.Exit(code)
	}
	if err := run(ctx, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		code = 1
	}
	stop()
	os.Exit(code)
}

// config is what the environment asks for.
type config struct {
	sizes      []int
	runs       int
	serveEdits int
	out        string
	strict     bool
}

func readConfig() (config, error) {
	c := config{sizes: []int{100, 1000}, runs: 5, serveEdits: 10, out: "docs/bench.md"}
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
	if s := strings.TrimSpace(os.Getenv("BENCH_SERVE_EDITS")); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return c, fmt.Errorf("BENCH_SERVE_EDITS: %q is not a number of edits", s)
		}
		c.serveEdits = n
	}
	if s, ok := os.LookupEnv("BENCH_OUT"); ok {
		c.out = s
	}
	switch s := strings.TrimSpace(os.Getenv("BENCH_STRICT")); s {
	case "", "0":
	case "1":
		c.strict = true
	default:
		return c, fmt.Errorf("BENCH_STRICT: %q is neither 1 nor 0", s)
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
	rep := report{machine: b.machine(ctx), cfg: cfg, results: results, startup: b.startup}
	fmt.Fprint(stdout, rep.text())
	if cfg.out != "" && cfg.out != "-" {
		if err := os.WriteFile(cfg.out, []byte(rep.markdown()), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "bench: wrote %s\n", cfg.out)
	}
	return strictError(cfg, rep.machine)
}

// strictError is the failure BENCH_STRICT=1 asks for when the machine was
// too busy to judge the targets.
func strictError(cfg config, m machine) error {
	if busy := m.busy(); busy != "" && cfg.strict {
		return fmt.Errorf("BENCH_STRICT=1: no target is judged: %s, and %s; run again on a quiet machine", busy, busyLimits())
	}
	return nil
}
