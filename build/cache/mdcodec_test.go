package cache

import (
	"reflect"
	"testing"
)

// TestDecodeMarkdown: a page's markdown record, every field set (fill),
// written by the cache's encoding, reads back whole by decodeMarkdown,
// as decodeRecord reads it: a field added to Markdown or to what it holds
// fails this test until decodeMarkdown reads it. A record cut short, or
// with a byte more, is refused.
func TestDecodeMarkdown(t *testing.T) {
	var m Markdown
	n := 0
	fill(reflect.ValueOf(&m).Elem(), &n, map[reflect.Type]int{})
	if m.Links[0].At.Context[0] == "" || m.TOC[0].Children == nil {
		t.Fatalf("fill missed fields: %#v", m)
	}
	for _, want := range []Markdown{m, {}, {Gen: 7, IDs: []string{"a"}}} {
		b := encodeRecord(&want)
		got, ok := decodeMarkdown(b)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeMarkdown = %v\n%#v\nwant\n%#v", ok, got, want)
		}
		var viaReflection Markdown
		if err := decodeRecord(b, &viaReflection); err != nil || !reflect.DeepEqual(viaReflection, got) {
			t.Fatalf("decodeRecord = %v\n%#v", err, viaReflection)
		}
	}
	b := encodeRecord(&m)
	for cut := range len(b) {
		if _, ok := decodeMarkdown(b[:cut]); ok {
			t.Fatalf("a record cut to %d of its %d bytes read", cut, len(b))
		}
	}
	if _, ok := decodeMarkdown(append(b, 0)); ok {
		t.Error("a record with a byte more read")
	}
}

// BenchmarkDecodeMarkdown reads a full record by hand and by reflection.
func BenchmarkDecodeMarkdown(b *testing.B) {
	var m Markdown
	n := 0
	fill(reflect.ValueOf(&m).Elem(), &n, map[reflect.Type]int{})
	rec := encodeRecord(&m)
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			decodeMarkdown(rec)
		}
	})
	b.Run("reflection", func(b *testing.B) {
		for b.Loop() {
			var x Markdown
			decodeRecord(rec, &x)
		}
	})
}

// TestFilesRecord: the output files' record reads back as written; cut
// short, it is refused.
func TestFilesRecord(t *testing.T) {
	files := map[string]File{"index.html": {FP: 1 << 63, Size: 10, MTime: 1700000000123456789}, "ja/a/index.html": {FP: 3, Size: -1}, "": {}}
	b := encodeFiles(files)
	if got, ok := decodeFiles(b); !ok || !reflect.DeepEqual(got, files) {
		t.Fatalf("decodeFiles = %v, %v", got, ok)
	}
	for cut := range len(b) {
		if _, ok := decodeFiles(b[:cut]); ok {
			t.Fatalf("a record cut to %d of its %d bytes read", cut, len(b))
		}
	}
}
