package source

import (
	"encoding/binary"
	"errors"
	"math"
	"time"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// Store keeps what a Loader parsed between processes (Persist; its
// entries are saved into it by what Save returns): values by key, each
// taken as it is, never modified, and kept for the life of the process
// (the pages taken from it hold its bytes). package cache's Store is
// one.
type Store interface {
	Get(key string) ([]byte, bool)
}

// Persist makes the loader take the files it has not parsed yet from s,
// when s holds them as they are (the same size and time), instead of
// reading and parsing them again: a new process's first Load then reads
// only the files that changed since the last process saved (Save). A
// page taken from s also has the hash and the summary that process
// computed (Page.Hashed, Summarized): the functions given to those must
// be the same in every process that shares s, as they are in one
// program (the caller keys s by its executable).
func (l *Loader) Persist(s Store) { l.store = s }

// Save returns what the store given to Persist is to keep, the files
// the last Load found (but those in error, which are read again), and
// each, which gives put the entries to save into it: every file the
// loader parsed since, and every page whose hash or summary was computed
// since, each encoded as it is given, so that they are never all in
// memory at once (cache.Store.SaveWith).
func (l *Loader) Save() (keep func(key string) bool, each func(put func(key string, value []byte))) {
	keep = func(k string) bool {
		e, ok := l.cache[k]
		return ok && (e.page != nil || e.series != nil) && len(e.diags.Errors()) == 0
	}
	each = func(put func(string, []byte)) {
		if l.store == nil {
			return
		}
		for p, e := range l.cache {
			if !e.dirty() {
				continue
			}
			if b, ok := encodeEntry(e); ok {
				put(p, b)
			}
		}
	}
	return keep, each
}

// dirty reports whether e is not in the store as it is now: parsed by
// this process, or a page given its hash or summary since it was taken
// from the store.
func (e *cached) dirty() bool {
	if e.page == nil && e.series == nil || len(e.diags.Errors()) > 0 {
		return false
	}
	if !e.restored {
		return true
	}
	p := e.page
	return p != nil && (!e.hadHash && p.hash.Load() != nil || !e.hadSummary && p.summary.Load() != nil)
}

// restore is the entry of the file p the store holds, when it is there
// as the store has it (mod and size); first is p's first folder under
// the content root, its language (the page keeps its path under it, as
// it was normalised).
func (l *Loader) restore(p, first string, mod time.Time, size int64) (cached, bool) {
	if l.store == nil {
		return cached{}, false
	}
	v, ok := l.store.Get(p)
	if !ok {
		return cached{}, false
	}
	e, err := decodeEntry(p, v)
	if err != nil || e.size != size || !e.mod.Equal(mod) {
		return cached{}, false
	}
	if e.page != nil {
		e.page.Lang, e.page.ModTime = first, e.mod
	}
	return e, true
}

// snapshotVersion starts every entry; bump it whenever the encoding, or
// what a page or a series holds, changes.
const snapshotVersion = 2

// The kinds of entries.
const (
	entryPage   = 1
	entrySeries = 2
)

// encodeEntry writes e, a page or a series file parsed: its stamp, its
// diagnostics, what was parsed, then the file's bytes, last, so that
// decoding takes them without a copy. It reports false for what it
// cannot hold (a front matter value of a type it does not know).
func encodeEntry(e cached) ([]byte, bool) {
	w := &entryWriter{}
	w.b = append(w.b, snapshotVersion)
	w.int(e.mod.UnixNano())
	w.int(e.size)
	w.diags(e.diags)
	var src []byte
	switch {
	case e.page != nil:
		p := e.page
		w.b = append(w.b, entryPage)
		w.str(p.Rel)
		w.int(int64(p.BodyStart))
		w.meta(&p.Meta)
		w.opt(p.hash.Load())
		w.opt(p.summary.Load())
		w.b = binary.LittleEndian.AppendUint64(w.b, p.Sum())
		src = p.Src
	case e.series != nil:
		s := e.series
		w.b = append(w.b, entrySeries)
		w.str(s.ID)
		w.strMap(s.Title)
		w.strMap(s.Description)
		w.uint(uint64(len(s.Parts)))
		for _, pt := range s.Parts {
			w.int(int64(pt.Number))
			w.strMap(pt.Title)
			w.str(pt.State)
			w.int(int64(pt.Off))
		}
		src = s.Src
	default:
		return nil, false
	}
	if w.bad {
		return nil, false
	}
	return append(w.b, src...), true
}

// decodeEntry reads what encodeEntry wrote of the file p.
func decodeEntry(p string, b []byte) (cached, error) {
	r := &entryReader{b: b}
	if r.byte() != snapshotVersion {
		return cached{}, errSnapshot
	}
	e := cached{restored: true}
	e.mod = time.Unix(0, r.int())
	e.size = r.int()
	e.diags = r.diags()
	switch r.byte() {
	case entryPage:
		pg := &Page{Path: p}
		pg.Rel = r.str()
		pg.BodyStart = int(r.int())
		r.meta(&pg.Meta)
		if h, ok := r.opt(); ok {
			pg.hash.Store(&h)
			e.hadHash = true
		}
		if s, ok := r.opt(); ok {
			pg.summary.Store(&s)
			e.hadSummary = true
		}
		if len(r.b) < 8 {
			return cached{}, errSnapshot
		}
		pg.sum.Store(binary.LittleEndian.Uint64(r.b))
		r.b = r.b[8:]
		pg.Src = r.rest()
		if pg.BodyStart < 0 || pg.BodyStart > len(pg.Src) {
			return cached{}, errSnapshot
		}
		e.page = pg
	case entrySeries:
		s := &Series{Path: p}
		s.ID = r.str()
		s.Title = r.strMap()
		s.Description = r.strMap()
		n := r.count()
		for range n {
			var pt SeriesPart
			pt.Number = int(r.int())
			pt.Title = r.strMap()
			pt.State = r.str()
			pt.Off = int(r.int())
			s.Parts = append(s.Parts, pt)
		}
		s.Src = r.rest()
		e.series = s
	default:
		return cached{}, errSnapshot
	}
	if r.err != nil {
		return cached{}, r.err
	}
	return e, nil
}

// errSnapshot is an entry that is not one this program wrote.
var errSnapshot = errors.New("source: a damaged entry in the store")

// entryWriter appends an entry's fields to b; bad records a value it
// cannot hold.
type entryWriter struct {
	b   []byte
	bad bool
}

func (w *entryWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *entryWriter) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }

