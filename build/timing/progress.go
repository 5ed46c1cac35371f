package timing

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progressMin is the fewest pages worth a progress line: a smaller site
// is built before a reader would see one.
const progressMin = 200

// Progress shows "rendering 120/2000 pages" on a terminal, at most every
// tenth of a second, and nothing elsewhere (a pipe, a file, TERM=dumb).
type Progress struct {
	w     io.Writer
	on    bool
	last  time.Time
	shown bool
}

// NewProgress is a progress line on w, shown only when w is a terminal
// and not quiet.
func NewProgress(w io.Writer, quiet bool) *Progress {
	p := &Progress{w: w}
	if f, ok := w.(*os.File); ok && !quiet {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			p.on = true
		}
	}
	return p
}

// Update shows done pages of total (build.Options.Progress).
func (p *Progress) Update(done, total int) {
	if !p.on || total < progressMin {
		return
	}
	if now := time.Now(); now.Sub(p.last) > 100*time.Millisecond || done == total {
		p.last = now
		fmt.Fprintf(p.w, "\rrendering %d/%d pages", done, total)
		p.shown = true
	}
}

// Clear blanks the line if one was shown, before what is printed next.
func (p *Progress) Clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", 40)+"\r")
	}
}
