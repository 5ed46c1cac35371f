package render

import (
	"slices"
	"testing"

	"github.com/spf13/afero"

	"github.com/kakehashi-dev/kakehashi/shortcodes"
)

// TestSplitStatic: the files read into memory are made, the others
// copied, each kept in order.
func TestSplitStatic(t *testing.T) {
	fs := afero.NewMemMapFs()
	static := []StaticFile{{Path: "/css/main.css", Data: []byte("a{}")}, {Path: "/img/a.png", fsys: fs},
		{Path: "/js/x.js", Data: []byte("x")}, {Path: "/f.pdf", fsys: fs}}
	made, copied := SplitStatic(static)
	paths := func(fs []StaticFile) (ps []string) {
		for _, f := range fs {
			ps = append(ps, f.Path)
		}
		return ps
	}
	if got := paths(made); !slices.Equal(got, []string{"/css/main.css", "/js/x.js"}) {
		t.Errorf("made: %v", got)
	}
	if got := paths(copied); !slices.Equal(got, []string{"/img/a.png", "/f.pdf"}) {
		t.Errorf("copied: %v", got)
	}
}

// TestWritten: the calculators' files, first in the bundle, are written
// only for a site with a calculator.
func TestWritten(t *testing.T) {
	a := AssetBundle{Files: []StaticFile{{Path: "/calc/calc.wasm"}, {Path: "/js/wasm_exec.js"}, {Path: "/css/main.css"}}, Calc: 2}
	if got := a.Written(true); len(got) != 3 {
		t.Errorf("with a calculator: %d files, want 3", len(got))
	}
	if got := a.Written(false); len(got) != 1 || got[0].Path != "/css/main.css" {
		t.Errorf("without: %v, want the stylesheet only", got)
	}
	if got := (AssetBundle{Files: []StaticFile{{Path: "/css/main.css"}}}).Written(false); len(got) != 1 {
		t.Errorf("a bundle without modules: %v", got)
	}
}

// TestUsesCalc: a site holds a calculator when a page links the
// calculators' script.
func TestUsesCalc(t *testing.T) {
	plain := &Page{Scripts: []string{"/js/other.js"}}
	calc := &Page{Scripts: []string{"/js/other.js", shortcodes.CalcScriptPath}}
	if UsesCalc(nil) || UsesCalc([]*Page{plain}) || !UsesCalc([]*Page{plain, calc}) {
		t.Error("UsesCalc does not tell the pages with a calculator")
	}
}
