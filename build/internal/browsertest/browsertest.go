// Package browsertest starts a headless Chromium for tests, through
// chromedp. Without a browser the test is skipped, except under CI=true,
// where a missing browser is a failure.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Path finds the Chromium binary: $CHROMIUM, then the usual names.
func Path() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is one running Chromium with a tab.
type Browser struct {
	Ctx      context.Context
	mu       sync.Mutex
	console  []string
	requests []string
}

// Requests returns the URL of every request the page made so far.
func (b *Browser) Requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.requests...)
}

// Console returns the console errors and uncaught exceptions seen so far.
func (b *Browser) Console() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.console...)
}

// Options tune the browser.
type Options struct {
	DisableJS bool
	Timeout   time.Duration // default 60 s
}

// New starts Chromium with a fresh profile and returns a tab context that
// is cancelled when the test ends.
func New(t testing.TB, o Options) *Browser {
	t.Helper()
	bin := Path()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium found (install Debian's chromium or set $CHROMIUM); browser tests are required under CI=true")
		}
		t.Skip("no Chromium found; install chromium to run browser tests")
	}
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("allow-file-access-from-files", false),
		chromedp.WindowSize(1200, 900),
	}
	if o.DisableJS {
		opts = append(opts, chromedp.Flag("blink-settings", "scriptEnabled=false"))
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, o.Timeout)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	b := &Browser{Ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				msg := ""
				for _, a := range e.Args {
					msg += string(a.Value) + " " + a.Description
				}
				b.console = append(b.console, "console.error: "+msg)
			}
		case *network.EventRequestWillBeSent:
			if e.Request != nil {
				b.requests = append(b.requests, e.Request.URL)
			}
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.console = append(b.console, fmt.Sprintf("exception at %s:%d:%d: %s", d.URL, d.LineNumber+1, d.ColumnNumber+1, msg))
		}
	})
	if err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("enabling network events: %v", err)
	}
	return b
}
