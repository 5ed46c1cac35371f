package output

import (
	"bytes"
	"slices"
)

// Diff lists the paths of next whose bytes differ from prev's or that prev
// lacks, and the paths of prev missing from next. A lazy file is compared
// by its key, without making it. Both lists are sorted.
func Diff(prev, next *Site) (changed, removed []string) {
	for _, p := range next.unsorted() {
		if nl, ok := next.Lazy(p); ok {
			if pl, ok := prev.Lazy(p); !ok || pl.Key() != nl.Key() {
				changed = append(changed, p)
			}
			continue
		}
		if _, wasLazy := prev.Lazy(p); wasLazy {
			changed = append(changed, p)
			continue
		}
		a, ok := prev.Get(p)
		b, _ := next.Get(p)
		if !ok || !bytes.Equal(a, b) {
			changed = append(changed, p)
		}
	}
	for _, p := range prev.unsorted() {
		if !next.has(p) {
			removed = append(removed, p)
		}
	}
	slices.Sort(changed) // a few, where Paths would sort them all
	slices.Sort(removed)
	return changed, removed
}

// unsorted is Paths in no order.
func (s *Site) unsorted() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.files)+len(s.lazy))
	for p := range s.files {
		out = append(out, p)
	}
	for p := range s.lazy {
		out = append(out, p)
	}
	return out
}

// has reports whether the site holds a file at p, a path as Paths gives it.
func (s *Site) has(p string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.files[p]
	_, lazy := s.lazy[p]
	return ok || lazy
}
