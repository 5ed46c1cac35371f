//go:build !linux

package main

import "os"

// peakRSS is unknown (0) outside Linux, where ru_maxrss has other units or
// does not exist.
func peakRSS(*os.ProcessState) int64 { return 0 }
