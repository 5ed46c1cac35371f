// Reading a snapshot's entry back (entryReader), the other side of
// entryWriter.

package source

import (
	"encoding/binary"
	"math"
	"time"
	"unsafe"

	"github.com/kakehashi-dev/kakehashi/build/diag"
)

// entryReader reads what entryWriter wrote, keeping the first error.
type entryReader struct {
	b   []byte
	err error
}

func (r *entryReader) fail() {
	if r.err == nil {
		r.err = errSnapshot
	}
	r.b = nil
}

func (r *entryReader) byte() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *entryReader) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *entryReader) int() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count is a length: no more than the bytes left, each item taking one
// at least.
func (r *entryReader) count() int {
	n := r.uint()
	if n > uint64(len(r.b)) {
		r.fail()
		return 0
	}
	return int(n)
}

// str reads a string: the entry's bytes, not a copy (an entry is a
// store's value, never written to; see Store).
func (r *entryReader) str() string {
	n := r.count()
	if n == 0 {
		return ""
	}
	s := unsafe.String(&r.b[0], n)
	r.b = r.b[n:]
	return s
}

func (r *entryReader) bool() bool { return r.byte() == 1 }

func (r *entryReader) opt() (string, bool) {
	if !r.bool() {
		return "", false
	}
	return r.str(), true
}

func (r *entryReader) strs() []string {
	isSet := r.bool()
	n := r.count()
	if !isSet {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *entryReader) ints() []int {
	isSet := r.bool()
	n := r.count()
	if !isSet {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		out[i] = int(r.int())
	}
	return out
}

func (r *entryReader) strMap() map[string]string {
	isSet := r.bool()
	n := r.count()
	if !isSet {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := r.str()
		m[k] = r.str()
	}
	return m
}

func (r *entryReader) time() time.Time {
	var t time.Time
	if err := t.UnmarshalBinary([]byte(r.str())); err != nil {
		r.fail()
	}
	return t
}

// rest is the bytes after the fields: the file's, capped, so that an
// append to them never writes into the store.
func (r *entryReader) rest() []byte {
	b := r.b
	r.b = nil
	return b[:len(b):len(b)]
}

func (r *entryReader) diags() diag.List {
	n := r.count()
	if n == 0 {
		return nil
	}
	ds := make(diag.List, n)
	for i := range ds {
		d := &ds[i]
		d.Path = r.str()
		d.Line = int(r.int())
		d.Col = int(r.int())
		d.Msg = r.str()
		d.Severity = diag.Severity(r.int())
		d.Source = r.str()
		d.Context = r.strs()
		d.ContextStart = int(r.int())
		d.Code = r.str()
	}
	return ds
}

func (r *entryReader) meta(m *FrontMatter) {
	m.Title = r.str()
	m.Description = r.str()
	m.Summary = r.str()
	m.Series = r.str()
	m.Part = int(r.int())
	m.Date = r.time()
	m.Lastmod = r.time()
	m.Tags = r.strs()
	m.Draft = r.bool()
	m.Slug = r.str()
	m.Aliases = r.strs()
	if isSet, n := r.bool(), r.count(); isSet {
		m.Params = make(map[string]any, n)
		for range n {
			k := r.str()
			m.Params[k] = r.value(0)
		}
	}
	m.Translated.Date = r.time()
	m.Translated.Hash = r.str()
	m.TranslationOf = r.str()
	if isSet, n := r.bool(), r.count(); isSet {
		m.Pos = make(map[string]FieldPos, n)
		for range n {
			k := r.str()
			var p FieldPos
			p.Key = int(r.int())
			p.Off = int(r.int())
			p.Items = r.ints()
			m.Pos[k] = p
		}
	}
}

// maxValueDepth bounds the nesting of params a damaged entry could claim.
const maxValueDepth = 64

func (r *entryReader) value(depth int) any {
	if depth > maxValueDepth {
		r.fail()
		return nil
	}
	switch r.byte() {
	case valNil:
		return nil
	case valString:
		return r.str()
	case valBool:
		return r.bool()
	case valInt:
		return int(r.int())
	case valInt64:
		return r.int()
	case valUint64:
		return r.uint()
	case valFloat:
		if len(r.b) < 8 {
			r.fail()
			return nil
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
		r.b = r.b[8:]
		return v
	case valList:
		isSet, n := r.bool(), r.count()
		if !isSet {
			return []any(nil)
		}
		l := make([]any, n)
		for i := range l {
			l[i] = r.value(depth + 1)
		}
		return l
	case valMap:
		isSet, n := r.bool(), r.count()
		if !isSet {
			return map[string]any(nil)
		}
		m := make(map[string]any, n)
		for range n {
			k := r.str()
			m[k] = r.value(depth + 1)
		}
		return m
	case valTime:
		return r.time()
	}
	r.fail()
	return nil
}
