package render

import (
	"slices"

	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// SplitStatic parts static files (Theme.Static) into those a site
// publishes made (minified and named by their hash: PrepareAssets) and
// those it publishes as they are (Copied), each in its order.
func SplitStatic(static []StaticFile) (made, copied []StaticFile) {
	for _, f := range static {
		if f.Copied() {
			copied = append(copied, f)
		} else {
			made = append(made, f)
		}
	}
	return made, copied
}

// Written is what a site writes of the bundle: every file, or, when no
// page holds a calculator (calc false), all but the calculators' modules
// and Go's wasm_exec.js.
func (a AssetBundle) Written(calc bool) []StaticFile {
	if calc {
		return a.Files
	}
	return a.Files[a.Calc:]
}

// UsesCalc reports whether a page of pages holds a calculator: links the
// calculators' script.
func UsesCalc(pages []*Page) bool {
	return slices.ContainsFunc(pages, func(p *Page) bool { return slices.Contains(p.Scripts, shortcodes.CalcScriptPath) })
}
