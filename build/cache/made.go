package cache

import (
	"sync"

	"github.com/kakehashi-dev/kakehashi/build/output"
)

// MadeFile is a file a build makes from what fingerprint FP covers (a
// language's search index), kept in memory between builds at Key.
type MadeFile struct {
	Key  string
	Path string // its output path
	FP   uint64
	Make func() []byte
}

// PutEach writes each of files: the bytes t holds at its key, made from
// the same fingerprint, else the previous output's copy (through the
// persistent cache), else made afresh, the files to make at once, each on
// a goroutine of its own. What it writes it keeps in t. It returns each
// file's size by key (a reused file's as the previous build wrote it).
func (w *Writer) PutEach(t *Tier[[]byte], files []MadeFile) map[string]int {
	data := make([][]byte, len(files))
	reused := make([]bool, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		if b, ok := t.Get(f.Key, f.FP); ok {
			data[i] = b
			continue
		}
		if w.cache.Reuse(w.sink, f.Path, f.FP) {
			reused[i] = true
			continue
		}
		wg.Go(func() { data[i] = f.Make() })
	}
	wg.Wait()
	sizes := map[string]int{}
	for i, f := range files {
		if reused[i] {
			sizes[f.Key] = int(w.cache.PrevSize(f.Path))
			continue
		}
		t.Put(f.Key, f.FP, data[i])
		w.Put(f.Path, data[i])
		w.cache.Made(f.Path, f.FP, len(data[i]))
		sizes[f.Key] = len(data[i])
	}
	return sizes
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
