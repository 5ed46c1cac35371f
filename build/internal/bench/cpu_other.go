//go:build !linux

package main

// cpuNow is unknown outside Linux.
func cpuNow() (cpuSample, bool) { return cpuSample{}, false }
