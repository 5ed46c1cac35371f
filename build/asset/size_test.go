package asset

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

// WebP returns a lossless WebP of w×h pixels with its header only (RIFF,
// the VP8L chunk's signature and size): what a size is read from.
// golang.org/x/image has no WebP encoder.
func WebP(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14 // no alpha, version 0
	chunk := []byte{0x2f, byte(bits), byte(bits >> 8), byte(bits >> 16), byte(bits >> 24), 0}
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(4+8+len(chunk)))
	b.WriteString("WEBPVP8L")
	_ = binary.Write(&b, binary.LittleEndian, uint32(5))
	b.Write(chunk)
	return b.Bytes()
}

func TestSize(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 7, 5))
	enc := func(f func(*bytes.Buffer) error) []byte {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	pngData := enc(func(b *bytes.Buffer) error { return png.Encode(b, img) })
	jpegData := enc(func(b *bytes.Buffer) error { return jpeg.Encode(b, img, nil) })
	gifData := enc(func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) })
	for _, c := range []struct {
		name string
		data []byte
		w, h int
		err  string
	}{
		{"a.png", pngData, 7, 5, ""},
		{"a.JPG", jpegData, 7, 5, ""},
		{"a.jpeg", jpegData, 7, 5, ""},
		{"a.gif", gifData, 7, 5, ""},
		{"a.webp", WebP(300, 2), 300, 2, ""},
		{"a.svg", []byte(`<?xml version="1.0"?><!-- c --><svg width="64" height="32px"/>`), 64, 32, ""},
		{"a.svg", []byte(`<svg viewBox="0,0 120.4 39.6" width="50%"/>`), 120, 40, ""},
		{"a.svg", []byte(`<svg width="10"/>`), 0, 0, ""},
		{"a.svg", []byte(`<html/>`), 0, 0, "the first element is <html>, not <svg>"},
		{"a.png", []byte("not a png"), 0, 0, "image: unknown format"},
		{"a.txt", []byte("text"), 0, 0, ""},
	} {
		w, h, err := Size(c.name, c.data)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if w != c.w || h != c.h || got != c.err {
			t.Errorf("Size(%s, %.20q) = %d, %d, %q; want %d, %d, %q", c.name, c.data, w, h, got, c.w, c.h, c.err)
		}
	}
}
