package cache

import (
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// MadeFile is a file a build makes from what fingerprint FP covers (a
// language's whole search index as one script), kept in memory between
// builds at Key.
type MadeFile struct {
	Key  string
	Path string // its output path
	FP   uint64
	Make func() []byte
}

// PutLazy puts into sink each of files as a file made when first read
// (output.NewLazy): the one t holds at its key, made from the same
// fingerprint, else a new one, kept in t. None is made here.
func PutLazy(sink output.LazySink, t *Tier[*output.Lazy], files []MadeFile) {
	for _, f := range files {
		sink.PutLazy(f.Path, t.GetOrMake(f.Key, f.FP, func() *output.Lazy { return output.NewLazy(f.FP, f.Make) }))
	}
}

// GetOrMake returns the value at key made from fingerprint fp, or else
// the one fn returns, stored at key.
func (t *Tier[V]) GetOrMake(key string, fp uint64, fn func() V) V {
	v, ok := t.Get(key, fp)
	if !ok {
		v = fn()
		t.Put(key, fp, v)
	}
	return v
}

// SearchTerms is what the search index keeps of a page between builds:
// its terms (search.Terms, encoded), made from what FP covers, so that a
// page that did not change is not tokenized again (Data.Search).
type SearchTerms struct {
	URL   string
	FP    uint64
	Terms string
}

// SearchTerms returns the terms the previous build kept for the page at
// url, when they were made from fingerprint fp.
func (c *Cache) SearchTerms(url string, fp uint64) (string, bool) {
	b, ok := c.record(searchPrefix+url, fp)
	if !ok || len(b) == 0 {
		return "", ok
	}
	// The store's bytes, which are never written to and last as long
	// as the process: no copy.
	return unsafe.String(&b[0], len(b)), true
}

// KeepSearchTerms records the terms of pages for the next build.
func (c *Cache) KeepSearchTerms(ts []SearchTerms) {
	if c == nil {
		return
	}
	for _, t := range ts {
		c.keep(searchPrefix+t.URL, t.FP, func() []byte { return []byte(t.Terms) })
	}
}

// AllSearchTerms are the terms the previous build kept, sorted by URL:
// for a tool that looks into a cache.
func (c *Cache) AllSearchTerms() []SearchTerms {
	if !c.Warm() {
		return nil
	}
	var out []SearchTerms
	for _, k := range c.store.Keys() {
		if url, ok := strings.CutPrefix(k, searchPrefix); ok {
			if b, ok := c.store.Get(k); ok && len(b) >= 8 {
				out = append(out, SearchTerms{URL: url, FP: binary.LittleEndian.Uint64(b), Terms: string(b[8:])})
			}
		}
	}
	slices.SortFunc(out, func(a, b SearchTerms) int { return strings.Compare(a.URL, b.URL) })
	return out
}

// PutMadeFunc writes file p made from fingerprint fp: the previous
// output's copy when it was made from the same, else what make returns,
// made only then. It returns the file's size.
func (w *Writer) PutMadeFunc(p string, fp uint64, make func() []byte) int {
	if w.cache.Reuse(w.sink, p, fp) {
		return int(w.cache.PrevSize(p))
	}
	data := make()
	w.Put(p, data)
	w.cache.Made(p, fp, len(data))
	return len(data)
}

// ReuseSet takes from the previous output the file at head, when it was
// made from fingerprint fp, with every file the previous build wrote
// under prefix (the set of files head names: a search index's manifest
// and its shards), each as it was. It reports whether it took them all,
// and their size; when it did not, the caller writes the set afresh
// (PutMade, which replaces what was taken).
func (w *Writer) ReuseSet(head string, fp uint64, prefix string) (int, bool) {
	c := w.cache
	if !c.Warm() {
		return 0, false
	}
	head, prefix = strings.TrimPrefix(head, "/"), strings.TrimPrefix(prefix, "/")
	if o, ok := c.prev[head]; !ok || o.FP != fp {
		return 0, false
	}
	set := map[string]uint64{head: fp}
	for p, o := range c.prev {
		if strings.HasPrefix(p, prefix) {
			set[p] = o.FP
		}
	}
	size := 0
	for p, fp := range set {
		if !c.Reuse(w.sink, p, fp) {
			return 0, false
		}
		size += int(c.PrevSize(p))
	}
	return size, true
}

// recordPrefix begins the keys of the records a build keeps for itself
// (Record, KeepRecord).
const recordPrefix = "r\x00"

// Record is what the previous build kept at key (KeepRecord), and the
// fingerprint it was made from.
func (c *Cache) Record(key string) (fp uint64, data []byte, ok bool) {
	if !c.Warm() {
		return 0, nil, false
	}
	b, ok := c.store.Get(recordPrefix + key)
	if !ok || len(b) < 8 {
		return 0, nil, false
	}
	return binary.LittleEndian.Uint64(b), b[8:], true
}

// KeepRecord keeps for the next build the record at key made from fp:
// the previous build's when it was made from the same, else what make
// returns, made only then. The record is the store's: read-only, and
// never decoded by the cache.
func (c *Cache) KeepRecord(key string, fp uint64, make func() []byte) {
	if c == nil {
		return
	}
	c.keep(recordPrefix+key, fp, make)
}

// KeepSearchTermsOf keeps for the next build the terms the previous build
// kept for the page at url, when they were made from fp, and reports
// whether it did.
func (c *Cache) KeepSearchTermsOf(url string, fp uint64) bool {
	if _, ok := c.record(searchPrefix+url, fp); !ok {
		return false
	}
	c.keep(searchPrefix+url, fp, nil)
	return true
}
