package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/build/internal/corpus"
)

// bench holds what every size shares: the kakehashi binary, hugo's path,
// the course, a scratch folder.
type bench struct {
	cfg       config
	log       io.Writer
	tmp       string
	kakehashi string
	hugo      string // "" when there is no Hugo
	hugoFrom  hugoChoice
	course    *corpus.Course
	// startup is "kakehashi version", the time a process takes to start
	// and end.
	startup series
	// loadBefore is the load average when the bench started.
	loadBefore string
	// cpuStart is the CPU counters when the bench started (if cpuOK).
	cpuStart cpuSample
	cpuOK    bool
}

func newBench(ctx context.Context, cfg config, log io.Writer) (*bench, error) {
	tmp, err := os.MkdirTemp("", "kakehashi-bench-")
	if err != nil {
		return nil, err
	}
	b := &bench{cfg: cfg, log: log, tmp: tmp, kakehashi: filepath.Join(tmp, "kakehashi"), loadBefore: loadAvg()}
	b.cpuStart, b.cpuOK = cpuNow()
	fmt.Fprintf(log, "bench: building kakehashi into %s\n", tmp)
	// The binary's version names its commit (and whether the tree was
	// modified) when built in a checkout, whatever GOFLAGS says.
	args := []string{"build", "-o", b.kakehashi}
	if exec.CommandContext(ctx, "git", "rev-parse", "--git-dir").Run() == nil {
		args = append(args, "-buildvcs=true")
	}
	build := exec.CommandContext(ctx, goTool(), append(args, "./cmd/kakehashi")...)
	if msg, err := build.CombinedOutput(); err != nil {
		b.close()
		return nil, fmt.Errorf("go build ./cmd/kakehashi: %v\n%s", err, msg)
	}
	repo, err := filepath.Abs(".")
	if err != nil {
		b.close()
		return nil, err
	}
	if b.hugoFrom, err = resolveHugo(ctx, osHugoFinder(repo, log)); err != nil {
		b.close()
		return nil, err
	}
	b.hugo = b.hugoFrom.path
	if b.hugoFrom.note != "" {
		fmt.Fprintf(log, "bench: %s\n", b.hugoFrom.note)
	}
	if b.hugo != "" {
		fmt.Fprintf(log, "bench: Hugo is %s (from %s)\n", b.hugo, b.hugoFrom.from)
	}
	b.startup.name = "kakehashi version"
	for range cfg.runs {
		x, err := measure(ctx, b.kakehashi, "version")
		if err != nil {
			b.close()
			return nil, err
		}
		b.startup.samples = append(b.startup.samples, x)
	}
	b.course, err = corpus.Load(ctx, afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), repo)))
	if err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

func (b *bench) close() { os.RemoveAll(b.tmp) }

// goTool is the go command of the toolchain running the bench.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// sample is one timed build.
type sample struct {
	wall  time.Duration
	rssKB int64 // 0 when unknown
}

// series is the samples of one measurement.
type series struct {
	name    string
	samples []sample
}

func (s series) walls() []time.Duration {
	out := make([]time.Duration, len(s.samples))
	for i, x := range s.samples {
		out[i] = x.wall
	}
	slices.Sort(out)
	return out
}

// median, min and max wall time; 0 without samples.
func (s series) median() time.Duration {
	w := s.walls()
	if len(w) == 0 {
		return 0
	}
	if len(w)%2 == 1 {
		return w[len(w)/2]
	}
	return (w[len(w)/2-1] + w[len(w)/2]) / 2
}
func (s series) min() time.Duration {
	if w := s.walls(); len(w) > 0 {
		return w[0]
	}
	return 0
}
func (s series) max() time.Duration {
	if w := s.walls(); len(w) > 0 {
		return w[len(w)-1]
	}
	return 0
}

// peakKB is the largest peak resident set size of the runs.
func (s series) peakKB() int64 {
	var m int64
	for _, x := range s.samples {
		m = max(m, x.rssKB)
	}
	return m
}

// sizeResult is every measurement at one corpus size.
type sizeResult struct {
	parts    int
	pages    int // article pages per build, all languages
	cold     series
	hugo     series // empty when hugo is absent
	warm     series
	onePage  series
	kkFiles  int // HTML files kakehashi wrote
	hugoHTML int
	// floor is goldmark and chroma alone on the same pages (floorRun);
	// floorOnce the same with each distinct code block highlighted once.
	floor, floorOnce series
	// timings is the output of "kakehashi build --timings" on a cold
	// build, timingsNote why there is none.
	timings, timingsNote string
	// reload is serve's save-to-reload, nil when not measured.
	reload *reloadResult
}

