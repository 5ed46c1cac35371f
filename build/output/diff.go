package output

import (
	"bytes"
	"slices"
)

// Diff lists the paths of next whose bytes differ from prev's or that prev
// lacks, and the paths of prev missing from next. A lazy file is compared
// by its key, without making it. Both lists are sorted. It reads both
// sites' maps under their locks once: the authoring server diffs every
// file of the site after each edit.
func Diff(prev, next *Site) (changed, removed []string) {
	prev.mu.Lock()
	defer prev.mu.Unlock()
	if next != prev {
		next.mu.Lock()
		defer next.mu.Unlock()
	}
	for p, nl := range next.lazy {
		if pl, ok := prev.lazy[p]; !ok || pl.Key() != nl.Key() {
			changed = append(changed, p)
		}
	}
	for p, b := range next.files {
		if _, wasLazy := prev.lazy[p]; wasLazy {
			changed = append(changed, p)
			continue
		}
		if a, ok := prev.files[p]; !ok || !bytes.Equal(a, b) {
			changed = append(changed, p)
		}
	}
	for p := range prev.files {
		if !next.holds(p) {
			removed = append(removed, p)
		}
	}
	for p := range prev.lazy {
		if !next.holds(p) {
			removed = append(removed, p)
		}
	}
	slices.Sort(changed) // a few, where Paths would sort them all
	slices.Sort(removed)
	return changed, removed
}

// holds reports whether the site holds a file at p; the caller holds s.mu.
func (s *Site) holds(p string) bool {
	_, ok := s.files[p]
	_, lazy := s.lazy[p]
	return ok || lazy
}
