package cache

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"
)

// Store is a persistent map from keys to bytes, kept in a folder between
// processes, for what is large and changes little from one build to the
// next (the content as it was parsed: package source's Loader keeps it
// there). Its values are in a data file that only grows, each written
// once at its end, and an index says where each key's value is. Open
// reads the index and maps the data file into memory (or reads it, where
// it cannot be mapped): a value is taken as it is there, with no copy
// and no decoding until it is asked for. Save appends the values put
// since, then writes the index afresh; when the values no key names make
// more than half the data file, it writes the data file afresh too. A
// Store whose files are missing or damaged is empty: deleting them is
// always safe.
//
// Its methods are safe for concurrent use. The values Get returns are
// read-only (they may be mapped memory), valid for the life of the
// process.
type Store struct {
	fs        afero.Fs
	dir, name string
	// data, size, gen and index are set by OpenStore, and read
	// without a lock after.
	data  []byte          // the data file, as far as the index covers it
	size  int64           // the data file's length when the index was written
	gen   string          // names the data file
	index map[string]span // where each key's value is in data
	// fresh holds the values put since (key → []byte), read without a
	// lock by Get; mu orders the puts and the save.
	fresh sync.Map
	mu    sync.Mutex
	order []string // the keys put, in order
	// spill, in a store with no data file yet, is the new data file,
	// into which Put writes each value as it is put rather than keep it
	// until Save: a cold build's records are tens of megabytes. spilled
	// says where each went. Both are under mu.
	spill    *dataWriter
	spillGen string
	spilled  map[string]span
}

// span is where a value is in the data file.
type span struct{ off, n int64 }

// storeMagic starts every index; bump its version whenever the format
// changes.
const storeMagic = "kakehashi-store\x00v1\n"

// OpenStore opens the store name in dir on fsys; an empty one when it
// has no files there yet, or they cannot be read.
func OpenStore(fsys afero.Fs, dir, name string) *Store {
	s := &Store{fs: fsys, dir: dir, name: name, index: map[string]span{}}
	b, err := afero.ReadFile(fsys, s.indexFile())
	if err != nil {
		return s
	}
	gen, size, index, ok := decodeIndex(b)
	if !ok {
		return s
	}
	data, ok := mapFile(fsys, s.dataFile(gen), size)
	if !ok {
		return s
	}
	s.data, s.size, s.gen, s.index = data, size, gen, index
	return s
}

func (s *Store) indexFile() string { return filepath.Join(s.dir, s.name+".idx") }

func (s *Store) dataFile(gen string) string { return filepath.Join(s.dir, s.name+"."+gen+".dat") }

// Get returns the value of key: the one put since the store was opened,
// else the one it was saved with.
func (s *Store) Get(key string) ([]byte, bool) {
	if v, ok := s.fresh.Load(key); ok {
		return v.([]byte), true
	}
	if s.gen == "" {
		if v, ok := s.readSpilled(key); ok {
			return v, true
		}
	}
	sp, ok := s.index[key]
	if !ok {
		return nil, false
	}
	return s.data[sp.off : sp.off+sp.n : sp.off+sp.n], true
}

// Put sets the value of key, for Save to keep; the store owns value from
// then on.
func (s *Store) Put(key string, value []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spillPut(key, value) {
		return
	}
	if _, had := s.fresh.Swap(key, value); !had {
		s.order = append(s.order, key)
	}
}

// put is the value put at key since the store was opened.
func (s *Store) put(key string) ([]byte, bool) {
	v, ok := s.fresh.Load(key)
	if !ok {
		return nil, false
	}
	return v.([]byte), true
}

// Save keeps, for the next process, the values of the keys keep reports
// true for: those put since Open, and those it was opened with. It
// writes nothing when nothing changed. Failing to write is no error: the
// next process finds what it can, at worst an empty store.
func (s *Store) Save(keep func(key string) bool) { s.SaveWith(keep, nil) }

