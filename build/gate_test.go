package build_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/internal/sitetest"
)

// TestSiteChecksIncremental edits the bundled course so that the checks
// of its translations find more and then less: after each edit a
// rebuild, which checks again only what changed (check.Memo), reports
// the warnings of a fresh build.
func TestSiteChecksIncremental(t *testing.T) {
	const ja, ko = "content/ja/cka/05-ha-cluster.md", "content/ko/cka/05-ha-cluster.md"
	s := sitetest.Test(t, "", sitetest.Course())
	s.Build()
	orig := s.Read(ko)
	steps := []struct {
		name string
		edit func()
	}{
		{"a translation's code block changed", func() { s.Replace(ko, "```bash\n", "```bash\necho changed\n") }},
		{"a translation's heading level changed", func() { s.Replace(ko, "### stacked etcd", "#### stacked etcd") }},
		{"nothing changed", func() {}},
		{"its original's code changed the same", func() { s.Replace(ja, "```bash\n", "```bash\necho changed\n") }},
		{"the translation unmarked", func() { s.WriteFile(ko, orig).Replace(ko, "translated: 2026-12-01 7f746a9efd63\n", "") }},
		{"the translation removed", func() { s.Remove(ko) }},
		{"the translation back", func() { s.WriteFile(ko, orig) }},
	}
	for _, st := range steps {
		st.edit()
		s.Build()
		var got, want []string
		for _, d := range s.Result().Summary.Warnings {
			got = append(got, d.Header())
		}
		for _, d := range s.Fresh().Summary.Warnings {
			want = append(want, d.Header())
		}
		if !slices.ContainsFunc(want, func(h string) bool { return strings.Contains(h, ko) }) && st.name != "the translation removed" {
			t.Errorf("%s: no warning about %s: the step checks nothing", st.name, ko)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the rebuild warns\n%q\na fresh build\n%q", st.name, got, want)
		}
	}
}
