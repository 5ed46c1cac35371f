package cache

import (
	"bytes"
	"reflect"
	"strconv"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

func sampleDiskCache() *Data {
	return &Data{
		MD: map[string]Markdown{
			"content/ja/cka/05-ha-cluster.md": {
				Gen: 1<<63 + 12345, IDs: []string{"クォーラムは過半数", "kubectl"},
				TOC: []markdown.Heading{{Level: 2, ID: "quorum", Text: "クォーラム", Children: []markdown.Heading{
					{Level: 3, ID: "etcd", Text: "etcd"},
				}}},
				Diags: diag.List{{Path: "content/ja/cka/05-ha-cluster.md", Line: 12, Col: 3, Msg: "unknown shortcode",
					Severity: diag.Warning, Source: "{{< quorom >}}", Context: []string{"a", "b"}, ContextStart: 10, Code: "shortcode"}},
				Minutes: 14, Scripts: []string{"calc"},
			},
			"content/ko/cka/02-control-plane.md": {Gen: 7, Styles: []string{"쿼럼"}},
		},
		Out: map[string]File{
			"ja/index.html":  {FP: 99, Size: 1234, MTime: -5},
			"ko/search.json": {FP: 1, Size: 0, MTime: 1_700_000_000_000_000_000},
		},
	}
}

func TestDiskCodecRoundTrip(t *testing.T) {
	c := sampleDiskCache()
	var buf bytes.Buffer
	if err := Encode(&buf, c); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip changed the cache:\n got %#v\nwant %#v", got, c)
	}
	// Equal caches are equal bytes, whatever the map order.
	var again bytes.Buffer
	Encode(&again, sampleDiskCache())
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two encodings of the same cache differ")
	}
	empty := &Data{MD: map[string]Markdown{}, Out: map[string]File{}}
	buf.Reset()
	Encode(&buf, empty)
	if got, err := Decode(buf.Bytes()); err != nil || !reflect.DeepEqual(got, empty) {
		t.Errorf("empty cache: got %#v, %v", got, err)
	}
}

// A damaged or foreign file must read as no cache, never as a wrong one,
// and never panic.
func TestDiskCodecRejectsDamage(t *testing.T) {
	var buf bytes.Buffer
	Encode(&buf, sampleDiskCache())
	good := buf.Bytes()
	for n := range len(good) {
		if c, err := Decode(good[:n]); err == nil {
			t.Fatalf("cut to %d of %d bytes: decoded %#v", n, len(good), c)
		}
	}
	if _, err := Decode(append(bytes.Clone(good), 0)); err == nil {
		t.Error("a trailing byte was accepted")
	}
	old := bytes.Clone(good)
	old[len(diskMagic)-2] = '1' // another format version
	if _, err := Decode(old); err == nil {
		t.Error("another version's file was accepted")
	}
	// Flipping any byte may still decode (a string's bytes are free), but
	// must not panic or allocate without bound.
	for i := len(diskMagic); i < len(good); i++ {
		b := bytes.Clone(good)
		b[i] ^= 0xff
		Decode(b)
	}
}

// fill sets every field under v to a value that is not its zero, each
// different (n counts them): a slice gets two items, a map two entries.
// A struct within one of its own type (a heading's children's children)
// is left empty.
func fill(v reflect.Value, n *int, within map[reflect.Type]int) {
	*n++
	switch v.Kind() {
	case reflect.Struct:
		if within[v.Type()] == 2 {
			return
		}
		within[v.Type()]++
		for i := range v.NumField() {
			fill(v.Field(i), n, within)
		}
		within[v.Type()]--
	case reflect.Slice:
		if within[v.Type().Elem()] == 2 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		fill(s.Index(0), n, within)
		fill(s.Index(1), n, within)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n, within)
			fill(e, n, within)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		v.SetString("s" + strconv.Itoa(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(-*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	default:
		panic("fill: " + v.Type().String())
	}
}

// TestDiskCodecKeepsEveryField: every field of what the cache holds, down
// to the diagnostics' and the headings', comes back as it was written,
// with no line of the codec naming it (a field added to Markdown is kept
// by the next build's cache, not lost).
func TestDiskCodecKeepsEveryField(t *testing.T) {
	var c Data
	n := 0
	fill(reflect.ValueOf(&c).Elem(), &n, map[reflect.Type]int{})
	for _, m := range c.MD {
		if m.Diags[0].Code == "" || m.TOC[0].Children[0].Text == "" {
			t.Fatalf("fill missed fields: %#v", m)
		}
	}
	var buf bytes.Buffer
	if err := Encode(&buf, &c); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, &c) {
		t.Errorf("round trip changed the cache:\n got %#v\nwant %#v", got, &c)
	}
}

// TestShapeOf: the shape written after the magic line changes with any
// field's name, type or order, so that a cache written by a build with
// other types reads as none; types the encoding cannot hold are errors.
func TestShapeOf(t *testing.T) {
	type heading struct {
		Text     string
		Children []heading
	}
	types := []any{
		struct{ A, B string }{},
		struct{ B, A string }{},
		struct{ A, C string }{},
		struct {
			A string
			B int
		}{},
		struct {
			A string
			B int64
		}{},
		struct {
			A string
			B []string
		}{},
		struct{ A map[string]string }{},
		struct{ A map[string]int }{},
		struct{ H heading }{},
		struct{ H []heading }{},
	}
	seen := map[uint64]int{}
	for i, v := range types {
		s, err := shapeOf(reflect.TypeOf(v))
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		if j, dup := seen[s]; dup {
			t.Errorf("%T and %T have the same shape", types[j], v)
		}
		seen[s] = i
	}
	for _, v := range []any{
		struct{ P *string }{},
		struct{ a string }{},
		struct{ M map[int]string }{},
		struct{ F float64 }{},
		struct{ I any }{},
	} {
		if _, err := shapeOf(reflect.TypeOf(v)); err == nil {
			t.Errorf("%T: no error", v)
		}
	}
	if _, err := diskShape(); err != nil {
		t.Errorf("Data: %v", err)
	}
}

func FuzzDiskCodec(f *testing.F) {
	var buf bytes.Buffer
	Encode(&buf, sampleDiskCache())
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Decode(b)
		if err != nil {
			return
		}
		// Whatever decodes survives a round trip unchanged.
		var out bytes.Buffer
		if err := Encode(&out, c); err != nil {
			t.Fatal(err)
		}
		again, err := Decode(out.Bytes())
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("re-encoded cache reads back as %#v, %v", again, err)
		}
	})
}