// SaveWith is Save with more values, which each gives put as they are
// written: each is in memory only until it is written (a cold build's
// whole content is too many to hold twice). The values Get returns are
// those of Put only.
func (s *Store) SaveWith(keep func(key string) bool, each func(put func(key string, value []byte))) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := make(map[string]span, len(s.index)+len(s.order))
	live, dropped := int64(0), false
	for k, sp := range s.index {
		if _, put := s.put(k); put {
			continue
		}
		if !keep(k) {
			dropped = true
			continue
		}
		next[k] = sp
		live += sp.n
	}
	var add []string
	for _, k := range s.order {
		if keep(k) {
			add = append(add, k)
		}
	}
	if s.fs.MkdirAll(s.dir, 0o755) != nil {
		return
	}
	gen, size := s.gen, s.size
	// Written afresh when there is no data file yet, or when more of it
	// is values no key names than values kept; else appended to, after
	// whatever a save cut short left past size.
	fresh := gen == "" || size-live > live+64<<10
	var w *dataWriter
	wrote := false
	if s.spill != nil {
		// The values put are in the new data file already.
		gen, w = s.spillGen, s.spill
		s.spill = nil
		for _, k := range add {
			if sp, ok := s.spilled[k]; ok {
				next[k] = sp
				wrote = true
			}
		}
	} else if fresh {
		gen = strconv.FormatInt(time.Now().UnixNano(), 36)
		w = newDataWriter(s.fs, s.dataFile(gen)+".tmp", 0)
		keys := make([]string, 0, len(next))
		for k := range next {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(next[a].off, next[b].off) })
		for _, k := range keys {
			sp := next[k]
			next[k] = w.write(s.data[sp.off : sp.off+sp.n])
		}
	} else {
		w = newDataWriter(s.fs, s.dataFile(gen), size)
	}
	wrote = wrote || fresh
	for _, k := range add {
		if v, ok := s.put(k); ok {
			next[k] = w.write(v)
			wrote = true
		}
	}
	if each != nil {
		each(func(k string, v []byte) {
			if keep(k) {
				next[k] = w.write(v)
				wrote = true
			}
		})
	}
	if !wrote && !dropped {
		w.abandon()
		if fresh {
			s.fs.Remove(s.dataFile(gen) + ".tmp") // a spill's, with nothing kept
		}
		return
	}
	end, err := w.close()
	if err != nil {
		return
	}
	if fresh && s.fs.Rename(s.dataFile(gen)+".tmp", s.dataFile(gen)) != nil {
		s.fs.Remove(s.dataFile(gen) + ".tmp")
		return
	}
	if writeFileReplacing(s.fs, s.indexFile(), encodeIndex(gen, end, next)) != nil {
		return
	}
	// The data files of other generations are no index's now.
	if entries, err := afero.ReadDir(s.fs, s.dir); err == nil {
		keepName := filepath.Base(s.dataFile(gen))
		for _, e := range entries {
			n := e.Name()
			if n != keepName && strings.HasPrefix(n, s.name+".") && (strings.HasSuffix(n, ".dat") || strings.HasSuffix(n, ".dat.tmp")) {
				s.fs.Remove(filepath.Join(s.dir, n))
			}
		}
	}
}

// dataWriter writes values one after the other into a data file, a
// buffer at a time, and says where each went; it keeps its first error.
type dataWriter struct {
	fs   afero.Fs
	f    afero.File
	buf  *bufio.Writer
	off  int64 // where the next value goes
	path string
	err  error
}

// newDataWriter opens the data file p on fsys to write after its first
// size bytes (a new file for 0), leaving what a save cut short past them
// where it is.
func newDataWriter(fsys afero.Fs, p string, size int64) *dataWriter {
	w := &dataWriter{fs: fsys, path: p, off: size}
	flags := os.O_RDWR | os.O_CREATE | os.O_TRUNC // read back: readSpilled
	if size > 0 {
		flags = os.O_WRONLY
	}
	f, err := fsys.OpenFile(p, flags, 0o644)
	if err == nil && size > 0 {
		var end int64
		if end, err = f.Seek(0, io.SeekEnd); err == nil && end < size {
			err = errIndex // shorter than the index says: not this store's
		}
		w.off = end
	}
	if err != nil {
		w.err = err
		if f != nil {
			f.Close()
		}
		return w
	}
	w.f, w.buf = f, bufio.NewWriterSize(f, 256<<10)
	return w
}

// write writes v and returns where it went.
func (w *dataWriter) write(v []byte) span {
	sp := span{w.off, int64(len(v))}
	if w.err == nil {
		_, w.err = w.buf.Write(v)
	}
	w.off += int64(len(v))
	return sp
}

// close flushes and closes the file, and returns its length.
func (w *dataWriter) close() (int64, error) {
	if w.f == nil {
		return 0, w.err
	}
	if err := w.buf.Flush(); w.err == nil {
		w.err = err
	}
	if err := w.f.Close(); w.err == nil {
		w.err = err
	}
	return w.off, w.err
}

