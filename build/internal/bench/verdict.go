package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The targets of issue 23, against the newest Hugo on the same corpus in
// one run.
const (
	// targetColdLarge and targetColdSmall are Hugo's cold build time ÷
	// kakehashi's, at least, at 1,000 and at 100 parts per language.
	targetColdLarge = 6.0
	targetColdSmall = 3.0
	// targetMemory is kakehashi's peak memory ÷ Hugo's, at most, at every
	// size.
	targetMemory = 0.2
	// targetWarm is Hugo's build time ÷ kakehashi's warm rebuild time, at
	// least, at 1,000 parts.
	targetWarm = 60.0
	// targetOnePage is the CLI's one-page rebuild, at most, at 1,000 parts.
	targetOnePage = 300 * time.Millisecond
	// targetReload is serve's save-to-reload (median), at most, at 1,000
	// parts.
	targetReload = 25 * time.Millisecond
)

// The sizes the targets name.
const (
	largeParts = 1000
	smallParts = 100
)

// Busy-machine thresholds: past either, the times do not say what the
// tools do and no target is judged.
const (
	// busyCores is other work, on average in cores, during the bench: a
	// sixth of a core takes a noticeable share from two builds that each
	// use every core.
	busyCores = 0.15
	// busyLoad is the 1-minute load average when the bench started.
	busyLoad = 0.5
)

// state is a target's outcome.
type state int

const (
	met state = iota
	notMet
	notJudged   // measured on a busy machine
	notMeasured // its size, Hugo or the measurement is missing
)

// targetResult is one target's line in the report.
type targetResult struct {
	what  string // the target, "cold build at least 6× faster than Hugo at 1,000 parts per language"
	got   string // what was measured, "" when nothing was
	state state
	why   string // why it was not judged or not measured
}

// verdict is the outcome as the report says it.
func (t targetResult) verdict() string {
	switch t.state {
	case met:
		return "met"
	case notMet:
		return "NOT met"
	case notJudged:
		return "not judged: " + t.why
	default:
		return "not measured: " + t.why
	}
}

// String is the target's line: what, what was measured, the verdict.
func (t targetResult) String() string {
	if t.got == "" {
		return t.what + ": " + t.verdict()
	}
	return t.what + ": " + t.got + ", " + t.verdict()
}

// busy is why the bench's times cannot be trusted (other work past
// busyCores, or the load at the start past busyLoad), or "" when the
// machine was quiet enough or that is unknown.
func (m machine) busy() string {
	var why []string
	if m.other.ok && m.other.cores() > busyCores {
		why = append(why, fmt.Sprintf("other work used %.2f cores on average", m.other.cores()))
	}
	if l, err := strconv.ParseFloat(m.loadBefore, 64); err == nil && l > busyLoad {
		why = append(why, fmt.Sprintf("the 1-minute load was %s at the start", m.loadBefore))
	}
	if len(why) == 0 {
		return ""
	}
	return "the machine was busy (" + strings.Join(why, ", ") + ")"
}

// busyLimits says what a quiet machine is.
func busyLimits() string {
	return fmt.Sprintf("a target is judged when other work used at most %.2f cores on average and the 1-minute load was at most %.1f at the start", busyCores, busyLoad)
}

// judge gives every target of issue 23 its verdict from the results; busy
// (machine.busy) turns each measured verdict into "not judged".
func judge(results []sizeResult, busy string) []targetResult {
	at := map[int]*sizeResult{}
	var sizes []int
	for i := range results {
		at[results[i].parts] = &results[i]
		sizes = append(sizes, results[i].parts)
	}
	var out []targetResult
	add := func(what string, parts int, measure func(r *sizeResult) (got string, ok bool, why string)) {
		t := targetResult{what: what}
		r := at[parts]
		switch {
		case r == nil:
			t.state, t.why = notMeasured, fmt.Sprintf("BENCH_SIZES has no %d", parts)
		default:
			got, ok, why := measure(r)
			t.got = got
			switch {
			case why != "":
				t.state, t.why = notMeasured, why
			case busy != "":
				t.state, t.why = notJudged, busy
			case ok:
				t.state = met
			default:
				t.state = notMet
			}
		}
		out = append(out, t)
	}
	cold := func(want float64) func(r *sizeResult) (string, bool, string) {
		return func(r *sizeResult) (string, bool, string) {
			x := r.ratios()
			if !x.ok {
				return "", false, "no Hugo"
			}
			return fmt.Sprintf("%.2f× (%s and %s)", x.cold, secs(r.hugo.median()), secs(r.cold.median())), x.cold >= want, ""
		}
	}
	add(fmt.Sprintf("cold build at least %.0f× faster than Hugo at %s parts per language", targetColdLarge, thousands(largeParts)), largeParts, cold(targetColdLarge))
	add(fmt.Sprintf("cold build at least %.0f× faster than Hugo at %s parts per language", targetColdSmall, thousands(smallParts)), smallParts, cold(targetColdSmall))
	memSizes := append([]int{smallParts, largeParts}, sizes...)
	seen := map[int]bool{}
	for _, n := range memSizes {
		if seen[n] {
			continue
		}
		seen[n] = true
		add(fmt.Sprintf("peak memory at most %.1f of Hugo's at %s parts per language", targetMemory, thousands(n)), n, func(r *sizeResult) (string, bool, string) {
			x := r.ratios()
			switch {
			case !x.ok:
				return "", false, "no Hugo"
			case x.memory == 0:
				return "", false, "no peak memory on this system"
			}
			got := fmt.Sprintf("%.2f (%s and %s", x.memory, mb(r.cold.peakKB()), mb(r.hugo.peakKB()))
			if f := r.floor.peakKB(); f > 0 {
				got += fmt.Sprintf("; goldmark + chroma alone %s, %.2f of Hugo's", mb(f), float64(f)/float64(r.hugo.peakKB()))
			}
			return got + ")", x.memory <= targetMemory, ""
		})
	}
	add(fmt.Sprintf("warm rebuild at least %.0f× faster than Hugo's build at %s parts per language", targetWarm, thousands(largeParts)), largeParts, func(r *sizeResult) (string, bool, string) {
		x := r.ratios()
		if !x.ok {
			return "", false, "no Hugo"
		}
		return fmt.Sprintf("%.1f× (%s and %s)", x.warm, secs(r.hugo.median()), secs(r.warm.median())), x.warm >= targetWarm, ""
	})
	add(fmt.Sprintf("one-page change rebuilt by the CLI in at most %s at %s parts per language", secs(targetOnePage), thousands(largeParts)), largeParts, func(r *sizeResult) (string, bool, string) {
		if len(r.onePage.samples) == 0 {
			return "", false, "no one-page rebuild"
		}
		return secs(r.onePage.median()), r.onePage.median() <= targetOnePage, ""
	})
	add(fmt.Sprintf("serve's save-to-reload (median) at most %s at %s parts per language", msecs(targetReload), thousands(largeParts)), largeParts, func(r *sizeResult) (string, bool, string) {
		if r.reload == nil || len(r.reload.reload.samples) == 0 {
			return "", false, "no serve edits (BENCH_SERVE_EDITS=0)"
		}
		s := r.reload.reload
		return fmt.Sprintf("%s (max %s)", msecs(s.median()), msecs(s.max())), s.median() <= targetReload, ""
	})
	return out
}

// thousands writes n with a comma every three digits: 1,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func msecs(d time.Duration) string { return fmt.Sprintf("%.1f ms", ms(d)) }