// size runs every measurement on a corpus of n parts per language.
func (b *bench) size(ctx context.Context, n int) (sizeResult, error) {
	res := sizeResult{parts: n, pages: 2 * n,
		cold: series{name: "kakehashi cold"}, hugo: series{name: "Hugo"},
		warm: series{name: "kakehashi warm"}, onePage: series{name: "kakehashi one page"},
		floor: series{name: "goldmark + chroma"}, floorOnce: series{name: "… each block once"}}
	c := &sizeRun{b: b, n: n, dir: filepath.Join(b.tmp, fmt.Sprint(n))}
	c.kkSite, c.hugoSite = filepath.Join(c.dir, "kakehashi"), filepath.Join(c.dir, "hugo")
	if err := c.generate(ctx); err != nil {
		return res, err
	}
	if err := c.coldRuns(ctx, &res); err != nil {
		return res, err
	}
	var err error
	if res.kkFiles, err = checkPages(c.kkOut, b.course, n); err != nil {
		return res, fmt.Errorf("kakehashi output: %w", err)
	}
	if b.hugo != "" {
		if res.hugoHTML, err = checkPages(c.hugoOut, b.course, n); err != nil {
			return res, fmt.Errorf("hugo output: %w", err)
		}
	}
	if err := c.floorRuns(ctx, &res); err != nil {
		return res, err
	}
	if err := c.timingsRun(ctx, &res); err != nil {
		return res, err
	}
	if err := c.warmRuns(ctx, &res); err != nil {
		return res, err
	}
	if _, err := checkPages(c.kkOut, b.course, n); err != nil {
		return res, fmt.Errorf("kakehashi output after a warm rebuild: %w", err)
	}
	if err := c.onePageRuns(ctx, &res); err != nil {
		return res, err
	}
	if _, err := checkPages(c.kkOut, b.course, n); err != nil {
		return res, fmt.Errorf("kakehashi output after one-page rebuilds: %w", err)
	}
	if b.cfg.serveEdits > 0 {
		fmt.Fprintf(b.log, "bench: %d parts: serve, %d edits after a warm-up\n", n, b.cfg.serveEdits)
		r, err := b.reloadRuns(ctx, c.kkSite, c.reloadParts(), b.cfg.serveEdits)
		if err != nil {
			return res, err
		}
		res.reload = &r
	}
	return res, nil
}

// reloadParts are the parts serve's edits go to in turn: four in the two
// languages, spread over the series, not the one the one-page rebuilds
// edited (when the series is long enough to have others).
func (c *sizeRun) reloadParts() []string {
	var out []string
	seen := map[string]bool{c.b.course.PartPath("ja", (c.n+1)/2): true}
	for i, k := range []int{c.n / 4, c.n/2 + 1, 3 * c.n / 4, c.n} {
		lang := []string{"ja", "ko"}[i%2]
		p := c.b.course.PartPath(lang, min(max(k, 1), c.n))
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		out = append(out, c.b.course.PartPath("ko", 1))
	}
	return out
}

// floorRuns measures the floor: one untimed run of each kind (page cache,
// CPU frequency), then BENCH_RUNS of each, alternating; each run is a
// process of its own reading the kakehashi corpus's files.
func (c *sizeRun) floorRuns(ctx context.Context, res *sizeResult) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("floor: %v", err)
	}
	fmt.Fprintf(c.b.log, "bench: %d parts: floor (goldmark + chroma on %d pages)\n", c.n, res.pages)
	run := func(once bool) (sample, error) {
		cmd := exec.CommandContext(ctx, exe)
		cmd.Env = append(os.Environ(), floorEnv+"="+c.kkSite, floorOnceEnv+"="+map[bool]string{true: "1", false: "0"}[once])
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		err := cmd.Run()
		wall := time.Since(start)
		if err != nil {
			return sample{}, fmt.Errorf("floor: %v\n%s", err, stderr.Bytes())
		}
		if got, want := strings.TrimSpace(stdout.String()), fmt.Sprintf("%d pages", res.pages); got != want {
			return sample{}, fmt.Errorf("floor: rendered %q, want %s", got, want)
		}
		return sample{wall: wall, rssKB: peakRSS(cmd.ProcessState)}, nil
	}
	for _, once := range []bool{false, true} {
		if _, err := run(once); err != nil {
			return err
		}
	}
	for i := range c.b.cfg.runs {
		for _, once := range []bool{false, true} {
			s, err := run(once)
			if err != nil {
				return err
			}
			into := &res.floor
			if once {
				into = &res.floorOnce
			}
			into.samples = append(into.samples, s)
			c.logRun(i, into.name, s)
		}
	}
	return nil
}

