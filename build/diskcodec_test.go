package build

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/diag"
	"github.com/kakehashi-dev/kakehashi/build/markdown"
)

func sampleDiskCache() *diskCache {
	return &diskCache{
		MD: map[string]diskMD{
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
		Out: map[string]diskOut{
			"ja/index.html":  {FP: 99, Size: 1234, MTime: -5},
			"ko/search.json": {FP: 1, Size: 0, MTime: 1_700_000_000_000_000_000},
		},
	}
}

func TestDiskCodecRoundTrip(t *testing.T) {
	c := sampleDiskCache()
	var buf bytes.Buffer
	if err := encodeDisk(&buf, c); err != nil {
		t.Fatal(err)
	}
	got, err := decodeDisk(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip changed the cache:\n got %#v\nwant %#v", got, c)
	}
	// Equal caches are equal bytes, whatever the map order.
	var again bytes.Buffer
	encodeDisk(&again, sampleDiskCache())
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two encodings of the same cache differ")
	}
	empty := &diskCache{MD: map[string]diskMD{}, Out: map[string]diskOut{}}
	buf.Reset()
	encodeDisk(&buf, empty)
	if got, err := decodeDisk(buf.Bytes()); err != nil || !reflect.DeepEqual(got, empty) {
		t.Errorf("empty cache: got %#v, %v", got, err)
	}
}

// A damaged or foreign file must read as no cache, never as a wrong one,
// and never panic.
func TestDiskCodecRejectsDamage(t *testing.T) {
	var buf bytes.Buffer
	encodeDisk(&buf, sampleDiskCache())
	good := buf.Bytes()
	for n := range len(good) {
		if c, err := decodeDisk(good[:n]); err == nil {
			t.Fatalf("cut to %d of %d bytes: decoded %#v", n, len(good), c)
		}
	}
	if _, err := decodeDisk(append(bytes.Clone(good), 0)); err == nil {
		t.Error("a trailing byte was accepted")
	}
	old := bytes.Clone(good)
	old[len(diskMagic)-2] = '1' // another format version
	if _, err := decodeDisk(old); err == nil {
		t.Error("another version's file was accepted")
	}
	// Flipping any byte may still decode (a string's bytes are free), but
	// must not panic or allocate without bound.
	for i := len(diskMagic); i < len(good); i++ {
		b := bytes.Clone(good)
		b[i] ^= 0xff
		decodeDisk(b)
	}
}

func FuzzDiskCodec(f *testing.F) {
	var buf bytes.Buffer
	encodeDisk(&buf, sampleDiskCache())
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := decodeDisk(b)
		if err != nil {
			return
		}
		// Whatever decodes survives a round trip unchanged.
		var out bytes.Buffer
		if err := encodeDisk(&out, c); err != nil {
			t.Fatal(err)
		}
		again, err := decodeDisk(out.Bytes())
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("re-encoded cache reads back as %#v, %v", again, err)
		}
	})
}
