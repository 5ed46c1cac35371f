package site

import (
	"path"
	"strconv"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/source"
)

// FailedFiles is the set of the files ds holds errors of: the content
// files that did not load (Options.Failed).
func FailedFiles(ds diag.List) map[string]bool {
	out := map[string]bool{}
	for _, d := range ds.Errors() {
		if d.Path != "" {
			out[d.Path] = true
		}
	}
	return out
}

// Failed reports whether the file at path is one of the content files
// whose errors left them out of the site (Options.Failed): what is
// missing for want of it is not reported again.
func (s *Site) Failed(path string) bool { return s.failed[path] }

// FailedTwin reports whether the page of lang that would translate p, a
// page with a source file, is a file that did not load (Failed).
func (s *Site) FailedTwin(p *Page, lang string) bool {
	if p.Source == nil || len(s.failed) == 0 {
		return false
	}
	return s.failed[path.Join(contentRoot(p.Source), lang, p.Source.Rel)]
}

// failedPartFile reports whether a file that did not load may be the
// page of part n of sr in lang: a file or page folder of the series'
// folder of that language whose name starts with the part's number, as
// kakehashi new part names them ("05-ha-cluster.md").
func (s *Site) failedPartFile(sr *source.Series, n int, lang string) bool {
	dir := path.Join(path.Dir(path.Dir(sr.Path)), lang, sr.ID) + "/"
	for p := range s.failed {
		rest, ok := strings.CutPrefix(p, dir)
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		i := strings.IndexFunc(name, func(r rune) bool { return r < '0' || r > '9' })
		if i > 0 {
			if m, err := strconv.Atoi(name[:i]); err == nil && m == n {
				return true
			}
		}
	}
	return false
}

// seriesFailed reports whether a series file of the content root of sp
// did not load: a series of no file may be that file's.
func (s *Site) seriesFailed(sp *source.Page) bool {
	dir := path.Join(contentRoot(sp), source.SeriesDir) + "/"
	for p := range s.failed {
		if rest, ok := strings.CutPrefix(p, dir); ok && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// contentRoot is the content folder sp is in: its path without its
// language's folder and its path under it.
func contentRoot(sp *source.Page) string {
	p := sp.Path
	for range strings.Count(sp.Rel, "/") + 2 {
		p = path.Dir(p)
	}
	return p
}
