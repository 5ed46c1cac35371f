package main

import (
	"fmt"
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
	tests := []struct {
		before, after string
		busy          bool
	}{
		{"0.50", "1.20", false},
		{"2.00", "2.00", false},
		{"2.10", "0.30", true},
		{"0.10", "9.00", true},
		{"", "", false},
	}
	for _, tt := range tests {
		m := machine{cores: 2, loadBefore: tt.before, loadAfter: tt.after}
		if got := m.busy() != ""; got != tt.busy {
			t.Errorf("load %q/%q: busy %v, want %v", tt.before, tt.after, got, tt.busy)
		}
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
