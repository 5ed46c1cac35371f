package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuNow samples the machine's busy CPU time (all processes and the
// kernel, steal included), the time stolen by the hypervisor, and the CPU
// time of this process and its finished children, from /proc/stat and
// getrusage. ok is false where they cannot be read.
func cpuNow() (s cpuSample, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return s, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return s, false
	}
	// user nice system idle iowait irq softirq steal (guest time is
	// inside user); /proc/stat counts in USER_HZ, 100 on Linux.
	var busy int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} {
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return s, false
		}
		busy += v
		if i == 8 {
			s.steal = time.Duration(v) * 10 * time.Millisecond
		}
	}
	s.busy = time.Duration(busy) * 10 * time.Millisecond
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) != nil {
			return s, false
		}
		s.own += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	s.wall = time.Now()
	return s, true
}
