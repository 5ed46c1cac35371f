package main

import (
	"os"
	"syscall"
)

// peakRSS is a finished child's maximum resident set size in KB, from its
// rusage (Linux reports ru_maxrss in kilobytes).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
