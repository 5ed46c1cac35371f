package mdtest

import (
	"slices"
	"testing"
)

// TestParseSpecText pins how a spec.txt is read: the examples between the
// fences, their extensions, "→" as a tab, and the section of each.
func TestParseSpecText(t *testing.T) {
	src := "# Intro\n\ntext\n\n## Tables (extension)\n\n" +
		"```````````````````````````````` example table\n| a |\n| - |\n.\n<table>\n</table>\n````````````````````````````````\n\n" +
		"## Tabs\n\n```````````````````````````````` example\n→foo\n.\n<pre><code>foo\n</code></pre>\n````````````````````````````````\n"
	ex, err := ParseSpecText([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Example{
		{Markdown: "| a |\n| - |\n", HTML: "<table>\n</table>\n", Example: 1, Section: "Tables (extension)", Extensions: []string{"table"}},
		{Markdown: "\tfoo\n", HTML: "<pre><code>foo\n</code></pre>\n", Example: 2, Section: "Tabs"},
	}
	if !slices.EqualFunc(ex, want, func(a, b Example) bool {
		return a.Markdown == b.Markdown && a.HTML == b.HTML && a.Example == b.Example && a.Section == b.Section && slices.Equal(a.Extensions, b.Extensions)
	}) {
		t.Errorf("ParseSpecText = %+v, want %+v", ex, want)
	}
	if _, err := ParseSpecText([]byte("```````````````````````````````` example\nx\n")); err == nil {
		t.Error("an example never closed is no error")
	}
	all, err := GFM()
	if err != nil || len(all) != 672 || all[0].Section != "Tabs" || all[197].Section != "Tables (extension)" {
		t.Errorf("GFM(): %d examples (%v), first in %q", len(all), err, all[0].Section)
	}
}
