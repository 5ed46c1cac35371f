package cache

import "sync"

// Tier is an in-memory cache tier: values by key, each valid while what it
// was made of has the same fingerprint. A Builder keeps one per kind of
// result (markdown renderings, finished pages, search indexes, feeds). It
// is safe for concurrent use; the zero Tier is empty and ready.
type Tier[V any] struct {
	mu sync.Mutex
	m  map[string]tierEntry[V]
}

type tierEntry[V any] struct {
	fp uint64
	v  V
}

// Get returns the value at key when it was made from fingerprint fp.
func (t *Tier[V]) Get(key string, fp uint64) (V, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.m[key]
	if !ok || e.fp != fp {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Put stores v, made from fingerprint fp, at key.
func (t *Tier[V]) Put(key string, fp uint64, v V) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]tierEntry[V]{}
	}
	t.m[key] = tierEntry[V]{fp: fp, v: v}
}

// Keep drops every entry whose key keep refuses.
func (t *Tier[V]) Keep(keep func(key string) bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k := range t.m {
		if !keep(k) {
			delete(t.m, k)
		}
	}
}

// Clear drops every entry.
func (t *Tier[V]) Clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	clear(t.m)
}

// Len is the number of entries.
func (t *Tier[V]) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
