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
	// hugoFrom is where the bench's Hugo came from.
	hugoFrom hugoChoice
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
		goVersion: runtime.Version(), hugo: "none", date: time.Now().UTC().Format("2006-01-02"),
		loadBefore: b.loadBefore, hugoFrom: b.hugoFrom}
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
	// startup is "kakehashi version": a process's start and end.
	startup series
}

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
	rows = append(rows, row{r.warm, r.pages}, row{r.onePage, r.pages})
	for _, s := range []series{r.floor, r.floorOnce} {
		if len(s.samples) > 0 {
			rows = append(rows, row{s, r.pages})
		}
	}
	return rows
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

// hugoLine is the Hugo version and where it came from.
func (m machine) hugoLine() string {
	switch m.hugoFrom.from {
	case hugoFromEnv:
		return m.hugo + " (HUGO)"
	case hugoFromScript:
		return m.hugo + " (" + hugoScript + ")"
	case hugoFromPath:
		if m.hugoFrom.path != "" {
			return m.hugo + " (PATH)"
		}
	}
	return m.hugo
}

// kakehashiLine is kakehashi's version, with the checkout's commit when
// the binary has none of its own.
func (m machine) kakehashiLine() string {
	if m.commit != "" && !strings.Contains(m.kakehashi, "(commit ") {
		return m.kakehashi + ", checkout at commit " + m.commit
	}
	return m.kakehashi
}

// fixedTime estimates, from the smallest and the largest size, a build's
// time as fixed + per page × pages (a straight line through the two
// medians); ok is false with fewer than two sizes.
func fixedTime(results []sizeResult, pick func(sizeResult) series) (fixed, perPage time.Duration, ok bool) {
	var lo, hi *sizeResult
	for i := range results {
		r := &results[i]
		if len(pick(*r).samples) == 0 {
			continue
		}
		if lo == nil || r.pages < lo.pages {
			lo = r
		}
		if hi == nil || r.pages > hi.pages {
			hi = r
		}
	}
	if lo == nil || hi == nil || lo.pages == hi.pages {
		return 0, 0, false
	}
	a, b := pick(*lo).median(), pick(*hi).median()
	perPage = (b - a) / time.Duration(hi.pages-lo.pages)
	return a - perPage*time.Duration(lo.pages), perPage, true
}

// fixedRow is a build's estimated fixed time and time per page.
type fixedRow struct {
	name           string
	fixed, perPage time.Duration
}

// fixedRows are the estimated fixed time and time per page of the builds
// measured at several sizes.
func (rep report) fixedRows() []fixedRow {
	var out []fixedRow
	for _, p := range []struct {
		name string
		pick func(sizeResult) series
	}{
		{"kakehashi cold", func(r sizeResult) series { return r.cold }},
		{"Hugo", func(r sizeResult) series { return r.hugo }},
		{"goldmark + chroma", func(r sizeResult) series { return r.floor }},
		{"… each block once", func(r sizeResult) series { return r.floorOnce }},
	} {
		if fixed, per, ok := fixedTime(rep.results, p.pick); ok {
			out = append(out, fixedRow{p.name, fixed, per})
		}
	}
	return out
}

// text is the table printed on the terminal.
func (rep report) text() string {
	var b strings.Builder
	m := rep.machine
	fmt.Fprintf(&b, "\n%s; %d cores; %.1f GB; %s\n%s\n%s\n%s\nload average (1 min) at the start: %s; other work during the bench: %s\n",
		m.cpu, m.cores, m.ramGB, m.os, m.goVersion, m.hugoLine(), m.kakehashiLine(), m.loadBefore, m.other)
	if n := m.hugoFrom.note; n != "" {
		fmt.Fprintf(&b, "NOTE: %s\n", n)
	}
	if w := m.busy(); w != "" {
		fmt.Fprintf(&b, "WARNING: %s: no target is judged (%s); run again on a quiet machine\n", w, busyLimits())
	}
	if len(rep.startup.samples) > 0 {
		fmt.Fprintf(&b, "kakehashi version (a process's start and end): %s median\n", msecs(rep.startup.median()))
	}
	for _, r := range rep.results {
		fmt.Fprintf(&b, "\n%d parts per language (%d article pages), %s each\n", r.parts, r.pages, plural(rep.cfg.runs, "run"))
		fmt.Fprintf(&b, "  %-19s %9s %9s %9s %9s %10s\n", "build", "median", "min", "max", "pages/s", "peak RSS")
		for _, row := range r.rows() {
			fmt.Fprintf(&b, "  %-19s %9s %9s %9s %9s %10s\n", row.s.name, secs(row.s.median()), secs(row.s.min()), secs(row.s.max()),
				pagesPerSecond(row.pages, row.s.median()), mb(row.s.peakKB()))
		}
		if x := r.ratios(); x.ok {
			fmt.Fprintf(&b, "  Hugo ÷ kakehashi time: cold %.2f×, warm %.2f×, one page %.2f×; kakehashi ÷ Hugo peak memory: %.2f\n",
				x.cold, x.warm, x.onePage, x.memory)
		}
		if rr := r.reload; rr != nil && len(rr.reload.samples) > 0 {
			fmt.Fprintf(&b, "  serve, %d edits: save to reload event %s median, %s max; to the page holding the edit %s median, %s max; serve peak RSS %s\n",
				len(rr.reload.samples), msecs(rr.reload.median()), msecs(rr.reload.max()), msecs(rr.page.median()), msecs(rr.page.max()), mb(rr.rssKB))
		}
		switch {
		case r.timingsNote != "":
			fmt.Fprintf(&b, "  --timings: %s\n", r.timingsNote)
		case r.timings != "":
			// The stages; the pages and templates are in the markdown.
			stages, _, _ := strings.Cut(r.timings, "\n\n")
			fmt.Fprintf(&b, "  kakehashi build --timings (cold):\n%s\n", indent(stages, "    "))
		}
	}
	if rows := rep.fixedRows(); len(rows) > 0 {
		b.WriteString("\nfixed time and time per page (a line through the smallest and the largest size):\n")
		for _, row := range rows {
			fmt.Fprintf(&b, "  %-19s fixed %s, per page %.2f ms\n", row.name, secs(row.fixed), ms(row.perPage))
		}
	}
	b.WriteString("\ntargets of issue 23:\n")
	for _, t := range judge(rep.results, m.busy()) {
		fmt.Fprintf(&b, "  - %s\n", t)
	}
	return b.String()
}

