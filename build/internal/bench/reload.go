package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// reloadResult is what serve's save-to-reload measurement found at one
// size.
type reloadResult struct {
	// reload is the time from just before each write to the arrival of
	// its reload event; page the time until the changed page, fetched
	// right after the event, held the new line.
	reload, page series
	// rssKB is the server's peak resident set size over its whole run.
	rssKB int64
	// startup is the time from starting serve to its first event (the
	// first build, in memory).
	startup time.Duration
}

// Waits of the save-to-reload measurement: far above any time measured,
// there only so that a hung server ends the bench with an error.
const (
	serveStartWait  = 3 * time.Minute
	serveEventWait  = 30 * time.Second
	serveStopWait   = 10 * time.Second
	servePageWait   = 10 * time.Second
	servePageRepoll = 2 * time.Millisecond
	// serveSettle is how long the server must stay quiet after an edit's
	// page is there before the next edit: well past the watcher's debounce.
	serveSettle = 250 * time.Millisecond
)

// bannerURL finds the address in serve's banner ("… at http://127.0.0.1:PORT/ …").
var bannerURL = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/`)

// timedEvent is an event and when it arrived.
type timedEvent struct {
	ev  sseEvent
	at  time.Time
	err error // the stream ended
}

// reloadRuns starts "kakehashi serve" on site (a free port, 127.0.0.1),
// subscribes to its event stream as the browser's live.js does, and edits
// parts (paths relative to site) in turn, one warm-up edit and then
// edits timed ones: each appends a line to a part and times the reload
// event and the page holding the line. Every part is restored after the
// server has stopped.
func (b *bench) reloadRuns(ctx context.Context, site string, parts []string, edits int) (res reloadResult, err error) {
	res.reload.name, res.page.name = "serve save to reload", "serve save to page"
	orig := make([][]byte, len(parts))
	for i, rel := range parts {
		if orig[i], err = os.ReadFile(filepath.Join(site, filepath.FromSlash(rel))); err != nil {
			return res, err
		}
	}
	defer func() {
		for i, rel := range parts {
			if werr := os.WriteFile(filepath.Join(site, filepath.FromSlash(rel)), orig[i], 0o644); werr != nil && err == nil {
				err = werr
			}
		}
	}()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.Command(b.kakehashi, "serve", "-s", site, "--bind", "127.0.0.1", "--port", "0")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return res, err
	}
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return res, err
	}
	defer func() {
		if serr := stopServe(cmd); serr != nil && err == nil {
			err = fmt.Errorf("kakehashi serve: %v\n%s", serr, stderr.String())
		}
		res.rssKB = peakRSS(cmd.ProcessState)
	}()
	fail := func(format string, args ...any) error {
		return fmt.Errorf("kakehashi serve: "+format+"\n%s", append(args, stderr.String())...)
	}

	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u := bannerURL.FindString(sc.Text()); u != "" {
				select {
				case urls <- u:
				default:
				}
			}
		}
		io.Copy(io.Discard, stdout)
		close(urls)
	}()
	var base string
	select {
	case u, ok := <-urls:
		if !ok {
			return res, fail("ended without printing its address")
		}
		base = u
	case <-time.After(serveStartWait):
		return res, fail("printed no address within %v", serveStartWait)
	case <-ctx.Done():
		return res, ctx.Err()
	}

	client := &http.Client{}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"_kakehashi/events", nil)
	if err != nil {
		return res, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return res, fail("event stream: %v", err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		return res, fail("event stream: %s, %s", resp.Status, ct)
	}
	events := make(chan timedEvent, 64)
	go func() {
		r := newSSEReader(resp.Body)
		for {
			ev, err := r.next()
			select {
			case events <- timedEvent{ev: ev, at: time.Now(), err: err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	wait := func(want string) (timedEvent, error) {
		timeout := time.After(serveEventWait)
		for {
			select {
			case te := <-events:
				switch {
				case te.err != nil:
					return te, fail("event stream ended: %v", te.err)
				case te.ev.name == want:
					return te, nil
				case te.ev.name == "error":
					return te, fail("the build failed: %s", te.ev.data)
				}
			case <-timeout:
				return timedEvent{}, fail("no %q event within %v", want, serveEventWait)
			case <-ctx.Done():
				return timedEvent{}, ctx.Err()
			}
		}
	}
	first, err := wait("ok")
	if err != nil {
		return res, err
	}
	res.startup = first.at.Sub(started)

	for i := 0; i <= edits; i++ {
		rel := parts[i%len(parts)]
		marker := fmt.Sprintf("serve-edit-%d", i)
		start := time.Now()
		if err := appendLine(filepath.Join(site, filepath.FromSlash(rel)), "\n"+marker+"\n"); err != nil {
			return res, err
		}
		ev, err := wait("reload")
		if err != nil {
			return res, err
		}
		if err := waitPage(ctx, client, base+pageURL(rel), marker); err != nil {
			return res, fail("%v", err)
		}
		done := time.Now()
		// A second event for the same edit (the watcher seeing its write
		// twice) must not be taken for the next edit's: let the server
		// settle and drop what it sent meanwhile.
		n, err := drain(events, serveSettle)
		if err != nil {
			return res, fail("event stream ended: %v", err)
		}
		if n > 0 {
			fmt.Fprintf(b.log, "bench: serve edit %d: %d more events after the reload\n", i, n)
		}
		if i == 0 {
			continue // the warm-up
		}
		res.reload.samples = append(res.reload.samples, sample{wall: ev.at.Sub(start)})
		res.page.samples = append(res.page.samples, sample{wall: done.Sub(start)})
		fmt.Fprintf(b.log, "bench: serve edit %d/%d %s: reload %.1f ms, page %.1f ms\n", i, edits, rel,
			ms(ev.at.Sub(start)), ms(done.Sub(start)))
	}
	return res, nil
}

// drain drops the events that arrive until none has for quiet, and says
// how many it dropped, or how the stream ended.
func drain(events <-chan timedEvent, quiet time.Duration) (int, error) {
	n := 0
	for {
		select {
		case te := <-events:
			if te.err != nil {
				return n, te.err
			}
			n++
		case <-time.After(quiet):
			return n, nil
		}
	}
}

// pageURL is the site-relative URL of a part's page: content/ja/cka/0001-x.md
// is ja/cka/0001-x/.
func pageURL(rel string) string {
	return strings.TrimSuffix(strings.TrimPrefix(rel, "content/"), ".md") + "/"
}

// waitPage fetches url until its body holds marker.
func waitPage(ctx context.Context, client *http.Client, url, marker string) error {
	deadline := time.Now().Add(servePageWait)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusOK && bytes.Contains(body, []byte(marker)) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %s, without %q after %v", url, resp.Status, marker, servePageWait)
		}
		time.Sleep(servePageRepoll)
	}
}

// stopServe interrupts serve as Ctrl-C does and waits for it to end,
// killing it when it takes too long.
func stopServe(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if err := cmd.Process.Signal(os.Interrupt); err != nil && !errors.Is(err, os.ErrProcessDone) {
		cmd.Process.Kill()
		<-done
		return err
	}
	select {
	case err := <-done:
		return err
	case <-time.After(serveStopWait):
		cmd.Process.Kill()
		<-done
		return fmt.Errorf("did not stop within %v of an interrupt", serveStopWait)
	}
}

// lockedBuffer is a bytes.Buffer safe for a child's writes and our reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
