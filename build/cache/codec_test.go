package cache

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

func sampleDiskCache() *Data {
	return &Data{
		MD: map[string]Markdown{
			"content/ja/cka/05-ha-cluster.md": {
				Gen: 1<<63 + 12345, Text: "クォーラムは過半数\n本文", CodeText: "kubectl get nodes",
				TOC: []markdown.Heading{{Level: 2, ID: "quorum", Text: "クォーラム", Children: []markdown.Heading{
					{Level: 3, ID: "etcd", Text: "etcd"},
				}}},
				Diags: diag.List{{Path: "content/ja/cka/05-ha-cluster.md", Line: 12, Col: 3, Msg: "unknown shortcode",
					Severity: diag.Warning, Source: "{{< quorom >}}", Context: []string{"a", "b"}, ContextStart: 10}},
				Minutes: 14, Scripts: []string{"calc"},
			},
			"content/ko/cka/02-control-plane.md": {Gen: 7, Text: "쿼럼"},
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
