// Command kakehashi builds, serves, exports and checks a bilingual
// (Japanese and Korean) course site. It only parses flags and calls the
// packages under build/.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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
	stop()
	os.Exit(code)
}
