package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// machine describes where the bench ran.
type machine struct {
	cpu, os, goVersion, hugo, kakehashi, commit, date string
	cores                                             int
	ramGB                                             float64
	// loadBefore is the 1-minute load average when the bench started.
	loadBefore string
	// other is what the machine did besides the bench while it ran; ok is
	// false where that is unknown.
	other cpuUse
}

// cpuSample is one reading of the CPU counters (see cpuNow).
type cpuSample struct {
	busy, steal, own time.Duration
	wall             time.Time
}

// cpuUse is the CPU time spent between two samples by everything but the
// bench and the builds it ran (other processes, kernel threads, the
// hypervisor's steal), over the wall time between them.
type cpuUse struct {
	ok           bool
	other, steal time.Duration
	wall         time.Duration
}

func cpuBetween(a, b cpuSample) cpuUse {
	return cpuUse{ok: true, other: max(0, (b.busy-a.busy)-(b.own-a.own)), steal: b.steal - a.steal, wall: b.wall.Sub(a.wall)}
}

// cores is the average number of cores the other work kept busy.
func (u cpuUse) cores() float64 {
	if u.wall <= 0 {
		return 0
	}
	return u.other.Seconds() / u.wall.Seconds()
}

func (u cpuUse) String() string {
	if !u.ok {
		return "unknown"
	}
	return fmt.Sprintf("%.1f s of CPU over %.0f s (%.2f cores on average; %.1f s stolen by the hypervisor)",
		u.other.Seconds(), u.wall.Seconds(), u.cores(), u.steal.Seconds())
}

// loadAvg is the 1-minute load average, or "" where unknown.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func (b *bench) machine(ctx context.Context) machine {
	m := machine{cpu: "unknown", os: runtime.GOOS + "/" + runtime.GOARCH, cores: runtime.NumCPU(),
		goVersion: runtime.Version(), hugo: "not installed", date: time.Now().UTC().Format("2006-01-02"),
		loadBefore: b.loadBefore}
	if end, ok := cpuNow(); ok && b.cpuOK {
		m.other = cpuBetween(b.cpuStart, end)
	}
	if v := procField("/proc/cpuinfo", "model name"); v != "" {
		m.cpu = v
	}
	if v := procField("/proc/meminfo", "MemTotal"); v != "" {
		var kb float64
		if _, err := fmt.Sscanf(v, "%f kB", &kb); err == nil {
			m.ramGB = kb / (1 << 20)
		}
	}
	if v := procField("/etc/os-release", "PRETTY_NAME"); v != "" {
		m.os = strings.Trim(v, `"`)
	}
	if k, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.os += ", Linux " + strings.TrimSpace(string(k))
	}
	if out, err := exec.CommandContext(ctx, goTool(), "version").Output(); err == nil {
		m.goVersion = strings.TrimSpace(string(out))
	}
	if b.hugo != "" {
		if out, err := exec.CommandContext(ctx, b.hugo, "version").Output(); err == nil {
			m.hugo = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
		}
	}
	if out, err := exec.CommandContext(ctx, b.kakehashi, "version").Output(); err == nil {
		m.kakehashi = strings.TrimSpace(string(out))
	}
	if out, err := exec.CommandContext(ctx, "git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		m.commit = strings.TrimSpace(string(out))
	}
	return m
}

// procField returns the value of the first "key: value" or "key=value"
// line of a /proc or /etc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			k, v, ok = strings.Cut(line, "=")
		}
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// report is the finished bench.
type report struct {
	machine machine
	cfg     config
	results []sizeResult
}

// targets of issue 7, on the 1,000-part corpus.
const (
	targetCold   = 4.0  // Hugo time ÷ kakehashi cold time, at least
	targetMemory = 0.25 // kakehashi peak memory ÷ Hugo's, at most
	targetWarm   = 10.0 // Hugo time ÷ kakehashi warm time, at least
)

// row is one line of the table.
type row struct {
	s     series
	pages int
}

func (r sizeResult) rows() []row {
	rows := []row{{r.cold, r.pages}}
	if len(r.hugo.samples) > 0 {
		rows = append(rows, row{r.hugo, r.pages})
	}
	return append(rows, row{r.warm, r.pages}, row{r.onePage, r.pages})
}

