package asset

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	_ "image/gif"  // image.DecodeConfig reads GIF
	_ "image/jpeg" // and JPEG
	_ "image/png"  // and PNG
	"io"
	"math"
	"path"
	"strconv"
	"strings"

	_ "golang.org/x/image/webp" // and WebP
)

// IsImage reports whether the file's name says it is an image whose size
// Size reads: PNG, JPEG, GIF, WebP or SVG.
func IsImage(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg":
		return true
	}
	return false
}

// Size returns the width and height in pixels of the image data, a file
// named name; 0, 0 for a file that is not an image IsImage knows, or an
// SVG that gives no size.
func Size(name string, data []byte) (w, h int, err error) {
	return SizeOf(name, bytes.NewReader(data))
}

// SizeOf is Size reading from rd, only as far as the size is.
func SizeOf(name string, rd io.Reader) (w, h int, err error) {
	switch strings.ToLower(path.Ext(name)) {
	case ".svg":
		return svgSize(rd)
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		cfg, _, err := image.DecodeConfig(rd)
		if err != nil {
			return 0, 0, err
		}
		return cfg.Width, cfg.Height, nil
	}
	return 0, 0, nil
}

// svgSize reads the size of an SVG from its first element: its width and
// height in pixels (a number, or one with "px"), else its viewBox.
func svgSize(rd io.Reader) (w, h int, err error) {
	dec := xml.NewDecoder(io.LimitReader(rd, 1<<20))
	dec.Strict = false
	for {
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, 0, errors.New("no <svg> element")
			}
			return 0, 0, err
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if el.Name.Local != "svg" {
			return 0, 0, errors.New("the first element is <" + el.Name.Local + ">, not <svg>")
		}
		var width, height, viewBox string
		for _, a := range el.Attr {
			switch a.Name.Local {
			case "width":
				width = a.Value
			case "height":
				height = a.Value
			case "viewBox":
				viewBox = a.Value
			}
		}
		w, wok := pixels(width)
		h, hok := pixels(height)
		if wok && hok {
			return w, h, nil
		}
		f := strings.FieldsFunc(viewBox, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' })
		if len(f) == 4 {
			vw, err1 := strconv.ParseFloat(f[2], 64)
			vh, err2 := strconv.ParseFloat(f[3], 64)
			if err1 == nil && err2 == nil && vw > 0 && vh > 0 {
				return int(math.Round(vw)), int(math.Round(vh)), nil
			}
		}
		return 0, 0, nil
	}
}

// pixels reads an SVG length in pixels: "64", "64px", "64.5".
func pixels(s string) (int, bool) {
	s = strings.TrimSuffix(strings.TrimSpace(s), "px")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		return 0, false
	}
	return int(math.Round(f)), true
}
