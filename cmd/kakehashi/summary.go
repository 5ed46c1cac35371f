package main

import (
	"bytes"
	"fmt"
	"sort"
	"time"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/output"
)

// summaryText is the summary printed after a build.
func summaryText(s build.Summary) string {
	var b bytes.Buffer
	langs := make([]string, 0, len(s.Pages))
	for l := range s.Pages {
		if l != "" {
			langs = append(langs, l)
		}
	}
	sort.Strings(langs)
	for _, l := range langs {
		fmt.Fprintf(&b, "  %-3s %4d pages (%d articles)\n", l, s.Pages[l], s.Articles[l])
	}
	fmt.Fprintf(&b, "  parts: %d published, %d planned\n", s.PartsPublished, s.PartsPlanned)
	fmt.Fprintf(&b, "  code blocks: %d highlighted, %d reused from cache\n", s.HighlightRuns, s.HighlightHits)
	for _, l := range langs {
		if n, ok := s.SearchBytes[l]; ok {
			fmt.Fprintf(&b, "  search index %s: %s\n", l, output.HumanSize(int64(n)))
		}
	}
	if m := s.Wasm; m != nil {
		fmt.Fprintf(&b, "  calculators: calc.wasm %s; calc-x509.wasm %s (loaded only for a pasted certificate)\n", m.CalcSize(), m.CalcX509Size())
	}
	for _, name := range s.Overrides {
		fmt.Fprintf(&b, "  shortcode %q: the theme's template overrides the built-in\n", name)
	}
	fmt.Fprintf(&b, "  files: %d (%s)\n", s.Files, output.HumanSize(s.Bytes))
	fmt.Fprintf(&b, "  warnings: %d\n", len(s.Warnings))
	fmt.Fprintf(&b, "  time: %s", s.Elapsed.Round(time.Millisecond))
	return b.String()
}