func (w *entryWriter) str(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *entryWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *entryWriter) opt(s *string) {
	w.bool(s != nil)
	if s != nil {
		w.str(*s)
	}
}

func (w *entryWriter) strs(ss []string) {
	w.bool(ss != nil)
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

func (w *entryWriter) ints(is []int) {
	w.bool(is != nil)
	w.uint(uint64(len(is)))
	for _, i := range is {
		w.int(int64(i))
	}
}

// strMap writes a map of strings, its keys in no order (decoding makes
// the same map).
func (w *entryWriter) strMap(m map[string]string) {
	w.bool(m != nil)
	w.uint(uint64(len(m)))
	for k, v := range m {
		w.str(k)
		w.str(v)
	}
}

func (w *entryWriter) time(t time.Time) {
	b, err := t.MarshalBinary()
	if err != nil {
		w.bad = true
	}
	w.str(string(b))
}

func (w *entryWriter) diags(ds diag.List) {
	w.uint(uint64(len(ds)))
	for _, d := range ds {
		w.str(d.Path)
		w.int(int64(d.Line))
		w.int(int64(d.Col))
		w.str(d.Msg)
		w.int(int64(d.Severity))
		w.str(d.Source)
		w.strs(d.Context)
		w.int(int64(d.ContextStart))
		w.str(d.Code)
	}
}

func (w *entryWriter) meta(m *FrontMatter) {
	w.str(m.Title)
	w.str(m.Description)
	w.str(m.Summary)
	w.str(m.Series)
	w.int(int64(m.Part))
	w.time(m.Date)
	w.time(m.Lastmod)
	w.strs(m.Tags)
	w.bool(m.Draft)
	w.str(m.Slug)
	w.strs(m.Aliases)
	w.bool(m.Params != nil)
	w.uint(uint64(len(m.Params)))
	for k, v := range m.Params {
		w.str(k)
		w.value(v)
	}
	w.time(m.Translated.Date)
	w.str(m.Translated.Hash)
	w.str(m.TranslationOf)
	w.bool(m.Pos != nil)
	w.uint(uint64(len(m.Pos)))
	for k, p := range m.Pos {
		w.str(k)
		w.int(int64(p.Key))
		w.int(int64(p.Off))
		w.ints(p.Items)
	}
}

// The kinds of front matter values (entryWriter.value).
const (
	valNil = iota
	valString
	valBool
	valInt
	valInt64
	valUint64
	valFloat
	valList
	valMap
	valTime
)

// value writes a value of the front matter's params as the YAML, TOML
// and JSON decoders give them, keeping its type.
func (w *entryWriter) value(v any) {
	switch v := v.(type) {
	case nil:
		w.b = append(w.b, valNil)
	case string:
		w.b = append(w.b, valString)
		w.str(v)
	case bool:
		w.b = append(w.b, valBool)
		w.bool(v)
	case int:
		w.b = append(w.b, valInt)
		w.int(int64(v))
	case int64:
		w.b = append(w.b, valInt64)
		w.int(v)
	case uint64:
		w.b = append(w.b, valUint64)
		w.uint(v)
	case float64:
		w.b = append(w.b, valFloat)
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
	case []any:
		w.b = append(w.b, valList)
		w.bool(v != nil)
		w.uint(uint64(len(v)))
		for _, x := range v {
			w.value(x)
		}
	case map[string]any:
		w.b = append(w.b, valMap)
		w.bool(v != nil)
		w.uint(uint64(len(v)))
		for k, x := range v {
			w.str(k)
			w.value(x)
		}
	case time.Time:
		w.b = append(w.b, valTime)
		w.time(v)
	default:
		w.bad = true // the page is parsed again in each process
	}
}
