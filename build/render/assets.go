package render

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/kakehashi-dev/kakehashi/build/wasm"
	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// ContentSecurityPolicy is every page's policy, carried in a <meta> so
// that it holds on any host, in serve and from file://: scripts and
// WebAssembly only from the site itself (the calculators compile theirs),
// no plugins, no <base> that would move relative URLs elsewhere. A
// foreign script stays blocked even if something a page holds names one.
const ContentSecurityPolicy = "script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'"

// CalcManifest is where the calculators' script takes the published names
// of the files it loads: a theme's own calc.js without it gets none.
const CalcManifest = "/*kakehashi:assets*/{}"

// AssetBundle is what a site publishes of its theme and its calculators:
// every file under its published name, and those names by path.
type AssetBundle struct {
	Assets Assets
	// Files are the files to write, each at its published path; the
	// first Calc of them are the calculators' modules and Go's
	// wasm_exec.js, written only for a site with a calculator.
	Files []StaticFile
	Calc  int
}

// PrepareAssets minifies the static files, the highlight stylesheet
// (chromaCSS) and Go's wasm_exec.js, and names every stylesheet, script
// and module by a hash of its bytes (Fingerprinted), so that the pages
// that link them can be rendered with their names (Site.Assets). The
// calculators' script gets the names of the files it loads in place of
// CalcManifest. mods are the calculators' modules, nil for none;
// explicitIndex adds their script forms, for file://, named after the
// modules' published names plus ".js". The same input gives the same
// names.
func PrepareAssets(min *Minifier, static []StaticFile, chromaCSS []byte, mods *wasm.Modules, explicitIndex bool) AssetBundle {
	a := AssetBundle{Assets: Assets{}}
	putSum := func(p string, data []byte, sum string) {
		p = "/" + strings.TrimPrefix(p, "/")
		switch {
		case !Fingerprinted(p):
		case sum != "":
			p = a.Assets.AddSum(p, sum)
		default:
			p = a.Assets.Add(p, data)
		}
		a.Files = append(a.Files, StaticFile{Path: p, Data: data})
	}
	put := func(p string, data []byte) { putSum(p, data, "") }
	if mods != nil {
		for _, f := range mods.Files(false) {
			if f.Open != nil {
				// Named by its recorded sum, streamed as it is written.
				p := "/" + strings.TrimPrefix(f.Path, "/")
				if Fingerprinted(p) {
					p = a.Assets.AddSum(p, f.Sum)
				}
				a.Files = append(a.Files, StaticFile{Path: p, Source: "(kakehashi)", Size: f.Size, open: f.Open})
				continue
			}
			if f.Path == shortcodes.WasmExecPath {
				f.Data = min.Minify(f.Path, f.Data)
			}
			putSum(f.Path, f.Data, f.Sum)
		}
		if explicitIndex {
			for _, f := range mods.Files(true)[3:] {
				wasmPath := strings.TrimSuffix(f.Path, ".js")
				a.Files = append(a.Files, StaticFile{Path: a.Assets[wasmPath] + ".js", Data: f.Data})
			}
		}
		a.Calc = len(a.Files)
	}
	var calcJS *StaticFile
	for i, f := range static {
		if f.Path == shortcodes.CalcScriptPath {
			calcJS = &static[i]
			continue
		}
		put(f.Path, min.Minify(f.Path, f.Data))
	}
	put(HighlightStylePath, min.Minify("chroma.css", chromaCSS))
	if calcJS != nil {
		data := bytes.Replace(calcJS.Data, []byte(CalcManifest), calcScriptManifest(a.Assets), 1)
		put(calcJS.Path, min.Minify(calcJS.Path, data))
	}
	return a
}

// calcScriptManifest is the object calc.js reads the files it loads from,
// each relative to calc.js's own folder, /js/.
func calcScriptManifest(a Assets) []byte {
	rel := func(p string) string { return Rel(shortcodes.CalcScriptPath, a.Path(p)) }
	m := map[string]string{"css": rel(shortcodes.CalcStylePath)}
	if _, ok := a[shortcodes.CalcWasmPath]; ok {
		m["exec"] = rel(shortcodes.WasmExecPath)
		m[wasm.CalcName] = rel(shortcodes.CalcWasmPath)
		m[wasm.CalcX509Name] = rel(shortcodes.CalcX509WasmPath)
	}
	out, _ := json.Marshal(m) // sorted keys: the same names give the same bytes
	return out
}

// PreparedAssets are the theme's assets PrepareAssets made for the last
// build, and what from, so that a build with the same static files,
// highlight stylesheet and calculators takes them as they are: the
// calculators' modules, megabytes, are not hashed again for their names
// on every rebuild. The zero value has none yet.
type PreparedAssets struct {
	made     []StaticFile
	css      []byte
	mods     *wasm.Modules
	explicit bool
	bundle   *AssetBundle
}

// Prepare is PrepareAssets(min, made, css, mods, explicit), the last
// call's when made are the same files (paths and bytes), css the same
// bytes, and mods the same modules (they are compiled once, and do not
// change). min must minify the same input the same way in every call.
func (a *PreparedAssets) Prepare(min *Minifier, made []StaticFile, css []byte, mods *wasm.Modules, explicit bool) AssetBundle {
	if a.bundle != nil && a.mods == mods && a.explicit == explicit && bytes.Equal(a.css, css) &&
		slices.EqualFunc(a.made, made, func(x, y StaticFile) bool { return x.Path == y.Path && bytes.Equal(x.Data, y.Data) }) {
		return *a.bundle
	}
	b := PrepareAssets(min, made, css, mods, explicit)
	*a = PreparedAssets{made: made, css: css, mods: mods, explicit: explicit, bundle: &b}
	return b
}
