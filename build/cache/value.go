package cache

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// OptOut is the struct tag key by which a field says it does not count in
// a fingerprint made with Value: `fingerprint:"-"`. Value(v, "feed") also
// leaves out the fields tagged `feed:"-"`, and so on for any other key.
const OptOut = "fingerprint"

// Value adds v, plain data (structs, pointers, slices, maps, interfaces
// and basic values, with no cycle), field by field, as a template or a
// cache sees it: every exported field of a struct, in order, and none of
// its unexported ones (a template cannot read them), except a time.Time,
// added as the instant and zone it prints. Map entries are
// added in the order of their keys, so the sum does not depend on Go's
// map order, and it is the same in every run. A field tagged
// `fingerprint:"-"`, or "-" under any of the keys also given, is left
// out: it must be one that something else stands for.
func (h *Hasher) Value(v any, keys ...string) { h.ValueWith(nil, v, keys...) }

// ValueWith is Value learning from and into pl which fields of each
// struct type count, so that a type's fields are read once however many
// values of it are hashed; nil pl learns for this value only.
func (h *Hasher) ValueWith(pl *Plans, v any, keys ...string) {
	if pl == nil {
		pl = &Plans{}
	}
	keys = append([]string{OptOut}, keys...)
	set, _ := pl.m.LoadOrStore(strings.Join(keys, " "), &planSet{})
	w := walker{h: h, keys: keys, plans: pl, set: set.(*planSet)}
	w.value(reflect.ValueOf(v))
}

// Plans remembers which fields of each struct type count in a value
// (ValueWith), and the sums of values met through pointers again and
// again (Know). It is safe for concurrent use; its zero value is ready.
type Plans struct {
	m     sync.Map // the tag keys, joined → *planSet
	known sync.Map // knownKey → uint64
}

// planSet holds the plans of the struct types hashed with one set of tag
// keys.
type planSet struct {
	m sync.Map // reflect.Type → []int
}

// knownKey names the value a pointer points at.
type knownKey struct {
	t reflect.Type
	p uintptr
}

// Know makes the values hashed with pl stand for what the pointer p
// points at by sum, its own sum (made with the same keys), instead of
// walking it again: every page's data points at the same site. The
// value must not change while pl is in use.
func (pl *Plans) Know(p any, sum uint64) {
	v := reflect.ValueOf(p)
	pl.known.Store(knownKey{v.Type(), v.Pointer()}, sum)
}

var timeType = reflect.TypeFor[time.Time]()

// walker adds one value to h.
type walker struct {
	h     *Hasher
	keys  []string
	plans *Plans
	set   *planSet // the plans for keys
}

// plan lists the indexes of the fields of the struct type t that count.
func (w *walker) plan(t reflect.Type) []int {
	if p, ok := w.set.m.Load(t); ok {
		return p.([]int)
	}
	var p []int
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() && !optedOut(f, w.keys) {
			p = append(p, i)
		}
	}
	w.set.m.Store(t, p)
	return p
}

func (w *walker) value(v reflect.Value) {
	h := w.h
	switch v.Kind() {
	case reflect.Invalid:
		h.Str("nil")
	case reflect.Pointer:
		if v.IsNil() {
			h.Str("nil")
			return
		}
		h.Str("&")
		if sum, ok := w.plans.known.Load(knownKey{v.Type(), v.Pointer()}); ok {
			h.Num(int64(sum.(uint64)))
			return
		}
		w.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			h.Str("nil")
			return
		}
		h.Str(v.Elem().Type().String())
		w.value(v.Elem())
	case reflect.Struct:
		t := v.Type()
		if t == timeType {
			// The instant and the zone, all a template can print.
			tm := v.Interface().(time.Time)
			name, offset := tm.Zone()
			h.Num(tm.Unix())
			h.Num(int64(tm.Nanosecond()))
			h.Str(name)
			h.Num(int64(offset))
			return
		}
		// A struct's fields come in its type's order: nothing marks
		// them (each string ends in a separator, each list and map
		// starts with its length, each pointer says whether it is nil,
		// each interface names its type).
		for _, i := range w.plan(t) {
			w.value(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		h.Num(int64(v.Len()))
		for i := range v.Len() {
			w.value(v.Index(i))
		}
	case reflect.Map:
		h.Num(int64(v.Len()))
		if v.Type().Key().Kind() == reflect.String {
			// The common case, without a reflect.Value per key to sort.
			ks := make([]string, 0, v.Len())
			for it := v.MapRange(); it.Next(); {
				ks = append(ks, it.Key().String())
			}
			slices.Sort(ks)
			k := reflect.New(v.Type().Key()).Elem()
			for _, s := range ks {
				h.Str(s)
				k.SetString(s)
				w.value(v.MapIndex(k))
			}
			return
		}
		ks := v.MapKeys()
		slices.SortFunc(ks, compareKeys)
		for _, k := range ks {
			w.value(k)
			w.value(v.MapIndex(k))
		}
	case reflect.String:
		h.Str(v.String())
	case reflect.Bool:
		h.Str(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		h.Num(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		h.Str(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		h.Str(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	default:
		// Complex numbers, and what is no data (functions, channels):
		// what they print.
		h.Str(fmt.Sprint(v))
	}
}

// optedOut reports whether field f is tagged "-" under one of keys.
func optedOut(f reflect.StructField, keys []string) bool {
	for _, k := range keys {
		if f.Tag.Get(k) == "-" {
			return true
		}
	}
	return false
}

// compareKeys orders map keys: strings and numbers by value, anything
// else by what it prints.
func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	}
	return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b))
}
