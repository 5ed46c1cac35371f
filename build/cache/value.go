package cache

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"
)

// OptOut is the struct tag key by which a field says it does not count in
// a fingerprint made with Value: `fingerprint:"-"`. Value(v, "feed") also
// leaves out the fields tagged `feed:"-"`, and so on for any other key.
const OptOut = "fingerprint"

// Value adds v, plain data (structs, pointers, slices, maps, interfaces
// and basic values, with no cycle), field by field, as a template or a
// cache sees it: every exported field of a struct by name and value, and
// none of its unexported ones (a template cannot read them), except a
// time.Time, added as the instant and zone it prints. Map entries are
// added in the order of their keys, so the sum does not depend on Go's
// map order, and it is the same in every run. A field tagged
// `fingerprint:"-"`, or "-" under any of the keys also given, is left
// out: it must be one that something else stands for.
func (h *Hasher) Value(v any, keys ...string) {
	h.value(reflect.ValueOf(v), append([]string{OptOut}, keys...))
}

var timeType = reflect.TypeFor[time.Time]()

func (h *Hasher) value(v reflect.Value, keys []string) {
	switch v.Kind() {
	case reflect.Invalid:
		h.Str("nil")
	case reflect.Pointer:
		if v.IsNil() {
			h.Str("nil")
			return
		}
		h.Str("&")
		h.value(v.Elem(), keys)
	case reflect.Interface:
		if v.IsNil() {
			h.Str("nil")
			return
		}
		h.Str(v.Elem().Type().String())
		h.value(v.Elem(), keys)
	case reflect.Struct:
		if v.Type() == timeType {
			h.Str(v.Interface().(time.Time).Round(0).String())
			return
		}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || optedOut(f, keys) {
				continue
			}
			h.Str(f.Name)
			h.value(v.Field(i), keys)
		}
		h.Str("}")
	case reflect.Slice, reflect.Array:
		h.Num(int64(v.Len()))
		for i := range v.Len() {
			h.value(v.Index(i), keys)
		}
	case reflect.Map:
		h.Num(int64(v.Len()))
		ks := v.MapKeys()
		slices.SortFunc(ks, compareKeys)
		for _, k := range ks {
			h.value(k, keys)
			h.value(v.MapIndex(k), keys)
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