// timingsRun runs one cold "kakehashi build --timings" into a new folder
// and keeps the report it prints on stdout (its warnings, on stderr, are
// not part of it); the warm and one-page rebuilds then go on in that
// folder, with that build's cache. A kakehashi without the flag gets a
// note instead, and its cache is left alone.
func (c *sizeRun) timingsRun(ctx context.Context, res *sizeResult) error {
	help, _ := exec.CommandContext(ctx, c.b.kakehashi, "build", "-h").CombinedOutput()
	if !hasTimingsFlag(string(help)) {
		res.timingsNote = "this kakehashi has no --timings flag yet"
		return nil
	}
	if err := os.RemoveAll(filepath.Join(c.kkSite, ".kakehashi-cache")); err != nil {
		return err
	}
	out := filepath.Join(c.dir, "kakehashi-public-timings")
	cmd := exec.CommandContext(ctx, c.b.kakehashi, "build", "--timings", "-q", "-s", c.kkSite, "-d", out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("kakehashi build --timings: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	c.kkOut = out
	res.timings = strings.Trim(stdout.String(), "\n")
	return nil
}

// timingsFlag finds --timings in "kakehashi build -h".
var timingsFlag = regexp.MustCompile(`(?m)^\s+--?timings\b`)

// hasTimingsFlag says whether the usage text of "kakehashi build -h"
// lists --timings.
func hasTimingsFlag(help string) bool { return timingsFlag.MatchString(help) }

// sizeRun is the state of the measurements at one corpus size.
//
// Every cold build writes a new output folder, and none is deleted until
// the bench ends. ext4 without a journal (as on this kind of virtual disk)
// skips inodes freed in the last minutes when it allocates new ones, so
// deleting one run's 4,000 files and folders right before the next run
// adds seconds of kernel time to that run, a cost no real build pays and
// which grows run after run. Both tools get the same fresh folders.
type sizeRun struct {
	b                *bench
	n                int
	dir              string
	kkSite, hugoSite string
	kkOut, hugoOut   string
	coldN, hugoN     int
}

func (c *sizeRun) generate(ctx context.Context) error {
	fmt.Fprintf(c.b.log, "bench: %d parts per language: generating the corpus\n", c.n)
	osFs := afero.NewOsFs()
	if err := c.b.course.Generate(ctx, osFs, filepath.ToSlash(c.kkSite), c.n); err != nil {
		return err
	}
	if c.b.hugo != "" {
		return c.b.course.GenerateHugo(ctx, osFs, filepath.ToSlash(c.hugoSite), c.n)
	}
	return nil
}

// kkCold is one cold kakehashi build into a new folder.
func (c *sizeRun) kkCold(ctx context.Context) (sample, error) {
	// The cache is one file: removing it frees no folder of inodes.
	if err := os.RemoveAll(filepath.Join(c.kkSite, ".kakehashi-cache")); err != nil {
		return sample{}, err
	}
	c.coldN++
	c.kkOut = filepath.Join(c.dir, fmt.Sprintf("kakehashi-public-%d", c.coldN))
	return c.b.kk(ctx, c.kkSite, c.kkOut)
}

// hugoRun is one Hugo build into a new folder.
func (c *sizeRun) hugoRun(ctx context.Context) (sample, error) {
	if err := os.RemoveAll(filepath.Join(c.hugoSite, "resources")); err != nil {
		return sample{}, err
	}
	c.hugoN++
	c.hugoOut = filepath.Join(c.dir, fmt.Sprintf("hugo-public-%d", c.hugoN))
	return measure(ctx, c.b.hugo, "-s", c.hugoSite, "-d", c.hugoOut)
}

// coldRuns times the cold builds of both tools: one untimed warm-up each
// (page cache, CPU frequency), then alternating runs: even rounds
// kakehashi first, odd rounds Hugo first.
func (c *sizeRun) coldRuns(ctx context.Context, res *sizeResult) error {
	type step struct {
		name string
		run  func(context.Context) (sample, error)
		into *series
	}
	steps := []step{{"kakehashi cold", c.kkCold, &res.cold}}
	if c.b.hugo != "" {
		steps = append(steps, step{"hugo", c.hugoRun, &res.hugo})
	}
	for _, s := range steps {
		fmt.Fprintf(c.b.log, "bench: %d parts: warm-up %s\n", c.n, s.name)
		if _, err := s.run(ctx); err != nil {
			return err
		}
	}
	for i := range c.b.cfg.runs {
		order := steps
		if i%2 == 1 {
			order = slices.Clone(steps)
			slices.Reverse(order)
		}
		for _, s := range order {
			x, err := s.run(ctx)
			if err != nil {
				return err
			}
			s.into.samples = append(s.into.samples, x)
			c.logRun(i, s.name, x)
		}
	}
	return nil
}

func (c *sizeRun) logRun(i int, name string, x sample) {
	fmt.Fprintf(c.b.log, "bench: %d parts: run %d/%d %-15s %7.2fs %6d MB\n", c.n, i+1, c.b.cfg.runs, name, x.wall.Seconds(), x.rssKB/1024)
}

// warmRuns rebuilds into the output folder of the last cold build, with
// its cache.
func (c *sizeRun) warmRuns(ctx context.Context, res *sizeResult) error {
	for i := range c.b.cfg.runs {
		x, err := c.b.kk(ctx, c.kkSite, c.kkOut)
		if err != nil {
			return err
		}
		res.warm.samples = append(res.warm.samples, x)
		c.logRun(i, "kakehashi warm", x)
	}
	return nil
}

// onePageRuns appends a different line to one part each time, rebuilds,
// and checks the page shows it.
func (c *sizeRun) onePageRuns(ctx context.Context, res *sizeResult) error {
	rel := c.b.course.PartPath("ja", (c.n+1)/2)
	part := filepath.Join(c.kkSite, filepath.FromSlash(rel))
	url := strings.TrimSuffix(strings.TrimPrefix(rel, "content/"), ".md")
	for i := range c.b.cfg.runs {
		marker := fmt.Sprintf("bench-edit-%d", i+1)
		if err := appendLine(part, "\n追記 "+marker+"。\n"); err != nil {
			return err
		}
		x, err := c.b.kk(ctx, c.kkSite, c.kkOut)
		if err != nil {
			return err
		}
		res.onePage.samples = append(res.onePage.samples, x)
		c.logRun(i, "kakehashi 1 page ", x)
		page, err := os.ReadFile(filepath.Join(c.kkOut, filepath.FromSlash(url), "index.html"))
		if err != nil {
			return err
		}
		if !bytes.Contains(page, []byte(marker)) {
			return fmt.Errorf("one-page rebuild: %s does not show the edit %q", url, marker)
		}
	}
	return nil
}

// kk runs one kakehashi build.
func (b *bench) kk(ctx context.Context, site, out string) (sample, error) {
	// As an author runs it, summary and all: a cost of the summary (it
	// once gzipped the calculators on every build) is a build's cost.
	return measure(ctx, b.kakehashi, "build", "-s", site, "-d", out)
}

// measure runs a command and returns its wall time and peak memory.
func measure(ctx context.Context, name string, args ...string) (sample, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out.Bytes())
	}
	return sample{wall: wall, rssKB: peakRSS(cmd.ProcessState)}, nil
}

func appendLine(p, line string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// articleDir matches the folder of a generated part.
var articleDir = regexp.MustCompile(`^\d{4,}-[a-z-]+$`)

// checkPages checks that out holds every part's page in both languages, and
// returns how many HTML files it holds in all.
func checkPages(out string, c *corpus.Course, n int) (int, error) {
	html := 0
	articles := map[string]int{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		html++
		rel, _ := filepath.Rel(out, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) == 4 && parts[1] == corpus.SeriesID && parts[3] == "index.html" && articleDir.MatchString(parts[2]) {
			articles[parts[0]]++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, lang := range []string{"ja", "ko"} {
		if articles[lang] != n {
			return html, fmt.Errorf("%d %s article pages, want %d", articles[lang], lang, n)
		}
		for _, k := range []int{1, n} {
			rel := strings.TrimSuffix(strings.TrimPrefix(c.PartPath(lang, k), "content/"), ".md")
			if !fileExists(filepath.Join(out, filepath.FromSlash(rel), "index.html")) {
				return html, fmt.Errorf("no page for %s", rel)
			}
		}
	}
	return html, nil
}
