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
	hugo      string // "" when hugo is not installed
	course    *corpus.Course
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
	build := exec.CommandContext(ctx, goTool(), "build", "-o", b.kakehashi, "./cmd/kakehashi")
	if msg, err := build.CombinedOutput(); err != nil {
		b.close()
		return nil, fmt.Errorf("go build ./cmd/kakehashi: %v\n%s", err, msg)
	}
	if h, err := exec.LookPath("hugo"); err == nil {
		b.hugo = h
	} else {
		fmt.Fprintln(log, "bench: hugo is not on PATH; measuring kakehashi alone")
	}
	repo, err := filepath.Abs(".")
	if err != nil {
		b.close()
		return nil, err
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

// median, min and max wall time.
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
func (s series) min() time.Duration { return s.walls()[0] }
func (s series) max() time.Duration { w := s.walls(); return w[len(w)-1] }

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
}

// size runs every measurement on a corpus of n parts per language.
func (b *bench) size(ctx context.Context, n int) (sizeResult, error) {
	res := sizeResult{parts: n, pages: 2 * n,
		cold: series{name: "kakehashi cold"}, hugo: series{name: "Hugo"},
		warm: series{name: "kakehashi warm"}, onePage: series{name: "kakehashi one page"}}
	dir := filepath.Join(b.tmp, fmt.Sprint(n))
	kkSite, hugoSite := filepath.Join(dir, "kakehashi"), filepath.Join(dir, "hugo")
	// Every cold build writes a new output folder, and none is deleted
	// until the bench ends. ext4 without a journal (as on this kind of
	// virtual disk) skips inodes freed in the last minutes when it
	// allocates new ones, so deleting one run's 4,000 files and folders
	// right before the next run adds seconds of kernel time to that run,
	// a cost no real build pays and which grows run after run. Both
	// tools get the same fresh folders.
	var kkOut, hugoOut string
	coldRuns, hugoRuns := 0, 0
	fmt.Fprintf(b.log, "bench: %d parts per language: generating the corpus\n", n)
	osFs := afero.NewOsFs()
	if err := b.course.Generate(ctx, osFs, filepath.ToSlash(kkSite), n); err != nil {
		return res, err
	}
	if b.hugo != "" {
		if err := b.course.GenerateHugo(ctx, osFs, filepath.ToSlash(hugoSite), n); err != nil {
			return res, err
		}
	}
	kkCold := func() (sample, error) {
		// The cache is one file: removing it frees no folder of inodes.
		if err := os.RemoveAll(filepath.Join(kkSite, ".kakehashi-cache")); err != nil {
			return sample{}, err
		}
		coldRuns++
		kkOut = filepath.Join(dir, fmt.Sprintf("kakehashi-public-%d", coldRuns))
		return b.kk(ctx, kkSite, kkOut)
	}
	hugoRun := func() (sample, error) {
		if err := os.RemoveAll(filepath.Join(hugoSite, "resources")); err != nil {
			return sample{}, err
		}
		hugoRuns++
		hugoOut = filepath.Join(dir, fmt.Sprintf("hugo-public-%d", hugoRuns))
		return measure(ctx, b.hugo, "--quiet", "-s", hugoSite, "-d", hugoOut)
	}
	type step struct {
		name string
		run  func() (sample, error)
		into *series
	}
	steps := []step{{"kakehashi cold", kkCold, &res.cold}}
	if b.hugo != "" {
		steps = append(steps, step{"hugo", hugoRun, &res.hugo})
	}
	// One untimed warm-up each (page cache, CPU frequency), then
	// alternating runs: even rounds kakehashi first, odd rounds Hugo first.
	for _, s := range steps {
		fmt.Fprintf(b.log, "bench: %d parts: warm-up %s\n", n, s.name)
		if _, err := s.run(); err != nil {
			return res, err
		}
	}
	for i := range b.cfg.runs {
		order := steps
		if i%2 == 1 {
			order = slices.Clone(steps)
			slices.Reverse(order)
		}
		for _, s := range order {
			x, err := s.run()
			if err != nil {
				return res, err
			}
			s.into.samples = append(s.into.samples, x)
			fmt.Fprintf(b.log, "bench: %d parts: run %d/%d %-15s %7.2fs %6d MB\n", n, i+1, b.cfg.runs, s.name, x.wall.Seconds(), x.rssKB/1024)
		}
	}
	var err error
	if res.kkFiles, err = checkPages(kkOut, b.course, n); err != nil {
		return res, fmt.Errorf("kakehashi output: %w", err)
	}
	if b.hugo != "" {
		if res.hugoHTML, err = checkPages(hugoOut, b.course, n); err != nil {
			return res, fmt.Errorf("hugo output: %w", err)
		}
	}

	// Warm rebuilds: into the output folder of the last cold build, with
	// its cache.
	for i := range b.cfg.runs {
		x, err := b.kk(ctx, kkSite, kkOut)
		if err != nil {
			return res, err
		}
		res.warm.samples = append(res.warm.samples, x)
		fmt.Fprintf(b.log, "bench: %d parts: run %d/%d %-15s %7.2fs %6d MB\n", n, i+1, b.cfg.runs, "kakehashi warm", x.wall.Seconds(), x.rssKB/1024)
	}
	if _, err := checkPages(kkOut, b.course, n); err != nil {
		return res, fmt.Errorf("kakehashi output after a warm rebuild: %w", err)
	}

	// One-page rebuilds: append a different line to one part each time and
	// check the page shows it.
	part := filepath.Join(kkSite, filepath.FromSlash(b.course.PartPath("ja", (n+1)/2)))
	for i := range b.cfg.runs {
		marker := fmt.Sprintf("bench-edit-%d", i+1)
		if err := appendLine(part, "\n追記 "+marker+"。\n"); err != nil {
			return res, err
		}
		x, err := b.kk(ctx, kkSite, kkOut)
		if err != nil {
			return res, err
		}
		res.onePage.samples = append(res.onePage.samples, x)
		fmt.Fprintf(b.log, "bench: %d parts: run %d/%d %-15s %7.2fs %6d MB\n", n, i+1, b.cfg.runs, "kakehashi 1 page ", x.wall.Seconds(), x.rssKB/1024)
		rel := strings.TrimSuffix(strings.TrimPrefix(b.course.PartPath("ja", (n+1)/2), "content/"), ".md")
		page, err := os.ReadFile(filepath.Join(kkOut, filepath.FromSlash(rel), "index.html"))
		if err != nil {
			return res, err
		}
		if !bytes.Contains(page, []byte(marker)) {
			return res, fmt.Errorf("one-page rebuild: %s does not show the edit %q", rel, marker)
		}
	}
	if _, err := checkPages(kkOut, b.course, n); err != nil {
		return res, fmt.Errorf("kakehashi output after one-page rebuilds: %w", err)
	}
	return res, nil
}

// kk runs one kakehashi build.
func (b *bench) kk(ctx context.Context, site, out string) (sample, error) {
	return measure(ctx, b.kakehashi, "build", "-q", "-s", site, "-d", out)
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
