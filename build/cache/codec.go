package cache

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

// The persistent cache is written in a small binary format of its own:
// on a large site it holds tens of megabytes of page text, which
// encoding/gob took a third of a second to write, all of it after the
// pages were done. The encoding follows Data's types, field by field in
// their order, so that a field added to Data, Markdown, File or what they
// hold is kept without a line here: strings are a length then their
// bytes; an int64 or a uint64 is a varint, any other integer (lines,
// levels, counts of minutes) a varint that must fit in 32 bits; a bool is
// 0 or 1; a slice is its length then its items; a map is its length then
// its entries sorted by key, so equal caches are equal bytes. After the
// magic line comes the shape of those types (diskShape): a file written
// with other types reads as no cache, never as a wrong one.

// diskMagic starts every cache file; bump its version whenever the
// encoding changes (what Data holds is in diskShape, checked apart).
const diskMagic = "kakehashi-cache\x00v3\n"

// maxDepth bounds the nesting of slices a damaged file could claim (a
// table of contents is the deepest: a heading's children).
const maxDepth = 10

// ErrUnreadable reports a cache file that is not in this format or is cut
// short; the build that meets one is a cold build.
var ErrUnreadable = errors.New("build cache: unreadable")

var dataType = reflect.TypeFor[Data]()

// diskShape is the fingerprint of the shape of Data's types, written after
// the magic line (see shapeOf).
func diskShape() (uint64, error) { return shapeOf(dataType) }

// shapeOf is the fingerprint of the shape of the type t as the cache
// encodes it: every field's name and the kind of its type, down to the
// basic types; an error names a type the encoding cannot hold.
func shapeOf(t reflect.Type) (uint64, error) {
	h := NewHasher()
	seen := map[reflect.Type]bool{} // structs walked or being walked
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		h.Str(t.Kind().String())
		switch t.Kind() {
		case reflect.Struct:
			h.Str(t.String())
			if seen[t] {
				return nil // a heading's children are headings: named, not walked again
			}
			seen[t] = true
			for i := range t.NumField() {
				f := t.Field(i)
				if !f.IsExported() {
					return fmt.Errorf("build cache: %s.%s is not exported: the cache cannot hold it", t, f.Name)
				}
				h.Str(f.Name)
				if err := walk(f.Type); err != nil {
					return err
				}
			}
			h.Str("}")
		case reflect.Slice:
			return walk(t.Elem())
		case reflect.Map:
			if t.Key().Kind() != reflect.String {
				return fmt.Errorf("build cache: %s: map keys must be strings", t)
			}
			return walk(t.Elem())
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			return fmt.Errorf("build cache: %s: the cache cannot hold a %s", t, t.Kind())
		}
		return nil
	}
	if err := walk(t); err != nil {
		return 0, err
	}
	return h.Sum(), nil
}

type diskWriter struct {
	w       *bufio.Writer
	scratch [binary.MaxVarintLen64]byte
}

func (e *diskWriter) uint(v uint64) {
	n := binary.PutUvarint(e.scratch[:], v)
	e.w.Write(e.scratch[:n])
}

func (e *diskWriter) int(v int64) {
	n := binary.PutVarint(e.scratch[:], v)
	e.w.Write(e.scratch[:n])
}

func (e *diskWriter) str(s string) {
	e.uint(uint64(len(s)))
	e.w.WriteString(s)
}

// value writes v, of a type diskShape accepted.
func (e *diskWriter) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			e.value(v.Field(i))
		}
	case reflect.Slice:
		e.uint(uint64(v.Len()))
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return compareKeys(a, b) })
		e.uint(uint64(len(keys)))
		for _, k := range keys {
			e.str(k.String())
			e.value(v.MapIndex(k))
		}
	case reflect.String:
		e.str(v.String())
	case reflect.Bool:
		b := uint64(0)
		if v.Bool() {
			b = 1
		}
		e.uint(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.int(v.Int())
	default: // the unsigned integers
		e.uint(v.Uint())
	}
}

// Encode writes c to w.
func Encode(w io.Writer, c *Data) error { return encodeValue(w, diskMagic, c) }

// encodeValue writes magic, the shape of v's type and *v (v a pointer to
// a type shapeOf accepts) to w.
func encodeValue(w io.Writer, magic string, v any) error {
	rv := reflect.ValueOf(v).Elem()
	shape, err := shapeOf(rv.Type())
	if err != nil {
		return err
	}
	e := &diskWriter{w: bufio.NewWriterSize(w, 256<<10)}
	e.w.WriteString(magic)
	e.uint(shape)
	e.value(rv)
	return e.w.Flush()
}

// diskReader decodes what diskWriter wrote from one buffer; the first
// problem sticks in err and every later read returns zero values. With
// alias, its strings are the buffer's bytes, not copies: for a buffer
// that is never written to and lives as long as they do (a Store's).
type diskReader struct {
	b     []byte
	err   error
	alias bool
}

func (d *diskReader) fail() {
	if d.err == nil {
		d.err = ErrUnreadable
	}
	d.b = nil
}

func (d *diskReader) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *diskReader) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a number of items, each taking at least one byte, so a
// damaged count cannot make a huge allocation.
func (d *diskReader) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *diskReader) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	var s string
	if d.alias && n > 0 {
		s = unsafe.String(&d.b[0], n)
	} else {
		s = string(d.b[:n])
	}
	d.b = d.b[n:]
	return s
}

// value reads into v, settable and of a type diskShape accepted, what
// diskWriter.value wrote; depth is the nesting of slices so far. An empty
// slice reads as nil, a map as a map even when empty. A value that the
// writer would not have written (a bool other than 0 or 1, an integer out
// of its range) fails, so that whatever decodes is written back the same.
func (d *diskReader) value(v reflect.Value, depth int) {
	if d.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			d.value(v.Field(i), depth)
		}
	case reflect.Slice:
		n := d.count()
		if n == 0 {
			return
		}
		if depth >= maxDepth {
			d.fail()
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			d.value(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		n := d.count()
		m := reflect.MakeMapWithSize(v.Type(), n)
		for ; n > 0 && d.err == nil; n-- {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString(d.str())
			e := reflect.New(v.Type().Elem()).Elem()
			d.value(e, depth)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		v.SetString(d.str())
	case reflect.Bool:
		switch d.uint() {
		case 0:
		case 1:
			v.SetBool(true)
		default:
			d.fail()
		}
	case reflect.Int64:
		v.SetInt(d.int())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32:
		n := d.int()
		if n < math.MinInt32 || n > math.MaxInt32 || v.OverflowInt(n) {
			d.fail()
			return
		}
		v.SetInt(n)
	case reflect.Uint64:
		v.SetUint(d.uint())
	default: // the other unsigned integers
		n := d.uint()
		if n > math.MaxUint32 || v.OverflowUint(n) {
			d.fail()
			return
		}
		v.SetUint(n)
	}
}

// Decode reads a cache written by Encode.
func Decode(b []byte) (*Data, error) {
	c := &Data{}
	if err := decodeValue(b, diskMagic, c); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeValue reads into *v what encodeValue wrote with the same magic
// and a value of the same type.
func decodeValue(b []byte, magic string, v any) error {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return ErrUnreadable
	}
	rv := reflect.ValueOf(v).Elem()
	shape, err := shapeOf(rv.Type())
	if err != nil {
		return err
	}
	d := &diskReader{b: b[len(magic):]}
	if d.uint() != shape {
		return ErrUnreadable // written with other types
	}
	d.value(rv, 0)
	if d.err == nil && len(d.b) != 0 {
		d.fail() // trailing bytes: not a file this code wrote
	}
	return d.err
}
