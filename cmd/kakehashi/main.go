// Command kakehashi builds, serves, exports and checks a bilingual
// (Japanese and Korean) course site. It only parses flags and calls the
// packages under build/.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"
)

// grace is how long a command may go on after an interrupt before the
// process ends without it.
const grace = time.Second

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go onSignal(sigs, cancel, os.Stderr, grace, os.Exit)
	// KAKEHASHI_CPUPROFILE=file writes a CPU profile of the command, for
	// finding hot spots with go tool pprof.
	if p := os.Getenv("KAKEHASHI_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "kakehashi: KAKEHASHI_CPUPROFILE: %v\n", err)
			os.Exit(1)
		}
		defer f.Close()
	}
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	pprof.StopCPUProfile()
	// KAKEHASHI_MEMPROFILE=file writes the command's allocations (every
	// allocation since the start, sampled) for go tool pprof -sample_index.
	if p := os.Getenv("KAKEHASHI_MEMPROFILE"); p != "" {
		if err := writeAllocs(p); err != nil {
			fmt.Fprintf(os.Stderr, "kakehashi: KAKEHASHI_MEMPROFILE: %v\n", err)
		}
	}
	os.Exit(code)
}

// writeAllocs writes the allocation profile to the file p.
func writeAllocs(p string) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// onSignal stops the command at the first interrupt (Ctrl-C) or SIGTERM
// from sigs by cancelling its context: every command then ends on its own,
// releasing the site's lock and leaving its output as it was. A second
// signal, or a command still running grace after the first, ends the
// process at once through exit, with 128 plus the signal's number as the
// shells report it: the lock is the process's and goes with it, and the
// next build removes whatever a build cut short left.
func onSignal(sigs <-chan os.Signal, cancel func(), stderr io.Writer, grace time.Duration, exit func(int)) {
	first := <-sigs
	cancel()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case sig := <-sigs:
		fmt.Fprintf(stderr, "kakehashi: %v again: stopping at once\n", sig)
	case <-t.C:
		fmt.Fprintf(stderr, "kakehashi: still running %v after %v: stopping at once\n", grace, first)
	}
	exit(exitCode(first))
}

// exitCode is the status of a process ended by sig, as a shell reports
// one killed by it: 130 for an interrupt, 143 for SIGTERM.
func exitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}