func pagesPerSecond(pages int, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(pages)/d.Seconds())
}

func mb(kb int64) string {
	if kb == 0 {
		return "-"
	}
	return fmt.Sprintf("%d MB", (kb+512)/1024)
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// ratios are the side-by-side numbers of one size; ok is false without Hugo.
type ratios struct {
	cold, memory, warm, onePage float64
	ok                          bool
}

func (r sizeResult) ratios() ratios {
	if len(r.hugo.samples) == 0 || r.cold.median() == 0 {
		return ratios{}
	}
	h := r.hugo.median().Seconds()
	x := ratios{ok: true, cold: h / r.cold.median().Seconds(), warm: h / r.warm.median().Seconds(), onePage: h / r.onePage.median().Seconds()}
	if r.hugo.peakKB() > 0 {
		x.memory = float64(r.cold.peakKB()) / float64(r.hugo.peakKB())
	}
	return x
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

// busyCores is how much other work (on average, in cores) makes the times
// untrustworthy: a tenth of a core steals a noticeable share from two
// builds that each use every core.
const busyCores = 0.10

// busy is a warning when other work shared the CPUs during the bench, or ""
// when the machine was quiet enough (or that is unknown).
func (m machine) busy() string {
	if m.other.ok && m.other.cores() > busyCores {
		return fmt.Sprintf("The machine was busy: other work used %.2f cores on average during the bench, so times and ratios are skewed; run again on a quiet machine.", m.other.cores())
	}
	return ""
}

// text is the table printed on the terminal.
func (rep report) text() string {
	var b strings.Builder
	m := rep.machine
	fmt.Fprintf(&b, "\n%s; %d cores; %.1f GB; %s\n%s; %s; %s\nload average (1 min) at the start: %s; other work during the bench: %s\n",
		m.cpu, m.cores, m.ramGB, m.os, m.goVersion, m.hugo, m.kakehashi, m.loadBefore, m.other)
	if w := m.busy(); w != "" {
		fmt.Fprintf(&b, "WARNING: %s\n", w)
	}
	for _, r := range rep.results {
		fmt.Fprintf(&b, "\n%d parts per language (%d article pages), %d runs each\n", r.parts, r.pages, rep.cfg.runs)
		fmt.Fprintf(&b, "  %-19s %9s %9s %9s %9s %10s\n", "build", "median", "min", "max", "pages/s", "peak RSS")
		for _, row := range r.rows() {
			fmt.Fprintf(&b, "  %-19s %9s %9s %9s %9s %10s\n", row.s.name, secs(row.s.median()), secs(row.s.min()), secs(row.s.max()),
				pagesPerSecond(row.pages, row.s.median()), mb(row.s.peakKB()))
		}
		if x := r.ratios(); x.ok {
			fmt.Fprintf(&b, "  Hugo ÷ kakehashi time: cold %.2f×, warm %.2f×, one page %.2f×; kakehashi ÷ Hugo peak memory: %.2f\n",
				x.cold, x.warm, x.onePage, x.memory)
			if r.parts == 1000 {
				fmt.Fprintf(&b, "  targets: cold ≥ %.0f× %s; memory ≤ %.2f %s; warm ≥ %.0f× %s\n",
					targetCold, verdict(x.cold >= targetCold), targetMemory, verdict(x.memory <= targetMemory && x.memory > 0),
					targetWarm, verdict(x.warm >= targetWarm))
			}
		}
	}
	return b.String()
}

// markdown is docs/bench.md.
func (rep report) markdown() string {
	var b strings.Builder
	m := rep.machine
	b.WriteString("# kakehashi and Hugo on the same bilingual corpus\n\n")
	b.WriteString("Generated by `make bench` (`go run ./build/internal/bench`); do not edit by hand.\n\n")
	b.WriteString("## Machine\n\n")
	fmt.Fprintf(&b, "| | |\n| --- | --- |\n")
	fmt.Fprintf(&b, "| Date | %s |\n| CPU | %s |\n| Cores | %d |\n| RAM | %.1f GB |\n| OS | %s |\n| Go | %s |\n| Hugo | %s |\n| kakehashi | %s",
		m.date, m.cpu, m.cores, m.ramGB, m.os, m.goVersion, m.hugo, m.kakehashi)
	if m.commit != "" {
		fmt.Fprintf(&b, " (commit %s)", m.commit)
	}
	b.WriteString(" |\n")
	fmt.Fprintf(&b, "| Load average (1 min) at the start | %s |\n", m.loadBefore)
	fmt.Fprintf(&b, "| Other work during the bench | %s |\n", m.other)
	if w := m.busy(); w != "" {
		fmt.Fprintf(&b, "\n**%s**\n", w)
	}
	b.WriteString("\n## Results\n\n")
	fmt.Fprintf(&b, "Wall time over %d runs per build after one untimed warm-up; pages/s is article pages (both languages) per second of median time; peak RSS is the highest maximum resident set size of the runs.\n\n", rep.cfg.runs)
	b.WriteString("| Parts per language | Build | Median | Min | Max | Pages/s | Peak RSS |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rep.results {
		for _, row := range r.rows() {
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s |\n", r.parts, row.s.name, secs(row.s.median()), secs(row.s.min()), secs(row.s.max()),
				pagesPerSecond(row.pages, row.s.median()), mb(row.s.peakKB()))
		}
	}
	b.WriteString("\n## Ratios\n\n")
	b.WriteString("| Parts per language | Hugo ÷ kakehashi cold time | kakehashi ÷ Hugo peak memory | Hugo ÷ kakehashi warm time | Hugo ÷ kakehashi one-page time |\n| ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rep.results {
		if x := r.ratios(); x.ok {
			fmt.Fprintf(&b, "| %d | %.2f× | %.2f | %.2f× | %.2f× |\n", r.parts, x.cold, x.memory, x.warm, x.onePage)
		} else {
			fmt.Fprintf(&b, "| %d | - | - | - | - |\n", r.parts)
		}
	}
	for _, r := range rep.results {
		if x := r.ratios(); x.ok && r.parts == 1000 {
			b.WriteString("\nTargets of issue 7 on the 1,000-part corpus:\n\n")
			fmt.Fprintf(&b, "- cold build at least %.0f× faster than Hugo: %.2f×, %s\n", targetCold, x.cold, verdict(x.cold >= targetCold))
			fmt.Fprintf(&b, "- peak memory at most %.2f of Hugo's: %.2f, %s\n", targetMemory, x.memory, verdict(x.memory <= targetMemory && x.memory > 0))
			fmt.Fprintf(&b, "- warm rebuild at least %.0f× faster than Hugo's build: %.2f×, %s\n", targetWarm, x.warm, verdict(x.warm >= targetWarm))
		}
	}
	b.WriteString(`
## Method

- The corpus is made by package ` + "`build/internal/corpus`" + ` from the course's own articles:
  N parts per language, each with its own code blocks, shared byte for byte
  by the ja and ko versions of a part; ` + "`go run ./build/internal/cmd/corpus -n N DIR`" + `
  (add ` + "`-hugo`" + ` for the Hugo site) writes the same files.
- kakehashi cold: ` + "`kakehashi build -q -s SITE -d OUT`" + ` with
  SITE/.kakehashi-cache removed first and OUT a new folder. Warm: the same
  command again into the last OUT, nothing changed. One page: a line
  appended to one part, then the same command.
- Hugo: ` + "`hugo --quiet -s SITE -d OUT`" + ` with OUT a new folder, on an equivalent
  multilingual configuration (ja and ko content folders, highlighting with
  CSS classes, a table of contents of h2–h4, translation links and hreflang
  alternates, previous/next, beside each article the series list that
  kakehashi's theme shows (a window of parts around the article in a long
  series); no taxonomy pages, which kakehashi does not make).
- The two tools' cold builds alternate; each build's output is checked for
  every part's page in both languages.
- Every cold build, of either tool, writes a folder no earlier run used, and
  no output is deleted before the bench ends (about 0.3 GB per 1,000-part
  build). On ext4 without a journal, inodes freed in the last few minutes
  are skipped when new ones are allocated: deleting the last run's output
  just before a build added 1 to 3 s of kernel time to it, more with each
  run, which no real build pays. For the same reason, leave a few minutes
  between two benches: the first one's scratch folder is deleted when it
  ends.
- Peak memory is the child's ru_maxrss (` + "`ProcessState.SysUsage()`" + `).
`)
	return b.String()
}
