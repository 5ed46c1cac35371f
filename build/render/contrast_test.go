package render

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestThemeContrast checks WCAG AA contrast (4.5:1 for body text) between
// the theme's text colours and its backgrounds, in light and dark mode,
// read from the custom properties of themes/default/static/css/main.css:
// the light :root block, then the dark one (the OS's, unless the reader
// chose light), which the reader's choice of dark repeats.
func TestThemeContrast(t *testing.T) {
	css, err := os.ReadFile("../../themes/default/static/css/main.css")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile(`:root(?::not\(\[data-theme=light\]\)|\[data-theme=dark\])?\{([^}]*)\}`).FindAllSubmatch(css, -1)
	if len(blocks) < 3 {
		t.Fatalf("want a light and two dark :root blocks, found %d", len(blocks))
	}
	if a, b := string(blocks[1][1]), string(blocks[2][1]); a != b {
		t.Errorf("the dark theme chosen differs from the OS's:\n%s\n%s", a, b)
	}
	prop := regexp.MustCompile(`--([a-z-]+):(#[0-9a-fA-F]{3,6})`)
	texts := []string{"fg", "muted", "accent", "note", "tip", "warning", "exam"}
	grounds := []string{"bg", "surface"}
	for i, mode := range []string{"light", "dark"} {
		vars := map[string]string{}
		for _, m := range prop.FindAllSubmatch(blocks[i][1], -1) {
			vars[string(m[1])] = string(m[2])
		}
		for _, fg := range texts {
			for _, bg := range grounds {
				a, b := vars[fg], vars[bg]
				if a == "" || b == "" {
					t.Fatalf("%s: --%s or --%s missing", mode, fg, bg)
				}
				if r := contrast(a, b); r < 4.5 {
					t.Errorf("%s: --%s %s on --%s %s: contrast %.2f, want at least 4.5", mode, fg, a, bg, b, r)
				}
			}
		}
	}
}

func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	h := hex[1:]
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	var c [3]float64
	for i := range c {
		v, _ := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
		s := float64(v) / 255
		if s <= 0.03928 {
			c[i] = s / 12.92
		} else {
			c[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
}