// plural is "1 run", "5 runs".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// markdown is docs/bench.md.
func (rep report) markdown() string {
	var b strings.Builder
	m := rep.machine
	b.WriteString("# kakehashi and Hugo on the same bilingual corpus\n\n")
	b.WriteString("Generated by `make bench` (`go run ./build/internal/bench`); do not edit by hand.\n\n")
	b.WriteString("## Machine\n\n")
	fmt.Fprintf(&b, "| | |\n| --- | --- |\n")
	fmt.Fprintf(&b, "| Date | %s |\n| CPU | %s |\n| Cores | %d |\n| RAM | %.1f GB |\n| OS | %s |\n| Go | %s |\n| Hugo | %s |\n| kakehashi | %s |\n",
		m.date, m.cpu, m.cores, m.ramGB, m.os, m.goVersion, m.hugoLine(), m.kakehashiLine())
	fmt.Fprintf(&b, "| Load average (1 min) at the start | %s |\n", m.loadBefore)
	fmt.Fprintf(&b, "| Other work during the bench | %s |\n", m.other)
	if n := m.hugoFrom.note; n != "" {
		fmt.Fprintf(&b, "\n**Note: %s.**\n", n)
	}
	if w := m.busy(); w != "" {
		fmt.Fprintf(&b, "\n**Not judged: %s; %s. The numbers below are shown, but they do not say what the tools do; run again on a quiet machine.**\n", w, busyLimits())
	}

	b.WriteString("\n## Targets of issue 23\n\n")
	for _, t := range judge(rep.results, m.busy()) {
		fmt.Fprintf(&b, "- %s\n", t)
	}

	b.WriteString("\n## Results\n\n")
	fmt.Fprintf(&b, "Wall time over %s per build after one untimed warm-up; pages/s is article pages (both languages) per second of median time; peak RSS is the highest maximum resident set size of the runs. goldmark + chroma is the floor (see below), a process of its own reading the same files.\n\n", plural(rep.cfg.runs, "run"))
	b.WriteString("| Parts per language | Build | Median | Min | Max | Pages/s | Peak RSS |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rep.results {
		for _, row := range r.rows() {
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s |\n", r.parts, row.s.name, secs(row.s.median()), secs(row.s.min()), secs(row.s.max()),
				pagesPerSecond(row.pages, row.s.median()), mb(row.s.peakKB()))
		}
	}
	b.WriteString("\n## Ratios\n\n")
	b.WriteString("| Parts per language | Hugo ÷ kakehashi cold time | kakehashi ÷ Hugo peak memory | Hugo ÷ kakehashi warm time | Hugo ÷ kakehashi one-page time | kakehashi cold ÷ floor |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rep.results {
		floor := "-"
		if f := r.floor.median(); f > 0 {
			floor = fmt.Sprintf("%.1f×", r.cold.median().Seconds()/f.Seconds())
		}
		if x := r.ratios(); x.ok {
			fmt.Fprintf(&b, "| %d | %.2f× | %.2f | %.2f× | %.2f× | %s |\n", r.parts, x.cold, x.memory, x.warm, x.onePage, floor)
		} else {
			fmt.Fprintf(&b, "| %d | - | - | - | - | %s |\n", r.parts, floor)
		}
	}

	b.WriteString("\n## Save to reload under serve\n\n")
	b.WriteString("`kakehashi serve` on the same corpus; each edit appends a line to one part (four parts in turn, both languages), after one untimed warm-up edit. Reload: from just before the write to the arrival of the `reload` event on `/_kakehashi/events`. Page: until the changed page, fetched over HTTP right after the event, holds the new line.\n\n")
	b.WriteString("| Parts per language | Edits | Reload median | Reload max | Page median | Page max | First build to first event | serve peak RSS |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rep.results {
		if rr := r.reload; rr != nil && len(rr.reload.samples) > 0 {
			fmt.Fprintf(&b, "| %d | %d | %s | %s | %s | %s | %s | %s |\n", r.parts, len(rr.reload.samples), msecs(rr.reload.median()), msecs(rr.reload.max()),
				msecs(rr.page.median()), msecs(rr.page.max()), secs(rr.startup), mb(rr.rssKB))
		} else {
			fmt.Fprintf(&b, "| %d | 0 | - | - | - | - | - | - |\n", r.parts)
		}
	}

	b.WriteString("\n## The fixed time and the floor\n\n")
	b.WriteString("The floor is what these pages cost with goldmark and chroma alone: every article's markdown (front matter cut off) through goldmark (CommonMark, GFM tables, heading ids) and each code block through chroma's HTML formatter with CSS classes, the lexer picked by the fence's language name as kakehashi picks it, on every core, in a process that reads the article files and writes nothing; no templates, links, search, checks or output. Its peak RSS is the least memory a Go process with these two libraries needs for these pages. \"Each block once\" highlights a block met again (the two languages of a part share theirs) once, as kakehashi's highlighter does.\n\n")
	if len(rep.startup.samples) > 0 {
		fmt.Fprintf(&b, "A kakehashi process's start and end (`kakehashi version`): %s (median of %d).\n\n", msecs(rep.startup.median()), len(rep.startup.samples))
	}
	if rows := rep.fixedRows(); len(rows) > 0 {
		b.WriteString("Fixed time and time per article page, from a straight line through the medians at the smallest and the largest size (a negative fixed time: the build grows faster than the number of pages):\n\n| Build | Fixed | Per page |\n| --- | ---: | ---: |\n")
		for _, row := range rows {
			fmt.Fprintf(&b, "| %s | %s | %.2f ms |\n", row.name, secs(row.fixed), ms(row.perPage))
		}
		b.WriteString("\n")
	}
	for _, r := range rep.results {
		fmt.Fprintf(&b, "### `kakehashi build --timings`, %d parts per language (cold)\n\n", r.parts)
		switch {
		case r.timingsNote != "":
			fmt.Fprintf(&b, "Not measured: %s.\n\n", r.timingsNote)
		case r.timings != "":
			fmt.Fprintf(&b, "```text\n%s\n```\n\n", r.timings)
		default:
			b.WriteString("It printed nothing.\n\n")
		}
	}

	b.WriteString(`## Method

- The corpus is made by package ` + "`build/internal/corpus`" + ` from the course's own articles:
  N parts per language, each with its own code blocks, shared byte for byte
  by the ja and ko versions of a part; ` + "`go run ./build/internal/cmd/corpus -n N DIR`" + `
  (add ` + "`-hugo`" + ` for the Hugo site) writes the same files.
- Hugo is the binary ` + "`HUGO`" + ` names, else the newest, which
  ` + "`" + hugoScript + "`" + ` builds beside the checkout, else hugo on PATH
  (the report then says it may not be the newest).
- kakehashi cold: ` + "`kakehashi build -s SITE -d OUT`" + ` (its summary and
  warnings printed, as an author runs it) with
  SITE/.kakehashi-cache removed first and OUT a new folder. Warm: the same
  command again into the last OUT, nothing changed. One page: a line
  appended to one part, then the same command.
- Hugo: ` + "`hugo -s SITE -d OUT`" + ` (its summary printed) with OUT a new folder, on an equivalent
  multilingual configuration (ja and ko content folders, highlighting with
  CSS classes, a table of contents of h2–h4, translation links and hreflang
  alternates, previous/next, beside each article the series list that
  kakehashi's theme shows (a window of parts around the article in a long
  series); no taxonomy pages, which kakehashi does not make).
- The two tools' cold builds alternate; each build's output is checked for
  every part's page in both languages.
- serve: ` + "`kakehashi serve -s SITE --bind 127.0.0.1 --port 0`" + `, its event
  stream read as the browser's live.js reads it; the edited parts are
  restored when the server has stopped.
- Every cold build, of either tool, writes a folder no earlier run used, and
  no output is deleted before the bench ends (about 0.3 GB per 1,000-part
  build). On ext4 without a journal, inodes freed in the last few minutes
  are skipped when new ones are allocated: deleting the last run's output
  just before a build added 1 to 3 s of kernel time to it, more with each
  run, which no real build pays. For the same reason, leave a few minutes
  between two benches: the first one's scratch folder is deleted when it
  ends.
- Peak memory is the child's ru_maxrss (` + "`ProcessState.SysUsage()`" + `).
- A target is judged only on a quiet machine: other work (other processes'
  CPU and the hypervisor's steal, from /proc/stat less the bench's own
  rusage) at most ` + fmt.Sprintf("%.2f", busyCores) + ` cores on average, and a 1-minute load
  average at most ` + fmt.Sprintf("%.1f", busyLoad) + ` at the start; else every target is "not
  judged", and ` + "`BENCH_STRICT=1`" + ` makes the command fail.
`)
	return b.String()
}