// abandon closes the file, which nothing was written to.
func (w *dataWriter) abandon() {
	if w.f != nil {
		w.f.Close()
	}
}

// RemoveStores removes, from dir on fsys, the files of every store whose
// name starts with prefix but the store keep: those of other programs.
func RemoveStores(fsys afero.Fs, dir, prefix, keep string) {
	entries, err := afero.ReadDir(fsys, dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, prefix) && !strings.HasPrefix(n, keep+".") {
			fsys.Remove(filepath.Join(dir, n))
		}
	}
}

// writeFileReplacing writes file through a temporary file renamed into
// place.
func writeFileReplacing(fsys afero.Fs, file string, data []byte) error {
	tmp := file + ".tmp"
	if err := afero.WriteFile(fsys, tmp, data, 0o644); err != nil {
		fsys.Remove(tmp)
		return err
	}
	if err := fsys.Rename(tmp, file); err != nil {
		fsys.Remove(tmp)
		return err
	}
	return nil
}

// encodeIndex writes an index: the magic line, the data file's name and
// length, then each key (in no order) with its value's offset and
// length, and last the sum of all before it.
func encodeIndex(gen string, size int64, index map[string]span) []byte {
	room := len(storeMagic) + len(gen) + 32
	for k := range index {
		room += len(k) + 12
	}
	b := make([]byte, 0, room)
	b = append(b, storeMagic...)
	b = binary.AppendUvarint(b, uint64(len(gen)))
	b = append(b, gen...)
	b = binary.AppendUvarint(b, uint64(size))
	b = binary.AppendUvarint(b, uint64(len(index)))
	for k, sp := range index {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendUvarint(b, uint64(sp.off))
		b = binary.AppendUvarint(b, uint64(sp.n))
	}
	h := NewHasher()
	h.Bytes(b)
	return binary.LittleEndian.AppendUint64(b, h.Sum())
}

// errIndex is an index that is not one.
var errIndex = errors.New("build cache: a store's index is damaged")

// decodeIndex reads what encodeIndex wrote; false for anything else.
func decodeIndex(b []byte) (gen string, size int64, index map[string]span, ok bool) {
	if len(b) < len(storeMagic)+8 || !bytes.HasPrefix(b, []byte(storeMagic)) {
		return "", 0, nil, false
	}
	body, sum := b[:len(b)-8], binary.LittleEndian.Uint64(b[len(b)-8:])
	h := NewHasher()
	h.Bytes(body)
	if h.Sum() != sum {
		return "", 0, nil, false
	}
	r := byteReader{b: body[len(storeMagic):]}
	gen = r.str()
	size = int64(r.uint())
	n := r.uint()
	if r.err != nil || n > uint64(len(body)) {
		return "", 0, nil, false
	}
	index = make(map[string]span, n)
	for range n {
		k := r.str()
		off, l := r.uint(), r.uint()
		if r.err != nil || off+l > uint64(size) || off+l < off {
			return "", 0, nil, false
		}
		index[k] = span{int64(off), int64(l)}
	}
	if r.err != nil || len(r.b) != 0 || gen == "" || strings.ContainsAny(gen, `/\.`) {
		return "", 0, nil, false
	}
	return gen, size, index, true
}

// byteReader reads uvarints and strings from b, keeping the first error.
type byteReader struct {
	b   []byte
	err error
}

func (r *byteReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errIndex
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *byteReader) str() string {
	n := r.uint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errIndex
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// mapFile is the first size bytes of the file p on fsys, mapped into
// memory on the operating system's disk (mapOS), read elsewhere; false
// when the file is shorter, or cannot be read.
func mapFile(fsys afero.Fs, p string, size int64) ([]byte, bool) {
	if _, ok := fsys.(*afero.OsFs); ok {
		return mapOS(p, size)
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false
	}
	return b, true
}

// String names the store, for messages.
func (s *Store) String() string { return fmt.Sprintf("store %s in %s", s.name, s.dir) }

// Keys are the keys of the store, those put since it was opened
// included, sorted.
func (s *Store) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.index)+len(s.order))
	for k := range s.index {
		if _, ok := s.put(k); !ok {
			keys = append(keys, k)
		}
	}
	keys = append(keys, s.order...)
	slices.Sort(keys)
	return keys
}
