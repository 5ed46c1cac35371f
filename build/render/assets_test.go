package render

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/kakehashi-dev/kakehashi/build/wasm"
)

// TestPrepareAssets: every stylesheet, script and module is published
// under a hash of its bytes, the same for the same bytes; the
// calculators' script learns the names of what it loads; the modules come
// first, with their script forms for file://.
func TestPrepareAssets(t *testing.T) {
	static := []StaticFile{
		{Path: "/css/main.css", Data: []byte("body { color: red }\n")},
		{Path: "/js/calc.js", Data: []byte("const files = " + CalcManifest + ";\n")},
		{Path: "/favicon.svg", Data: []byte("<svg/>")},
	}
	mods := &wasm.Modules{Calc: []byte("\x00asm-calc"), CalcX509: []byte("\x00asm-x509"), ExecJS: []byte("// exec\n")}
	a := PrepareAssets(NewMinifier(), static, []byte(".chroma { }\n"), mods, true)
	hashed := regexp.MustCompile(`^/(css|js|calc)/[a-z0-9_-]+\.[0-9a-f]{8}\.(css|js|wasm)(\.js)?$`)
	var paths []string
	for _, f := range a.Files {
		paths = append(paths, f.Path)
		if f.Path != "/favicon.svg" && !hashed.MatchString(f.Path) {
			t.Errorf("%s is not published under a hashed name", f.Path)
		}
	}
	if a.Calc != 5 || !strings.HasPrefix(paths[0], "/calc/calc.") || !strings.HasSuffix(paths[3], ".wasm.js") {
		t.Errorf("the calculators' files are not the first %d: %v", a.Calc, paths)
	}
	var calcJS string
	for _, f := range a.Files {
		if strings.HasPrefix(f.Path, "/js/calc.") {
			calcJS = string(f.Data)
		}
	}
	if strings.Contains(calcJS, CalcManifest) || !strings.Contains(calcJS, `calc:"../calc/calc.`) || !strings.Contains(calcJS, `css:"../css/calc.css"`) {
		t.Errorf("calc.js does not carry the names it loads: %s", calcJS)
	}
	b := PrepareAssets(NewMinifier(), static, []byte(".chroma { }\n"), mods, true)
	if a.Assets.Digest() != b.Assets.Digest() {
		t.Error("the same input gave other names")
	}
	static[0].Data = []byte("body { color: blue }\n")
	if c := PrepareAssets(NewMinifier(), static, nil, nil, false); c.Assets["/css/main.css"] == a.Assets["/css/main.css"] || c.Calc != 0 {
		t.Errorf("an edited stylesheet kept its name, or no modules gave calculator files (%d)", c.Calc)
	}
}

// TestAddSum: a file named by its known sum is named as hashing it names
// it.
func TestAddSum(t *testing.T) {
	data := []byte("\x00asm\x01\x00\x00\x00module")
	a, b := Assets{}, Assets{}
	if got, want := a.AddSum("/wasm/calc.wasm", fmt.Sprintf("%x", sha256.Sum256(data))), b.Add("/wasm/calc.wasm", data); got != want {
		t.Errorf("AddSum named it %s, Add %s", got, want)
	}
}
