package main

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

func TestSeriesStats(t *testing.T) {
	tests := []struct {
		walls            []time.Duration
		median, min, max time.Duration
	}{
		{[]time.Duration{3, 1, 2}, 2, 1, 3},
		{[]time.Duration{4, 1, 3, 2}, 2, 1, 4}, // (2+3)/2 in integer nanoseconds
		{[]time.Duration{7}, 7, 7, 7},
	}
	for _, tt := range tests {
		var s series
		for i, w := range tt.walls {
			s.samples = append(s.samples, sample{wall: w, rssKB: int64(i * 10)})
		}
		if s.median() != tt.median || s.min() != tt.min || s.max() != tt.max {
			t.Errorf("%v: median %v min %v max %v; want %v %v %v", tt.walls, s.median(), s.min(), s.max(), tt.median, tt.min, tt.max)
		}
		if want := int64((len(tt.walls) - 1) * 10); s.peakKB() != want {
			t.Errorf("%v: peak %d, want %d", tt.walls, s.peakKB(), want)
		}
	}
}

func TestBusy(t *testing.T) {
	at := func(busy, own, wall time.Duration) cpuSample {
		return cpuSample{busy: busy, own: own, wall: time.Unix(0, 0).Add(wall)}
	}
	s := time.Second
	tests := []struct {
		name string
		use  cpuUse
		busy bool
	}{
		{"only the bench", cpuBetween(at(0, 0, 0), at(400*s, 398*s, 200*s)), false},
		{"others a twentieth of a core", cpuBetween(at(0, 0, 0), at(410*s, 400*s, 200*s)), false},
		{"others half a core", cpuBetween(at(0, 0, 0), at(500*s, 400*s, 200*s)), true},
		{"own time counted past busy time", cpuBetween(at(0, 0, 0), at(100*s, 101*s, 200*s)), false},
		{"unknown", cpuUse{}, false},
	}
	for _, tt := range tests {
		m := machine{cores: 2, other: tt.use}
		if got := m.busy() != ""; got != tt.busy {
			t.Errorf("%s (%v): busy %v, want %v", tt.name, tt.use, got, tt.busy)
		}
	}
	if u := cpuBetween(at(0, 0, 0), at(500*s, 400*s, 200*s)); u.cores() != 0.5 {
		t.Errorf("100 s of other work over 200 s is %v cores, want 0.5", u.cores())
	}
}

// cpuNow reads real counters where it can: the bench's own work shows.
func TestCPUNow(t *testing.T) {
	a, ok := cpuNow()
	if !ok {
		t.Skip("no CPU counters on", runtime.GOOS)
	}
	for time.Since(a.wall) < 50*time.Millisecond {
	}
	b, _ := cpuNow()
	if b.own <= a.own || b.busy < a.busy {
		t.Errorf("after spinning: own %v → %v, busy %v → %v", a.own, b.own, a.busy, b.busy)
	}
}

func TestReadConfig(t *testing.T) {
	tests := []struct {
		sizes, runs string
		want        string // "" for an error
	}{
		{"", "", "[100 1000] 5"},
		{"10, 20", "3", "[10 20] 3"},
		{"0", "", ""},
		{"ten", "", ""},
		{"", "-1", ""},
	}
	for _, tt := range tests {
		t.Setenv("BENCH_SIZES", tt.sizes)
		t.Setenv("BENCH_RUNS", tt.runs)
		c, err := readConfig()
		if tt.want == "" {
			if err == nil {
				t.Errorf("%q/%q: no error", tt.sizes, tt.runs)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q/%q: %v", tt.sizes, tt.runs, err)
			continue
		}
		if got := fmt.Sprint(c.sizes, " ", c.runs); got != tt.want {
			t.Errorf("%q/%q: %s, want %s", tt.sizes, tt.runs, got, tt.want)
		}
	}
}
