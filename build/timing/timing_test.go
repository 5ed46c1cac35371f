package timing

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock advances by step on every reading.
type fakeClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

func TestRecorder(t *testing.T) {
	c := &fakeClock{step: time.Millisecond}
	r := New(c.now)
	end := r.Stage("content")
	end() // one step: 1 ms
	c.step = 3 * time.Millisecond
	r.Stage("pages")()
	r.Work("markdown", 5*time.Millisecond)
	r.Work("markdown", 7*time.Millisecond)
	r.Work("search", 20*time.Millisecond)
	r.Template("a.html", 2*time.Millisecond)
	r.Template("b.html", time.Millisecond)
	r.Template("b.html", 4*time.Millisecond)
	r.Page(Page{URL: "/fast/", Markdown: time.Millisecond})
	r.Page(Page{URL: "/slow/", Source: "content/slow.md", Markdown: 2 * time.Millisecond, Template: 2 * time.Millisecond, Write: time.Millisecond})
	r.Page(Page{URL: "/mid/", Template: 3 * time.Millisecond})

	rep := r.Report()
	if len(rep.Stages) != 2 || rep.Stages[0] != (Span{"content", time.Millisecond}) || rep.Stages[1] != (Span{"pages", 3 * time.Millisecond}) {
		t.Errorf("stages = %v", rep.Stages)
	}
	if rep.Work[0].Name != "search" || rep.Work[1] != (Total{"markdown", 2, 12 * time.Millisecond, 7 * time.Millisecond}) {
		t.Errorf("work = %v", rep.Work)
	}
	if rep.Work[1].Mean() != 6*time.Millisecond {
		t.Errorf("mean = %v", rep.Work[1].Mean())
	}
	if rep.Templates[0] != (Total{"b.html", 2, 5 * time.Millisecond, 4 * time.Millisecond}) || rep.Templates[1].Name != "a.html" {
		t.Errorf("templates = %v", rep.Templates)
	}
	var urls []string
	for _, p := range rep.Pages {
		urls = append(urls, p.URL)
	}
	if got := strings.Join(urls, " "); got != "/slow/ /mid/ /fast/" {
		t.Errorf("pages, slowest first = %s", got)
	}

	var out bytes.Buffer
	if err := rep.Write(&out, 10*time.Millisecond, 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"content     1.0 ms    10%",
		"pages       3.0 ms    30%",
		"total      10.0 ms",
		"b.html",
		"slowest pages (2 of 3)",
		"content/slow.md",
		"/mid/",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "/fast/") {
		t.Errorf("report lists more pages than asked:\n%s", out.String())
	}
}

// TestNilRecorder: a build without --timings calls the same methods on a
// nil Recorder, which records nothing and never reads the clock.
func TestNilRecorder(t *testing.T) {
	var r *Recorder
	r.Stage("x")()
	r.Work("x", time.Second)
	r.Template("x", time.Second)
	r.Page(Page{URL: "/"})
	if !r.Clock().IsZero() || r.Since(time.Now()) != 0 {
		t.Error("a nil Recorder read the clock")
	}
	if rep := r.Report(); len(rep.Stages)+len(rep.Work)+len(rep.Templates)+len(rep.Pages) != 0 {
		t.Errorf("a nil Recorder reported %v", rep)
	}
}

// TestConcurrent: the workers record at once (run with -race).
func TestConcurrent(t *testing.T) {
	r := New(nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				r.Work("markdown", time.Microsecond)
				r.Page(Page{URL: "/"})
				r.Template("t", time.Microsecond)
			}
		})
	}
	wg.Wait()
	rep := r.Report()
	if rep.Work[0].Count != 800 || len(rep.Pages) != 800 || rep.Templates[0].Count != 800 {
		t.Errorf("lost records: %d work, %d pages, %d templates", rep.Work[0].Count, len(rep.Pages), rep.Templates[0].Count)
	}
}

// TestProgress: the line is drawn on a terminal only, for a site large
// enough, the last page always, and cleared once shown.
func TestProgress(t *testing.T) {
	var b strings.Builder
	off := NewProgress(&b, false) // not a terminal
	off.Update(progressMin, progressMin)
	off.Clear()
	if b.Len() != 0 {
		t.Errorf("not a terminal: %q", b.String())
	}
	p := &Progress{w: &b, on: true}
	p.Update(1, progressMin-1)
	if b.Len() != 0 {
		t.Errorf("a small site: %q", b.String())
	}
	p.Update(1, 300)
	p.Update(2, 300) // within a tenth of a second: not drawn
	p.Update(300, 300)
	p.Clear()
	if want := "\rrendering 1/300 pages\rrendering 300/300 pages\r" + strings.Repeat(" ", 40) + "\r"; b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}
