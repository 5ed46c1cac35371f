// Package timing records where a build's time goes, for `kakehashi build
// --timings`: the wall time of each stage the build runs one after the
// other, the time its workers spent per kind of page work (summed over
// the workers, so it may exceed the wall time of the stage that runs
// them), the time of each page, and of each template executed, as Hugo's
// --templateMetrics reports. A nil *Recorder records nothing, so the
// builder calls it unconditionally. It knows nothing of the builder.
package timing

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sync"
	"text/tabwriter"
	"time"
)

// Recorder collects one build's timings. Its methods are safe for
// concurrent use; on a nil Recorder they do nothing.
type Recorder struct {
	// now is the clock; time.Now unless a test sets another.
	now func() time.Time

	mu        sync.Mutex
	stages    []Span
	work      map[string]*Total
	pages     []Page
	templates map[string]*Total
}

// New returns an empty Recorder reading the clock now (time.Now when nil).
func New(now func() time.Time) *Recorder {
	if now == nil {
		now = time.Now
	}
	return &Recorder{now: now, work: map[string]*Total{}, templates: map[string]*Total{}}
}

// Span is a stage and its wall time.
type Span struct {
	Name string
	Wall time.Duration
}

// Total sums the durations of one kind of work.
type Total struct {
	Name  string
	Count int
	Sum   time.Duration
	Max   time.Duration
}

func (t *Total) add(d time.Duration) {
	t.Count++
	t.Sum += d
	t.Max = max(t.Max, d)
}

// Mean is the average duration, 0 for none.
func (t Total) Mean() time.Duration {
	if t.Count == 0 {
		return 0
	}
	return t.Sum / time.Duration(t.Count)
}

// Page is the time one page took, by step.
type Page struct {
	URL    string
	Source string // its markdown file, "" for a page without one
	// Markdown covers rendering its body and assembling its template data
	// (for a page rendered with its translations, its share of the
	// group's); Template its layout; Write handing it to the output.
	Markdown, Template, Write time.Duration
}

// Total is the page's time over every step.
func (p Page) Total() time.Duration { return p.Markdown + p.Template + p.Write }

// Clock is the time now on the recorder's clock; the zero time on a nil
// Recorder, where durations are then never recorded.
func (r *Recorder) Clock() time.Time {
	if r == nil {
		return time.Time{}
	}
	return r.now()
}

// Since is the time elapsed on the recorder's clock since t.
func (r *Recorder) Since(t time.Time) time.Duration {
	if r == nil {
		return 0
	}
	return r.now().Sub(t)
}

// Stage starts a stage; the function it returns ends it. Stages are
// listed in the order they started.
func (r *Recorder) Stage(name string) (end func()) {
	if r == nil {
		return func() {}
	}
	start := r.now()
	return func() {
		d := r.now().Sub(start)
		r.mu.Lock()
		r.stages = append(r.stages, Span{name, d})
		r.mu.Unlock()
	}
}

// Work adds d to the work of the given kind (per-page work done by the
// parallel workers).
func (r *Recorder) Work(kind string, d time.Duration) {
	if r == nil {
		return
	}
	r.mu.Lock()
	addTo(r.work, kind, d)
	r.mu.Unlock()
}

// Template adds one execution of the named template, which took d.
func (r *Recorder) Template(name string, d time.Duration) {
	if r == nil {
		return
	}
	r.mu.Lock()
	addTo(r.templates, name, d)
	r.mu.Unlock()
}

// Page records one page's times.
func (r *Recorder) Page(p Page) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.pages = append(r.pages, p)
	r.mu.Unlock()
}

func addTo(m map[string]*Total, name string, d time.Duration) {
	t := m[name]
	if t == nil {
		t = &Total{Name: name}
		m[name] = t
	}
	t.add(d)
}

// Report is what a Recorder collected, sorted for reading.
type Report struct {
	Stages    []Span  // in the order they started
	Work      []Total // the most time first
	Templates []Total // the most time first
	Pages     []Page  // the slowest first
}

// Report sorts what r collected; the zero Report for a nil Recorder.
func (r *Recorder) Report() Report {
	if r == nil {
		return Report{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := Report{Stages: slices.Clone(r.stages), Work: totals(r.work), Templates: totals(r.templates), Pages: slices.Clone(r.pages)}
	slices.SortStableFunc(rep.Pages, func(a, b Page) int {
		if c := cmp.Compare(b.Total(), a.Total()); c != 0 {
			return c
		}
		return cmp.Compare(a.URL, b.URL)
	})
	return rep
}

func totals(m map[string]*Total) []Total {
	out := make([]Total, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Total) int {
		if c := cmp.Compare(b.Sum, a.Sum); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// Write prints the report as aligned tables: the stages with their share
// of total, the page work, the templates, and the slowest pages (at
// most slowest of them).
func (rep Report) Write(w io.Writer, total time.Duration, slowest int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "stage\t%9s\t%5s\n", "wall", "share")
	for _, s := range rep.Stages {
		fmt.Fprintf(tw, "%s\t%9s\t%5s\n", s.Name, ms(s.Wall), share(s.Wall, total))
	}
	fmt.Fprintf(tw, "total\t%9s\t\n", ms(total))
	table := func(title string, ts []Total) {
		if len(ts) == 0 {
			return
		}
		fmt.Fprintf(tw, "\n%s\t%9s\t%5s\t%9s\t%9s\n", title, "sum", "count", "mean", "max")
		for _, t := range ts {
			fmt.Fprintf(tw, "%s\t%9s\t%5d\t%9s\t%9s\n", t.Name, ms(t.Sum), t.Count, ms(t.Mean()), ms(t.Max))
		}
	}
	table("page work, over all workers", rep.Work)
	table("template", rep.Templates)
	if n := min(slowest, len(rep.Pages)); n > 0 {
		fmt.Fprintf(tw, "\nslowest pages (%d of %d)\t%9s\t%9s\t%9s\t%9s\n", n, len(rep.Pages), "total", "markdown", "template", "write")
		for _, p := range rep.Pages[:n] {
			name := p.URL
			if p.Source != "" {
				name = p.Source
			}
			fmt.Fprintf(tw, "%s\t%9s\t%9s\t%9s\t%9s\n", name, ms(p.Total()), ms(p.Markdown), ms(p.Template), ms(p.Write))
		}
	}
	return tw.Flush()
}

// ms prints d in milliseconds, with one decimal under 100 ms.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	if f < 100 {
		return fmt.Sprintf("%.1f ms", f)
	}
	return fmt.Sprintf("%.0f ms", f)
}

// share is d as a percentage of total.
func share(d, total time.Duration) string {
	if total <= 0 {
		return ""
	}
	return fmt.Sprintf("%.0f%%", 100*float64(d)/float64(total))
}
